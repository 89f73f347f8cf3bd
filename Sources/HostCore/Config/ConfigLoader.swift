import Foundation
import Logging
import TOMLKit

public struct ConfigError: Error, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var reason: String

    public var description: String {
        if let line { return "\(file):\(line): \(reason)" }
        return "\(file): \(reason)"
    }
}

public struct LoadedConfiguration: Sendable {
    public var configuration: HostConfiguration
    public var warnings: [String]
    /// nil when no file was read (embedded defaults).
    public var path: String?
}

/// Reads `config.toml` into a `HostConfiguration`: every key typed and range-checked, errors with
/// file, line and reason, unknown keys as warnings.
public enum ConfigLoader {
    /// An http(s) address with a host (a sink's server or webhook, a notice's link).
    static func isWebURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return false }
        return true
    }

    /// `explicitPath` (from `--config` or `ASSISTANT_CONFIG`) must exist; the default path may not.
    public static func load(explicitPath: String?, environment: [String: String]) throws -> LoadedConfiguration {
        let path = explicitPath ?? Paths.configFile(environment: environment)
        let data: Data
        do throws(SafeFile.Failure) { data = try SafeFile.read(path, limit: SafeFile.Limit.smallFile) } catch {
            // The default path may be absent; anything else about it is the person's to fix.
            if explicitPath == nil, case .cannotOpen(let code) = error.reason, code == ENOENT || code == ENOTDIR {
                return LoadedConfiguration(configuration: HostConfiguration(), warnings: [], path: nil)
            }
            throw ConfigError(file: path, line: nil, reason: "the file \(error.problem)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: nil, reason: "the file is not UTF-8 text")
        }
        var loaded = try parse(text, file: path)
        loaded.path = path
        return loaded
    }

    public static func parse(_ text: String, file: String) throws -> LoadedConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(file: file, line: error.source.begin.line, reason: error.description)
        }
        let root = json(table)
        var reader = Reader(text: text, file: file)
        let config = try reader.read(root)
        return LoadedConfiguration(configuration: config, warnings: reader.warnings, path: file)
    }

    static func json(_ value: any TOMLValueConvertible) -> JSONValue {
        switch value.type {
        case .table:
            let table = value.table!
            var object: [String: JSONValue] = [:]
            for key in table.keys { object[key] = table[key].map(json) ?? .null }
            return .object(object)
        case .array:
            return .array(value.array!.map(json))
        case .string: return .string(value.string!)
        case .int: return .int(Int64(value.int!))
        case .double: return .double(value.double!)
        case .bool: return .bool(value.bool!)
        case .date, .time, .dateTime: return .string(value.tomlValue.debugDescription)
        }
    }
}

/// Walks the parsed document section by section. Locating a key's line is a text search: TOMLKit
/// reports positions for syntax errors only.
struct Reader {
    let lines: [Substring]
    let file: String
    var warnings: [String] = []

    init(text: String, file: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        self.file = file
    }

    func line(of key: String, in section: String) -> Int? {
        var current = ""
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                current = line.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                if current == [section, key].filter({ !$0.isEmpty }).joined(separator: ".") { return index + 1 }
                continue
            }
            if current == section, line.hasPrefix(key), line.dropFirst(key.count).trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                return index + 1
            }
        }
        return nil
    }

    func fail(_ section: String, _ key: String, _ reason: String) -> ConfigError {
        let dotted = [section, key].filter { !$0.isEmpty }.joined(separator: ".")
        return ConfigError(file: file, line: line(of: key, in: section), reason: "'\(dotted)' \(reason)")
    }

    mutating func warnUnknown(_ object: [String: JSONValue], known: Set<String>, section: String) {
        for key in object.keys.sorted() where !known.contains(key) {
            let dotted = [section, key].filter { !$0.isEmpty }.joined(separator: ".")
            let at = line(of: key, in: section).map { ":\($0)" } ?? ""
            warnings.append("\(file)\(at): unknown key '\(dotted)' ignored")
        }
    }

    func table(_ value: JSONValue?, _ section: String, _ key: String) throws -> [String: JSONValue] {
        guard let value else { return [:] }
        guard let object = value.objectValue else { throw fail(section, key, "must be a table") }
        return object
    }

    func string(_ o: [String: JSONValue], _ section: String, _ key: String) throws -> String? {
        guard let v = o[key] else { return nil }
        guard let s = v.stringValue else { throw fail(section, key, "must be a string, got \(v.typeName)") }
        return s
    }

    /// An integer key of `o` (its section's table) within the key's declared range.
    func int(_ o: [String: JSONValue], _ declared: HostConfigKey) throws -> Int? {
        let (section, key) = (declared.section, declared.name)
        guard let v = o[key] else { return nil }
        guard let i = v.intValue else { throw fail(section, key, "must be an integer, got \(v.typeName)") }
        if let range = declared.range, !range.contains(i) {
            throw fail(section, key, "must be between \(range.lowerBound) and \(range.upperBound), got \(i)")
        }
        return Int(i)
    }

    func bool(_ o: [String: JSONValue], _ section: String, _ key: String) throws -> Bool? {
        guard let v = o[key] else { return nil }
        guard let b = v.boolValue else { throw fail(section, key, "must be true or false, got \(v.typeName)") }
        return b
    }

    func strings(_ o: [String: JSONValue], _ section: String, _ key: String) throws -> [String]? {
        guard let v = o[key] else { return nil }
        if let s = v.stringValue { return [s] }
        guard let items = v.arrayValue, let strings = Optional(items.compactMap(\.stringValue)), strings.count == items.count else {
            throw fail(section, key, "must be a list of strings")
        }
        return strings
    }

    func choice(_ o: [String: JSONValue], _ section: String, _ key: String, _ choices: [String]) throws -> String? {
        guard let s = try string(o, section, key) else { return nil }
        guard choices.contains(s) else { throw fail(section, key, "must be one of \(choices.joined(separator: ", ")), got '\(s)'") }
        return s
    }

    func route(_ o: [String: JSONValue], _ section: String, default base: NoticeRoute) throws -> NoticeRoute {
        var route = base
        if let topics = try strings(o, section, "topics") { route.topics = topics.map(TopicPattern.init) }
        if let s = try choice(o, section, "min_severity", Severity.allCases.map(\.rawValue)) { route.minimumSeverity = Severity(rawValue: s)! }
        return route
    }

    mutating func read(_ root: JSONValue) throws -> HostConfiguration {
        var c = HostConfiguration()
        let top = root.objectValue ?? [:]
        warnUnknown(top, known: HostConfigKeys.known(in: ""), section: "")

        if let zone = try string(top, "", "timezone") {
            guard let tz = TimeZone(identifier: zone) else {
                throw fail("", "timezone", "is not a known time zone (try Europe/Prague or UTC), got '\(zone)'")
            }
            c.timeZone = tz
        }
        if let language = try choice(top, "", "language", LanguageCode.allCases.map(\.rawValue)) { c.language = LanguageCode(rawValue: language)! }
        if let level = try choice(top, "", "log_level", Logger.Level.allCases.map(\.rawValue)) { c.logLevel = Logger.Level(rawValue: level)! }
        if let grace = try int(top, HostConfigKeys.shutdownGrace) { c.shutdownGrace = .seconds(grace) }

        let socket = try table(top["socket"], "", "socket")
        warnUnknown(socket, known: HostConfigKeys.known(in: "socket"), section: "socket")
        c.socket.path = try string(socket, "socket", "path")
        if let mode = try string(socket, "socket", "mode") {
            guard let m = mode_t(mode, radix: 8), m & ~0o777 == 0, m & 0o600 == 0o600 else {
                throw fail(
                    "socket", "mode", "must be an octal mode such as \"0600\" or \"0660\" that keeps the owner's read and write, got '\(mode)'")
            }
            c.socket.mode = m
        }
        if let uids = socket["allow_uids"] {
            guard let items = uids.arrayValue, items.allSatisfy({ ($0.intValue ?? -1) >= 0 }) else {
                throw fail("socket", "allow_uids", "must be a list of numeric user ids")
            }
            c.socket.allowUIDs = items.map { uid_t($0.intValue!) }
        }
        c.socket.allowGroups = try strings(socket, "socket", "allow_groups") ?? []
        if let max = try int(socket, HostConfigKeys.maxRequestBytes) { c.socket.maxRequestBytes = max }
        if let max = try int(socket, HostConfigKeys.maxConcurrentRequests) { c.socket.maxConcurrentPerConnection = max }
        if let max = try int(socket, HostConfigKeys.noticeQueue) { c.socket.noticeQueueLimit = max }

        let store = try table(top["store"], "", "store")
        warnUnknown(store, known: HostConfigKeys.known(in: "store"), section: "store")
        c.store.dataDir = try string(store, "store", "data_dir")
        if let days = try int(store, HostConfigKeys.retentionDays) { c.store.retentionDays = days }

        let vault = try table(top["vault"], "", "vault")
        warnUnknown(vault, known: HostConfigKeys.known(in: "vault"), section: "vault")
        if let mode = try choice(vault, "vault", "mode", ["keyfile", "passphrase"]) { c.vault.mode = mode }
        c.vault.keyFile = try string(vault, "vault", "key_file")
        if let n = try int(vault, HostConfigKeys.scryptLogN) { c.vault.scryptLogN = n }

        let notify = try table(top["notify"], "", "notify")
        warnUnknown(notify, known: HostConfigKeys.known(in: "notify"), section: "notify")
        let stdout = try table(notify["stdout"], "notify", "stdout")
        warnUnknown(stdout, known: HostConfigKeys.known(in: "notify.stdout"), section: "notify.stdout")
        if let on = try bool(stdout, "notify.stdout", "enabled") { c.notify.stdout.enabled = on }
        if let f = try choice(stdout, "notify.stdout", "format", ["text", "json"]) { c.notify.stdout.format = StdoutSink.Format(rawValue: f)! }
        c.notify.stdout.route = try route(stdout, "notify.stdout", default: c.notify.stdout.route)

        let mail = try table(notify["mail"], "notify", "mail")
        warnUnknown(mail, known: HostConfigKeys.known(in: "notify.mail"), section: "notify.mail")
        if let on = try bool(mail, "notify.mail", "enabled") { c.notify.mail.enabled = on }
        if let t = try choice(mail, "notify.mail", "transport", ["sendmail", "smtp"]) { c.notify.mail.transport = t }
        if let p = try string(mail, "notify.mail", "sendmail_path") { c.notify.mail.sendmailPath = p }
        if let from = try string(mail, "notify.mail", "from") {
            do { try MailAddress.validate(from, param: "from") } catch {
                throw fail("notify.mail", "from", "must be one mail address, got '\(from)'")
            }
            c.notify.mail.from = from
        }
        if let to = try strings(mail, "notify.mail", "to") {
            for address in to {
                do { try MailAddress.validate(address, param: "to") } catch {
                    throw fail("notify.mail", "to", "must hold mail addresses, got '\(address)'")
                }
            }
            c.notify.mail.to = to
        }
        c.notify.mail.route = try route(mail, "notify.mail", default: c.notify.mail.route)

        let ntfy = try table(notify["ntfy"], "notify", "ntfy")
        warnUnknown(ntfy, known: HostConfigKeys.known(in: "notify.ntfy"), section: "notify.ntfy")
        if let server = try string(ntfy, "notify.ntfy", "server") {
            guard ConfigLoader.isWebURL(server) else {
                throw fail("notify.ntfy", "server", "must be an http:// or https:// address, got '\(server)'")
            }
            c.notify.ntfy.server = server
        }
        if let topic = try string(ntfy, "notify.ntfy", "topic") {
            // ntfy's own rule for topic names.
            guard (1...64).contains(topic.count), topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw fail("notify.ntfy", "topic", "must be 1 to 64 letters, digits, - or _, got '\(topic)'")
            }
            c.notify.ntfy.topic = topic
        }
        c.notify.ntfy.caFile = try string(ntfy, "notify.ntfy", "ca_file")
        c.notify.ntfy.route = try route(ntfy, "notify.ntfy", default: c.notify.ntfy.route)

        if let hooks = notify["webhook"] {
            guard let list = hooks.arrayValue ?? hooks.objectValue.map({ [JSONValue.object($0)] }) else {
                throw fail("notify", "webhook", "must be a list of tables ([[notify.webhook]])")
            }
            for (index, item) in list.enumerated() {
                let section = "notify.webhook[\(index)]"
                let hook = try table(item, "notify", "webhook")
                warnUnknown(hook, known: HostConfigKeys.known(in: "notify.webhook[]"), section: section)
                guard let name = try string(hook, section, "name"), (1...32).contains(name.count),
                    name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") })
                else { throw fail(section, "name", "is needed: 1 to 32 lower-case letters, digits, - or _") }
                guard !c.notify.webhooks.contains(where: { $0.name == name }) else { throw fail(section, "name", "'\(name)' is used twice") }
                guard let url = try string(hook, section, "url"), ConfigLoader.isWebURL(url) else {
                    throw fail(section, "url", "must be an http:// or https:// address")
                }
                var settings = WebhookSettings(name: name, url: url)
                settings.route = try route(hook, section, default: settings.route)
                c.notify.webhooks.append(settings)
            }
        }

        let desktop = try table(notify["desktop"], "notify", "desktop")
        warnUnknown(desktop, known: HostConfigKeys.known(in: "notify.desktop"), section: "notify.desktop")
        if let on = try bool(desktop, "notify.desktop", "enabled") { c.notify.desktop.enabled = on }
        if let path = try string(desktop, "notify.desktop", "notify_send_path") { c.notify.desktop.notifySendPath = path }
        c.notify.desktop.route = try route(desktop, "notify.desktop", default: c.notify.desktop.route)

        let smtp = try table(notify["smtp"], "notify", "smtp")
        warnUnknown(smtp, known: HostConfigKeys.known(in: "notify.smtp"), section: "notify.smtp")
        if let h = try string(smtp, "notify.smtp", "host") { c.notify.smtp.host = h }
        c.notify.smtp.port = try int(smtp, HostConfigKeys.smtpPort)
        if let s = try choice(smtp, "notify.smtp", "security", ["starttls", "tls", "none"]) { c.notify.smtp.security = s }
        c.notify.smtp.username = try string(smtp, "notify.smtp", "username")
        c.notify.smtp.caFile = try string(smtp, "notify.smtp", "ca_file")
        if let t = try int(smtp, HostConfigKeys.smtpTimeout) { c.notify.smtp.timeoutSeconds = t }
        // Without TLS the password and every mail cross the network in clear: only a relay on
        // this machine may be reached so.
        if c.notify.smtp.security == "none", !["localhost", "127.0.0.1", "::1", "[::1]"].contains(c.notify.smtp.host.lowercased()),
            !c.notify.smtp.host.hasPrefix("127.")
        {
            throw fail(
                "notify.smtp", "security",
                "none is only for a relay on this machine (localhost, 127.0.0.1, ::1); \(c.notify.smtp.host) needs starttls or tls")
        }

        let mcp = try table(top["mcp"], "", "mcp")
        warnUnknown(mcp, known: HostConfigKeys.known(in: "mcp"), section: "mcp")
        if let patterns = try strings(mcp, "mcp", "tools") {
            for pattern in patterns {
                let name = pattern.hasSuffix("*") ? String(pattern.dropLast()) : pattern
                guard !pattern.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "_") }) else {
                    throw fail("mcp", "tools", "must be method names or prefixes ending in * (tasks.*), got '\(pattern)'")
                }
            }
            c.mcp.tools = patterns
        }
        if let allow = try bool(mcp, "mcp", "allow_destructive") { c.mcp.allowDestructive = allow }
        if let confirm = try bool(mcp, "mcp", "confirm_destructive") { c.mcp.confirmDestructive = confirm }
        if let folder = try string(mcp, "mcp", "files_dir") {
            guard folder.hasPrefix("/") else { throw fail("mcp", "files_dir", "must be an absolute path, got '\(folder)'") }
            c.mcp.filesDir = folder
        }

        let web = try table(top["web"], "", "web")
        warnUnknown(web, known: HostConfigKeys.known(in: "web"), section: "web")
        if let enabled = try bool(web, "web", "enabled") { c.web.enabled = enabled }
        if let listen = try string(web, "web", "listen") {
            guard let (host, port) = WebSettings.listenAddress(listen) else {
                throw fail("web", "listen", "must be host:port (127.0.0.1:8470, [::1]:8470), got '\(listen)'")
            }
            (c.web.host, c.web.port) = (host, port)
        }
        for (key, path) in [("tls_cert", try string(web, "web", "tls_cert")), ("tls_key", try string(web, "web", "tls_key"))] {
            guard let path else { continue }
            guard path.hasPrefix("/") else { throw fail("web", key, "must be an absolute path, got '\(path)'") }
            guard FileManager.default.isReadableFile(atPath: path) else { throw fail("web", key, "names a file that cannot be read: \(path)") }
        }
        c.web.tlsCertificate = try string(web, "web", "tls_cert")
        c.web.tlsKey = try string(web, "web", "tls_key")
        if (c.web.tlsCertificate == nil) != (c.web.tlsKey == nil) {
            throw fail("web", c.web.tlsCertificate == nil ? "tls_cert" : "tls_key", "is needed too: TLS takes both a certificate and its key")
        }
        // Cookies and pages would cross the network in clear, readable by anyone on it.
        if !WebSettings.isLoopback(c.web.host), c.web.tlsCertificate == nil {
            throw fail(
                "web", "tls_cert",
                "is required to listen on \(c.web.host), which is not loopback (or put a reverse proxy with TLS in front and listen on 127.0.0.1)")
        }
        do {
            _ = try c.web.tlsConfiguration()
        } catch {
            // The library's error text names the file, never its contents.
            throw fail("web", "tls_cert", "and tls_key must be a PEM certificate chain and its PEM private key: \(error)")
        }
        if let address = try string(web, "web", "public_url") {
            guard let url = URLComponents(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
                url.query == nil, url.fragment == nil, url.user == nil
            else { throw fail("web", "public_url", "must be an http(s) address without a query (https://phone.example.ts.net), got '\(address)'") }
            // Cookies would cross the network in clear.
            guard url.scheme?.lowercased() == "https" || WebSettings.isLoopback(url.host ?? "") else {
                throw fail("web", "public_url", "must be https unless it is this machine (http://127.0.0.1:8470), got '\(address)'")
            }
            c.web.publicURL = address
        }

        let http = try table(top["http"], "", "http")
        warnUnknown(http, known: HostConfigKeys.known(in: "http"), section: "http")
        if let t = try int(http, HostConfigKeys.httpTimeout) { c.http.timeoutSeconds = t }

        let plugins = try table(top["plugins"], "", "plugins")
        for (id, section) in plugins {
            guard let object = section.objectValue else { throw fail("plugins", id, "must be a table ([plugins.\(id)])") }
            if let enabled = object["enabled"], enabled.boolValue == nil {
                throw fail("plugins.\(id)", "enabled", "must be true or false, got \(enabled.typeName)")
            }
            c.plugins[id] = object
        }
        return c
    }
}
