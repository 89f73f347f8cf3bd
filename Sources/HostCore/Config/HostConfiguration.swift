import Foundation
import Logging

/// Every setting, each with a default, so the daemon runs with no file at all.
/// The README's configuration reference mirrors this file.
public struct HostConfiguration: Sendable {
    public var timeZone: TimeZone = .current
    /// The language of notices' titles and bodies (`language`).
    public var language: LanguageCode = .en
    public var logLevel: Logger.Level = .info

    public var socket = SocketSettings()
    public var store = StoreSettings()
    public var vault = VaultSettings()
    public var notify = NotifySettings()
    public var http = HTTPSettings()
    public var mcp = MCPSettings()
    public var web = WebSettings()
    /// Raw `[plugins.<id>]` sections (`enabled` included).
    public var plugins: [String: [String: JSONValue]] = [:]
    public var shutdownGrace: Duration = .seconds(10)

    public init() {}

    public func isEnabled(plugin id: String) -> Bool {
        plugins[id]?["enabled"]?.boolValue ?? true
    }
}

public struct SocketSettings: Sendable, Equatable {
    /// nil: the default path (`$XDG_RUNTIME_DIR/assistant/assistantd.sock`).
    public var path: String?
    public var mode: mode_t = 0o600
    public var allowUIDs: [uid_t] = []
    public var allowGroups: [String] = []
    public var maxRequestBytes = 1 << 20
    public var maxConcurrentPerConnection = 64
    public var noticeQueueLimit = 1000
    public init() {}
}

public struct StoreSettings: Sendable, Equatable {
    public var dataDir: String?
    public var retentionDays = 90
    public init() {}
}

public struct VaultSettings: Sendable, Equatable {
    /// "keyfile" or "passphrase".
    public var mode = "keyfile"
    public var keyFile: String?
    public var scryptLogN = 17
    public init() {}
}

public struct NotifySettings: Sendable, Equatable {
    public var stdout = StdoutSettings()
    public var mail = MailSinkSettings()
    public var smtp = SMTPSettings()
    public var ntfy = NtfySettings()
    public var webhooks: [WebhookSettings] = []
    public var desktop = DesktopSettings()
    public init() {}
}

/// `[notify.ntfy]`: a push to the phone through an ntfy server (on when `topic` is set). The
/// access token, if any, is in the vault as `host/ntfy/token`.
public struct NtfySettings: Sendable, Equatable {
    public var server = "https://ntfy.sh"
    public var topic: String?
    public var caFile: String?
    public var route = NoticeRoute(topics: [], minimumSeverity: .info)
    public init() {}
    public var enabled: Bool { topic != nil }
}

/// `[[notify.webhook]]`: the notice as JSON, POSTed to `url`; signed when the vault holds
/// `host/webhook/<name>/secret`.
public struct WebhookSettings: Sendable, Equatable {
    public var name: String
    public var url: String
    public var route = NoticeRoute(topics: [], minimumSeverity: .info)
    public init(name: String, url: String) { (self.name, self.url) = (name, url) }
}

/// `[notify.desktop]`: a notification on the user's desktop session (off by default).
public struct DesktopSettings: Sendable, Equatable {
    public var enabled = false
    public var notifySendPath = "/usr/bin/notify-send"
    public var route = NoticeRoute(topics: [], minimumSeverity: .info)
    public init() {}
}

public struct StdoutSettings: Sendable, Equatable {
    public var enabled = true
    public var format: StdoutSink.Format = .text
    public var route = NoticeRoute(topics: [], minimumSeverity: .info)
    public init() {}
}

public struct MailSinkSettings: Sendable, Equatable {
    public var enabled = false
    /// "sendmail" or "smtp".
    public var transport = "sendmail"
    public var sendmailPath = "/usr/sbin/sendmail"
    public var from: String?
    public var to: [String] = []
    public var route = NoticeRoute(topics: [], minimumSeverity: .warning)
    public init() {}
}

public struct SMTPSettings: Sendable, Equatable {
    public var host = "localhost"
    public var port: Int?
    /// "starttls", "tls" (implicit) or "none" (loopback relays only).
    public var security = "starttls"
    public var username: String?
    public var caFile: String?
    public var timeoutSeconds = 30
    public init() {}

    public var effectivePort: Int { port ?? (security == "tls" ? 465 : 587) }
}

/// `[mcp]`: what `assistantctl mcp` offers an AI assistant.
public struct MCPSettings: Sendable, Equatable {
    /// Method names or prefixes ending in `*` (`tasks.*`); empty: every method that may be offered.
    public var tools: [String] = []
    /// Let destructive calls run unasked from a client that cannot ask its person (without
    /// MCP's elicitation); with it, each is confirmed anyway while `confirmDestructive` holds.
    public var allowDestructive = false
    /// Ask the person before each destructive call, where the client can (elicitation).
    public var confirmDestructive = true
    /// The one folder file paths may name when the client declares no roots; nil: `files` in
    /// the data folder.
    public var filesDir: String?
    public init() {}
}

public struct HTTPSettings: Sendable, Equatable {
    public var timeoutSeconds = 30
    public init() {}
}
