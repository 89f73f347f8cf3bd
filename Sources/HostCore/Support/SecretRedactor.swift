import Foundation
import NIOConcurrencyHelpers

/// Remembers every secret value the daemon has seen (vault contents, `secret` parameters) and
/// scrubs them from text and JSON before anything leaves the process: results, errors, logs.
/// It also blanks values under keys that name credentials, for data a plugin relays from
/// upstream (API keys in a service's settings) that never passed through the vault.
public final class SecretRedactor: Sendable {
    public static let placeholder = "«redacted»"
    public static let shared = SecretRedactor()

    /// How many secrets passed as call parameters are kept (the most recent). Vault contents are
    /// kept for good; a parameter's secret matters for its own call and the log lines around it,
    /// and keeping every one ever seen let a client grow the daemon's memory and every
    /// redaction's cost without bound (the fuzzer found it).
    public static let parameterSecretsKept = 256

    /// What one scrub looks for: built when a secret is added, so a reply's strings are only
    /// scanned, never re-sorted.
    private struct Patterns: Sendable {
        /// Secrets of 4 characters or more, longest first (a secret that contains another is
        /// scrubbed whole).
        var scrubbed: [String] = []
        var bytes: [[UInt8]] = []
        /// Indexes into `bytes` by first byte: the scan looks only at secrets that can start at
        /// a position.
        var byFirstByte: [[Int]] = Array(repeating: [], count: 256)
        var shortest = Int.max

        init(_ secrets: [String] = []) {
            scrubbed = secrets.sorted { $0.utf8.count > $1.utf8.count }
            bytes = scrubbed.map { Array($0.utf8) }
            for (index, pattern) in bytes.enumerated() { byFirstByte[Int(pattern[0])].append(index) }
            shortest = bytes.last?.count ?? Int.max
        }

        /// Whether any secret occurs in `text`: one pass over its bytes.
        func occurs(in text: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = text.count
            guard count >= shortest else { return false }
            for position in 0...(count - shortest) {
                for index in byFirstByte[Int(text[position])] {
                    let pattern = bytes[index]
                    guard position + pattern.count <= count else { continue }
                    if pattern.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text.baseAddress! + position, pattern.count) == 0 }) {
                        return true
                    }
                }
            }
            return false
        }
    }

    /// Every secret known, and the patterns of the two scrubs: logs scrub them all; what a
    /// caller sees scrubs all but those a caller named itself.
    private struct Known: Sendable {
        var permanent: Set<String> = []
        /// Parameter secrets, oldest first, at most `parameterSecretsKept`.
        var recent: [String] = []
        /// Secrets a caller has put into its own (non-secret) arguments: scrubbing them from
        /// what it sees would tell it which of its guesses is a stored secret.
        var namedByCaller: Set<String> = []
        var all = Patterns()
        var forCallers = Patterns()

        mutating func add(_ secret: String, permanently: Bool) {
            let known = permanent.contains(secret) || recent.contains(secret)
            if permanently {
                // A parameter secret stored in the vault after all stays for good.
                guard permanent.insert(secret).inserted else { return }
                recent.removeAll { $0 == secret }
            } else {
                guard !known else { return }
                recent.append(secret)
                if recent.count > SecretRedactor.parameterSecretsKept {
                    let dropped = recent.removeFirst()
                    namedByCaller.remove(dropped)
                }
            }
            // A new value of a secret is not one a caller named.
            namedByCaller.remove(secret)
            rebuild()
        }

        mutating func named(_ secrets: [String]) {
            let before = namedByCaller.count
            namedByCaller.formUnion(secrets)
            if namedByCaller.count != before { rebuild() }
        }

        private mutating func rebuild() {
            let scrubbed = (permanent.union(recent)).filter { $0.count >= 4 }
            all = Patterns(Array(scrubbed))
            forCallers = Patterns(scrubbed.filter { !namedByCaller.contains($0) })
        }
    }

    private let known = NIOLockedValueBox(Known())
    private var patterns: Patterns { known.withLockedValue { $0.forCallers } }

    public init() {}

    /// Registers a secret for good (vault contents). Very short values are not scrubbed from free
    /// text (they would mangle ordinary words) but are still never returned as values.
    public func remember(_ secret: String) {
        guard !secret.isEmpty else { return }
        known.withLockedValue { $0.add(secret, permanently: true) }
    }

    /// Registers a secret passed as a call parameter: among the most recent
    /// `parameterSecretsKept` only (a secret that is also stored in the vault stays for good).
    public func rememberParameter(_ secret: String) {
        guard !secret.isEmpty else { return }
        known.withLockedValue { $0.add(secret, permanently: false) }
    }

    /// A caller's own text (its non-secret arguments): a secret in it is one the caller knows,
    /// and is no longer scrubbed from what callers see, so that no guess comes back marked as
    /// a hit. Logs still scrub it.
    public func noteCallerText(_ text: String) {
        let all = known.withLockedValue { $0.all }
        guard text.utf8.count >= all.shortest, text.utf8.withContiguousStorageIfAvailable({ all.occurs(in: $0) }) ?? true else { return }
        let found = all.scrubbed.filter { text.contains($0) }
        if !found.isEmpty { known.withLockedValue { $0.named(found) } }
    }

    /// What callers see: every secret scrubbed but those a caller named itself.
    public func redact(_ text: String) -> String {
        Self.redact(text, patterns)
    }

    /// What logs keep: every secret scrubbed.
    public func redactForLog(_ text: String) -> String {
        Self.redact(text, known.withLockedValue { $0.all })
    }

    private static func redact(_ text: String, _ known: Patterns) -> String {
        scrubbed(text, known) ?? text
    }

    /// nil when `text` holds no secret (most text is shorter than the shortest one).
    private static func scrubbed(_ text: String, _ known: Patterns) -> String? {
        guard text.utf8.count >= known.shortest else { return nil }
        var text = text
        let found = text.withUTF8 { known.occurs(in: $0) }
        guard found else { return nil }
        for secret in known.scrubbed where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: Self.placeholder)
        }
        return text
    }

    static let credentialKeys: Set<String> = [
        "apikey", "api_key", "apiKey", "password", "passwd", "secret", "token", "access_token", "refresh_token",
        "client_secret", "passphrase", "private_key", "key_secret",
    ]

    /// The lengths of the credential keys, as bits: most keys of a large reply are ruled out by
    /// their length before anything is hashed (the set lookups were a sixth of a month's agenda).
    private static let credentialKeyLengths: UInt64 = credentialKeys.reduce(0) { $0 | (1 << UInt64($1.utf8.count)) }

    /// Lower-cases only a key that has capitals (most keys have none: no string is made).
    static func isCredentialKey(_ key: String) -> Bool {
        let length = key.utf8.count
        guard length < 64, credentialKeyLengths & (1 << UInt64(length)) != 0 else { return false }
        return credentialKeys.contains(key) || (key.utf8.contains { (65...90).contains($0) } && credentialKeys.contains(key.lowercased()))
    }

    /// A scrubber for the secrets known now, for a writer to scrub a reply as it writes it
    /// (`JSONValue.responseBytes(id:result:scrubbing:)`): the same bytes as `redact` and then
    /// encoding, in one walk instead of two.
    public func scrubber() -> some JSONScrubber {
        Scrubber(known: patterns)
    }

    private struct Scrubber: JSONScrubber {
        let known: Patterns
        var placeholder: String { SecretRedactor.placeholder }
        func isCredentialKey(_ key: String) -> Bool { SecretRedactor.isCredentialKey(key) }
        func scrubbed(_ text: String) -> String? { SecretRedactor.scrubbed(text, known) }
        var scrubsText: Bool { known.shortest != Int.max }
    }

    /// The value itself when nothing in it needs scrubbing (the common case): nothing is copied.
    /// The same step as the writers take (`JSONScrubber.written`), for a value a library writes.
    public func redact(_ value: JSONValue) -> JSONValue {
        Self.redact(value, Scrubber(known: patterns)) ?? value
    }

    /// nil when unchanged.
    private static func redact(_ value: JSONValue, _ scrubber: Scrubber) -> JSONValue? {
        switch value {
        case .string(let s):
            return scrubber.written(s, credential: false).map(JSONValue.string)
        case .array(let items):
            var out: [JSONValue]?
            for (index, item) in items.enumerated() {
                guard let changed = redact(item, scrubber) else { continue }
                if out == nil { out = items }
                out![index] = changed
            }
            return out.map(JSONValue.array)
        case .object(let object):
            var out: [String: JSONValue]?
            for (key, item) in object {
                let changed: JSONValue? =
                    if case .string(let s) = item {
                        scrubber.written(s, credential: scrubber.isCredentialKey(key)).map(JSONValue.string)
                    } else {
                        redact(item, scrubber)
                    }
                // A key is text like any other: a secret in it is scrubbed too.
                let scrubbedKey = scrubber.scrubbed(key) ?? key
                guard changed != nil || scrubbedKey != key else { continue }
                if out == nil { out = object }
                if scrubbedKey != key { out![key] = nil }
                out![scrubbedKey] = changed ?? item
            }
            return out.map(JSONValue.object)
        default:
            return nil
        }
    }
}
