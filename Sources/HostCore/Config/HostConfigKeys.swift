/// Every key the host reads from `config.toml`, declared once: the loader's "unknown key"
/// warnings are derived from this list, and `config.keys` (so the generated
/// `docs/configuration.md`) shows it. A key read but not declared here is warned about as
/// unknown, which the loader's tests catch.
struct HostConfigKey: Sendable {
    /// The section (`""` for the top level, `notify.webhook[]` for each webhook table).
    let section: String
    let name: String
    let type: String
    /// The default as a person would write or read it.
    let defaultText: String
    let help: String
    /// An integer key's bounds: the loader checks them, and `type` says them.
    let range: ClosedRange<Int64>?

    init(_ section: String, _ name: String, _ type: String, _ defaultText: String, _ help: String) {
        self.section = section
        self.name = name
        self.type = type
        self.defaultText = defaultText
        self.help = help
        range = nil
    }

    /// An integer key within `range`.
    init(_ section: String, _ name: String, _ range: ClosedRange<Int64>, _ defaultText: String, _ help: String) {
        self.section = section
        self.name = name
        type = "integer \(range.lowerBound)–\(range.upperBound)"
        self.defaultText = defaultText
        self.help = help
        self.range = range
    }

    var dotted: String { section.isEmpty ? name : "\(section).\(name)" }
}

enum HostConfigKeys {
    // The integer keys, named for the loader, which reads them with their declared range.
    static let shutdownGrace = HostConfigKey("", "shutdown_grace_s", 1...600, "10", "how long calls in flight may finish on SIGTERM")
    static let maxRequestBytes = HostConfigKey(
        "socket", "max_request_bytes", 1024...268_435_456, "1048576", "longer lines get -32007 and that connection is closed")
    static let maxConcurrentRequests = HostConfigKey(
        "socket", "max_concurrent_requests", 1...10_000, "64", "per connection; beyond it the daemon stops reading (back-pressure)")
    static let noticeQueue = HostConfigKey(
        "socket", "notice_queue", 1...1_000_000, "1000", "notices queued per slow subscriber; the oldest are dropped and counted")
    static let retentionDays = HostConfigKey(
        "store", "retention_days", 1...36_500, "90", "notices, delivered outbox rows and dedupe keys older than this are pruned daily")
    static let scryptLogN = HostConfigKey(
        "vault", "scrypt_log_n", 10...22, "17", "scrypt work factor (2^N) for new passphrases; stored with the vault")
    static let smtpPort = HostConfigKey("notify.smtp", "port", 1...65_535, "587 (465 with tls)", "the SMTP port")
    static let smtpTimeout = HostConfigKey("notify.smtp", "timeout_s", 1...600, "30", "per SMTP session")
    static let httpTimeout = HostConfigKey("http", "timeout_s", 1...3_600, "30", "per request of the shared HTTP client")

    static let all: [HostConfigKey] = [
        .init("", "timezone", "string", "the system's", "governs daily jobs and what the CLI shows; stored times are UTC"),
        .init("", "language", "string", "\"en\"", "cs or en: the language of notices' titles and bodies (their topics and fields never change)"),
        .init("", "log_level", "string", "\"info\"", "trace, debug, info, notice, warning, error or critical (SIGHUP reloads it)"),
        shutdownGrace,
        .init("socket", "path", "string", "$XDG_RUNTIME_DIR/assistant/assistantd.sock", "the socket (--socket and ASSISTANT_SOCKET win)"),
        .init("socket", "mode", "string", "\"0600\"", "the socket's file mode; \"0660\" admits the group deliberately"),
        .init("socket", "allow_uids", "list of integers", "[]", "other user ids served besides the daemon's own (root is not special)"),
        .init("socket", "allow_groups", "list of strings", "[]", "groups (names or gids) whose members are served"),
        maxRequestBytes,
        maxConcurrentRequests,
        noticeQueue,
        .init("store", "data_dir", "string", "$XDG_DATA_HOME/assistant", "where assistant.sqlite and the plugins' files live"),
        retentionDays,
        .init("vault", "mode", "keyfile or passphrase", "\"keyfile\"", "passphrase: scrypt, starts locked, `assistantctl vault unlock`"),
        .init(
            "vault", "key_file", "string", "$XDG_CONFIG_HOME/assistant/vault.key",
            "32-byte key, created 0600; $CREDENTIALS_DIRECTORY/vault.key wins when present"),
        scryptLogN,
        .init("notify.stdout", "enabled", "boolean", "true", "one line per notice on the daemon's stdout"),
        .init("notify.stdout", "format", "text or json", "\"text\"", "json: the notice object, one per line"),
        .init("notify.stdout", "topics", "list of strings", "[] (all)", "topic patterns such as \"octoprint.*\""),
        .init("notify.stdout", "min_severity", "severity", "\"info\"", "debug, info, warning, error or critical"),
        .init("notify.mail", "enabled", "boolean", "false", "mail notices (and allow notifications.send {to})"),
        .init("notify.mail", "transport", "sendmail or smtp", "\"sendmail\"", "sendmail runs `sendmail -t -i`, as cron does"),
        .init("notify.mail", "sendmail_path", "string", "\"/usr/sbin/sendmail\"", "any sendmail-compatible program (msmtp, postfix, …)"),
        .init("notify.mail", "from", "string", "$USER@host", "the sender address"),
        .init("notify.mail", "to", "list of strings", "[]", "recipients of routed notices"),
        .init("notify.mail", "topics", "list of strings", "[] (all)", "what is mailed"),
        .init("notify.mail", "min_severity", "severity", "\"warning\"", "what is mailed"),
        .init("notify.smtp", "host", "string", "\"localhost\"", "the SMTP server"),
        smtpPort,
        .init("notify.smtp", "security", "starttls, tls or none", "\"starttls\"", "none is for loopback relays only"),
        .init("notify.smtp", "username", "string", "none", "AUTH PLAIN/LOGIN; the password is the vault entry host/smtp/password"),
        .init("notify.smtp", "ca_file", "string", "system roots", "PEM file of a private CA; the certificate is always verified"),
        smtpTimeout,
        .init(
            "notify.ntfy", "topic", "string", "none (off)",
            "push to the phone through ntfy: 1–64 letters, digits, - or _; a token, if needed, is the vault entry host/ntfy/token"),
        .init("notify.ntfy", "server", "string", "\"https://ntfy.sh\"", "a self-hosted ntfy server (http or https)"),
        .init("notify.ntfy", "ca_file", "string", "system roots", "PEM file of a private CA for a self-hosted server"),
        .init("notify.ntfy", "topics", "list of strings", "[] (all)", "what is pushed"),
        .init("notify.ntfy", "min_severity", "severity", "\"info\"", "what is pushed"),
        .init(
            "notify.webhook[]", "name", "string", "none",
            "each [[notify.webhook]]: 1–32 lower-case letters, digits, - or _; signed when the vault holds host/webhook/<name>/secret"),
        .init("notify.webhook[]", "url", "string", "none", "where the notice's JSON is POSTed (http or https)"),
        .init("notify.webhook[]", "topics", "list of strings", "[] (all)", "what this webhook gets"),
        .init("notify.webhook[]", "min_severity", "severity", "\"info\"", "what this webhook gets"),
        .init("notify.desktop", "enabled", "boolean", "false", "desktop notifications through notify-send (needs DBUS_SESSION_BUS_ADDRESS)"),
        .init("notify.desktop", "notify_send_path", "string", "\"/usr/bin/notify-send\"", "the program that shows them"),
        .init("notify.desktop", "topics", "list of strings", "[] (all)", "what is shown"),
        .init("notify.desktop", "min_severity", "severity", "\"info\"", "what is shown"),
        httpTimeout,
        .init(
            "mcp", "tools", "list of strings", "[] (all)",
            "the methods `assistantctl mcp` offers: names or prefixes ending in * (the vault, subscribe and backup never are)"),
        .init(
            "mcp", "allow_destructive", "boolean", "false",
            "let destructive calls run unasked from a client that cannot ask its person (no MCP elicitation)"),
        .init(
            "mcp", "confirm_destructive", "boolean", "true",
            "ask the person before each destructive call, where the client can (MCP elicitation); such clients are offered them"),
        .init(
            "mcp", "files_dir", "string", "$XDG_DATA_HOME/assistant/files",
            "the one folder an assistant's file paths may name when its client declares no roots (created 0700)"),
        .init("web", "enabled", "boolean", "false", "serve the web app to paired devices (assistantctl web.pair)"),
        .init("web", "listen", "string", "\"127.0.0.1:8470\"", "host:port; an address that is not loopback needs tls_cert and tls_key"),
        .init("web", "tls_cert", "string", "none", "PEM certificate chain (absolute path); with tls_key, the app is served over HTTPS"),
        .init("web", "tls_key", "string", "none", "PEM private key of tls_cert (absolute path)"),
        .init("web", "public_url", "string", "the listen address", "where a phone reaches the app (a reverse proxy's or Tailscale's), for pairing"),
    ]

    /// The sections the top level may hold besides its own keys.
    static let sections = ["socket", "store", "vault", "notify", "http", "plugins", "mcp", "web"]

    /// The keys declared in one section (for the loader's unknown-key warnings).
    static func known(in section: String) -> Set<String> {
        var names = Set(all.filter { $0.section == section }.map(\.name))
        // A section's sub-tables are keys of it too (`notify` holds `stdout`, `mail`, …).
        let prefix = section.isEmpty ? "" : section + "."
        for key in all where key.section.hasPrefix(prefix) && key.section != section {
            let rest = key.section.dropFirst(prefix.count)
            names.insert(String(rest.prefix { $0 != "." && $0 != "[" }))
        }
        if section.isEmpty { names.formUnion(sections) }
        return names
    }
}
