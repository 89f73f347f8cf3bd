import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import PluginKit
import Subprocess
import SystemPackage

/// How a sink's delivery failed, for the outbox: retried later (with backoff, or at the time the
/// server asked for), or refused for good (a 4xx that will not change: the sink's rows are marked
/// failed and a `host.sink.failed` notice goes to the other sinks).
public enum SinkFailure: Error, CustomStringConvertible {
    case retry(String, after: TimeInterval? = nil)
    /// `status`: the HTTP answer's, when there was one.
    case permanent(String, status: Int? = nil)

    public var description: String {
        switch self {
        case .retry(let reason, _), .permanent(let reason, _): reason
        }
    }

    /// An HTTP answer's status as a failure: 429 and 5xx are retried (429 after its
    /// `Retry-After`), other 4xx are final, 408 and 425 aside.
    static func http(_ status: Int, _ what: String, headers: HTTPHeaders, body: String) -> SinkFailure {
        let reason = "\(what) answered \(status)\(body.isEmpty ? "" : ": \(body.prefix(200))")"
        if status == 429 {
            return .retry(reason, after: headers.first(name: "Retry-After").flatMap(TimeInterval.init))
        }
        return (400..<500).contains(status) && status != 408 && status != 425 ? .permanent(reason, status: status) : .retry(reason)
    }
}

/// One HTTP exchange for a sink: bounded in time and answer size, AsyncHTTPClient's and NIO's
/// failures turned into retries (a server down, a timeout).
enum SinkHTTP {
    static let timeout: Duration = .seconds(30)
    static let maxAnswerBytes = 64 << 10

    static func send(_ request: HTTPClientRequest, what: String) async throws -> UpstreamResponse {
        let response: UpstreamResponse
        do {
            response = try await UpstreamClient.exchange(request, http: UpstreamClient.sharedHTTP, timeout: timeout, maxBytes: maxAnswerBytes)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SinkFailure.retry("\(what) could not be reached: \(ErrorText.sentence(error))")
        }
        guard (200..<300).contains(response.status) else {
            throw SinkFailure.http(response.status, what, headers: response.headers, body: response.text)
        }
        return response
    }
}

/// Publishes to an ntfy topic as ntfy documents it (docs.ntfy.sh/publish): the body is the
/// message, `Title`, `Priority` (debug 1, info 3, warning 4, error and critical 5), `Tags` (the
/// plugin and the topic's words), `Click` for the notice's link, `Markdown` for a body of several
/// lines, `Authorization: Bearer` with the vault's `host/ntfy/token`. An attachment (a print's
/// webcam snapshot) is sent as ntfy's file attachment: the file as the body, `Filename`, and the
/// message in the `Message` header; a server that refuses it as too large (413) gets the notice
/// without it.
public struct NtfySink: NoticeSink {
    public let name = "ntfy"
    let settings: NtfySettings
    let vault: Vault
    /// ntfy's limit for a message (4 096 bytes); longer bodies are cut, with a note.
    static let messageLimit = 4_096

    public init(settings: NtfySettings, vault: Vault) {
        self.settings = settings
        self.vault = vault
    }

    public func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws {
        let attachment = attachments.first { $0.contentType.hasPrefix("image/") }
        if let attachment {
            do {
                return try await publish(notice, attachment: attachment)
            } catch SinkFailure.permanent(_, status: 413) {
                // Too large for this server: the notice goes without its picture.
            }
        }
        try await publish(notice, attachment: nil)
    }

    func publish(_ notice: Notice, attachment: OutgoingAttachment?) async throws {
        var base = settings.server
        while base.hasSuffix("/") { base.removeLast() }
        var request = HTTPClientRequest(url: "\(base)/\(settings.topic ?? "")")
        let message = Self.cut(notice.body.isEmpty ? notice.title : notice.body)
        request.headers.add(name: "Title", value: Self.headerValue(notice.title))
        request.headers.add(name: "Priority", value: String(Self.priority(notice.severity)))
        request.headers.add(name: "Tags", value: Self.tags(notice).joined(separator: ","))
        if message.contains("\n") { request.headers.add(name: "Markdown", value: "yes") }
        if let link = notice.link { request.headers.add(name: "Click", value: Self.headerValue(link)) }
        if let token = try await vault.get("host/ntfy/token"), !token.isEmpty {
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
        }
        if let caFile = settings.caFile {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(caFile)
            request.tlsConfiguration = tls
        }
        if let attachment {
            request.method = .PUT
            request.headers.add(name: "Filename", value: Self.headerValue(attachment.name))
            request.headers.add(name: "Message", value: Self.headerValue(message))
            request.body = .bytes(ByteBuffer(bytes: attachment.data))
        } else {
            request.method = .POST
            request.body = .bytes(ByteBuffer(string: message))
        }
        _ = try await SinkHTTP.send(request, what: "ntfy at \(base)")
    }

    static func priority(_ severity: Severity) -> Int {
        switch severity {
        case .debug: 1
        case .info: 3
        case .warning: 4
        case .error, .critical: 5
        }
    }

    /// The plugin, then the topic's words after it (`octoprint.print.done` → octoprint, print, done).
    static func tags(_ notice: Notice) -> [String] {
        var tags = [notice.plugin]
        for word in notice.topic.split(separator: ".").map(String.init) where !tags.contains(word) { tags.append(word) }
        return tags
    }

    /// At most `messageLimit` bytes, cut on a character with a note saying how much was left out.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > messageLimit else { return text }
        var kept = ""
        let note = "\n… (cut: the notice was \(text.utf8.count) bytes)"
        for character in text {
            if kept.utf8.count + character.utf8.count + note.utf8.count > messageLimit { break }
            kept.append(character)
        }
        return kept + note
    }

    /// A header's value on one line (a title with a newline would end the header).
    static func headerValue(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }.prefix(1_000))
    }
}

/// POSTs the notice as JSON (the object `notify.stdout.format = "json"` prints) to a webhook.
/// With a secret in the vault (`host/webhook/<name>/secret`), it is signed as Stripe signs:
/// `X-Assistant-Timestamp: <unix seconds>` and `X-Assistant-Signature: sha256=<hex>`, the
/// HMAC-SHA256 of `<timestamp>.<body>`, so the receiver can check both the sender and the age.
public struct WebhookSink: NoticeSink {
    public let name: String
    let settings: WebhookSettings
    let vault: Vault
    let now: @Sendable () -> Date

    public init(settings: WebhookSettings, vault: Vault, now: @escaping @Sendable () -> Date) {
        name = "webhook.\(settings.name)"
        self.settings = settings
        self.vault = vault
        self.now = now
    }

    public func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws {
        let body = StdoutSink.render(notice, format: .json)
        var request = HTTPClientRequest(url: settings.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let secret = try await vault.get("host/webhook/\(settings.name)/secret"), !secret.isEmpty {
            let timestamp = String(Int(now().timeIntervalSince1970))
            request.headers.add(name: "X-Assistant-Timestamp", value: timestamp)
            request.headers.add(name: "X-Assistant-Signature", value: "sha256=" + Self.signature(secret: secret, timestamp: timestamp, body: body))
        }
        request.body = .bytes(ByteBuffer(string: body))
        _ = try await SinkHTTP.send(request, what: "the webhook \(settings.name)")
    }

    public static func signature(secret: String, timestamp: String, body: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }
}

/// A freedesktop notification on the user's session bus. No maintained Swift D-Bus library is
/// available here, so libnotify's `notify-send` is run through swift-subprocess (it speaks
/// `org.freedesktop.Notifications.Notify` on `DBUS_SESSION_BUS_ADDRESS`): urgency from the
/// severity, the plugin as the app name.
public struct DesktopSink: NoticeSink {
    public let name = "desktop"
    let path: String
    let environment: [String: String]

    public init(path: String, environment: [String: String]) {
        self.path = path
        self.environment = environment
    }

    public func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws {
        let urgency =
            switch notice.severity {
            case .debug, .info: "low"
            case .warning: "normal"
            case .error, .critical: "critical"
            }
        let body = NtfySink.cut(notice.body)
        var variables: [Environment.Key: String] = [:]
        for key in ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "HOME", "PATH"] {
            if let value = environment[key] { variables[Environment.Key(stringLiteral: key)] = value }
        }
        let status: TerminationStatus
        let errorText: String?
        do {
            let run = try await Subprocess.run(
                .path(FilePath(path)), arguments: ["--urgency=\(urgency)", "--app-name=\(notice.plugin)", "--", notice.title, body],
                environment: .custom(variables), output: .discarded, error: .string(limit: 4_096))
            (status, errorText) = (run.terminationStatus, run.standardError)
        } catch {
            throw SinkFailure.retry("\(path) could not run: \(ErrorText.sentence(error))")
        }
        guard status.isSuccess else {
            let stderr = (errorText ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            throw SinkFailure.retry("\(path) \(SendmailTransport.describe(status))\(stderr.isEmpty ? "" : ": \(stderr)")")
        }
    }
}
