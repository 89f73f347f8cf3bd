import Foundation
import NIOConcurrencyHelpers

/// Remembers every secret value the daemon has seen (vault contents, `secret` parameters) and
/// scrubs them from text and JSON before anything leaves the process: results, errors, logs.
/// It also blanks values under keys that name credentials, for data a plugin relays from
/// upstream (API keys in a service's settings) that never passed through the vault.
public final class SecretRedactor: Sendable {
    public static let placeholder = "«redacted»"
    public static let shared = SecretRedactor()

    private let secrets = NIOLockedValueBox<Set<String>>([])

    public init() {}

    /// Registers a secret. Very short values are not scrubbed from free text (they would mangle
    /// ordinary words) but are still never returned as values.
    public func remember(_ secret: String) {
        guard !secret.isEmpty else { return }
        secrets.withLockedValue { _ = $0.insert(secret) }
    }

    public func redact(_ text: String) -> String {
        let known = secrets.withLockedValue { $0 }
        guard !known.isEmpty else { return text }
        var result = text
        // Longest first, so a secret that contains another is scrubbed whole.
        for secret in known.sorted(by: { $0.count > $1.count }) where secret.count >= 4 && result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.placeholder)
        }
        return result
    }

    static let credentialKeys: Set<String> = [
        "apikey", "api_key", "apiKey", "password", "passwd", "secret", "token", "access_token", "refresh_token",
        "client_secret", "passphrase", "private_key", "key_secret",
    ]

    public func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s):
            let r = redact(s)
            return r == s ? value : .string(r)
        case .array(let items):
            return .array(items.map(redact))
        case .object(let object):
            var out: [String: JSONValue] = [:]
            for (key, item) in object {
                if Self.credentialKeys.contains(key) || Self.credentialKeys.contains(key.lowercased()),
                    case .string(let s) = item, !s.isEmpty
                {
                    out[key] = .string(Self.placeholder)
                } else {
                    out[key] = redact(item)
                }
            }
            return .object(out)
        default:
            return value
        }
    }
}
