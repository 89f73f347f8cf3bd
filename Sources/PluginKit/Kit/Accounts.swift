import Foundation
import GRDB

/// A plugin's named accounts (Home Assistant's config entries): a printer, a university login, a
/// CalDAV server. Settings that are not secret live in `host_accounts`; credentials live in the
/// vault as `<plugin>/<account>/<name>`. The plugin names its commands (`octoprint.printers.*`,
/// `stag.accounts.*`); this is the behaviour behind them:
///
/// - a check the plugin runs before anything is saved (a refused key saves nothing);
/// - a default account, and the only account as the default when there is one;
/// - per-account state, shown in `status`: one account needing re-auth does not stop the others;
///   only calls for it get -32003, naming it and the command that fixes it, and a
///   `<plugin>.auth.expired` notice is posted once per flip.
public actor Accounts {
    public enum State: String, Sendable, Codable, CaseIterable, ResultDescribing {
        case ready
        case needsReauth = "needs_reauth"
        case failed
    }

    public struct Account: Sendable, Equatable {
        public var name: String
        public var settings: [String: JSONValue]
        public var isDefault: Bool
        public var state: State
        public var detail: String?

        public subscript(setting: String) -> JSONValue? { settings[setting] }

        public var json: JSONValue {
            var object = settings
            object["name"] = .string(name)
            object["default"] = .bool(isDefault)
            object["state"] = .string(state.rawValue)
            object["detail"] = detail.map(JSONValue.string) ?? .null
            return .object(object)
        }
    }

    /// The plugin's settings are its own (declared in its `accountSchema`), so they are keyed by
    /// name; the kit's fields come after them and win over a setting of the same name.
    struct SettingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The schema of `Account.json`: the plugin's settings (as declared) and the kit's fields.
    public static func accountSchema(settings: KeyValuePairs<String, JSONSchema>) -> JSONSchema {
        JSONSchema.object([
            "name": .string, "default": .boolean, "state": .enumeration(State.self),
            "detail": JSONSchema.string.nullable.described("why the account needs attention"),
        ]).adding(settings)
    }

    public nonisolated let pluginID: String
    let pool: DatabasePool
    let vault: VaultScope
    let notifier: PluginNotifier
    let clock: any HostClock
    /// The command that gives an account new credentials, shown with -32003.
    private var fixCommand: @Sendable (String) -> String
    private var addCommand: String
    /// The notice posted when an account flips to needs-reauth (default `<plugin>.auth.expired`).
    private var expiredTopic: String?

    package init(pluginID: String, pool: DatabasePool, vault: VaultScope, notifier: PluginNotifier, clock: any HostClock) {
        self.pluginID = pluginID
        self.pool = pool
        self.vault = vault
        self.notifier = notifier
        self.clock = clock
        fixCommand = { account in "assistantctl vault set \(pluginID)/\(account)/…" }
        addCommand = "assistantctl help \(pluginID)"
    }

    /// The commands a person runs: to log an account in again, and to add one.
    public func setCommands(reauth: @escaping @Sendable (String) -> String, add: String, expiredTopic: (any PluginTopic)? = nil) {
        fixCommand = reauth
        addCommand = add
        self.expiredTopic = expiredTopic?.rawValue
    }

    /// Account names: what a person types after `account=`.
    public static func checkName(_ name: String, param: String) throws(RPCError) {
        let allowed = name.utf8.allSatisfy {
            (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
        }
        guard !name.isEmpty, name.count <= 64, allowed, !name.hasPrefix(".") else {
            throw RPCError.invalidParam(param, "must be 1–64 letters, digits, '-', '_' or '.', got '\(name)'")
        }
    }

    // MARK: Reading

    public func list() async throws -> [Account] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM host_accounts WHERE plugin = ? ORDER BY name", arguments: [pluginID]).map(Self.account)
        }
    }

    /// The named account, or the default (or only) one for `nil`. -32602 naming `param` when
    /// there is no such account or none can be chosen.
    public func resolve(_ name: String?, param: String = "account") async throws -> Account {
        let all = try await list()
        if let name {
            guard let found = all.first(where: { $0.name == name }) else {
                let known = all.map(\.name)
                throw RPCError.invalidParam(
                    param,
                    known.isEmpty
                        ? "names no account: none is set up yet (\(addCommand))"
                        : "'\(name)' is not an account (accounts: \(known.joined(separator: ", ")))")
            }
            return found
        }
        if let chosen = all.first(where: \.isDefault) ?? (all.count == 1 ? all[0] : nil) { return chosen }
        if all.isEmpty { throw RPCError.invalidParam(param, "is needed: no account is set up yet (\(addCommand))") }
        throw RPCError.invalidParam(param, "is needed: there are several accounts (\(all.map(\.name).joined(separator: ", "))) and no default")
    }

    /// `resolve`, then the account must be usable: -32003 for one that needs re-auth (with the
    /// fixing command), -32002 for a failed one.
    public func usable(_ name: String?, param: String = "account") async throws -> Account {
        let account = try await resolve(name, param: param)
        switch account.state {
        case .ready: return account
        case .needsReauth:
            let fix = fixCommand(account.name)
            throw RPCError(
                code: RPCErrorCode.needsReauth,
                message:
                    "Account '\(account.name)' of '\(pluginID)' needs re-authentication: "
                    + "\(account.detail ?? "the credentials were refused"); run: \(fix)",
                data: [
                    "plugin": .string(pluginID), "account": .string(account.name), "state": "needs_reauth", "fix": .string(fix),
                    "detail": account.detail.map(JSONValue.string) ?? .null,
                ])
        case .failed:
            throw RPCError(
                code: RPCErrorCode.pluginNotReady,
                message: "Account '\(account.name)' of '\(pluginID)' cannot be used: \(account.detail ?? "it failed")",
                data: [
                    "plugin": .string(pluginID), "account": .string(account.name), "state": "failed",
                    "detail": account.detail.map(JSONValue.string) ?? .null,
                ])
        }
    }

    public func secret(_ account: String, _ key: String) async throws -> String? {
        try await vault.get("\(account)/\(key)")
    }

    // MARK: Changing

    /// Adds or replaces an account. `check` runs first, with the settings and secrets it would
    /// have; if it throws, nothing is saved and the old account and credentials stay.
    @discardableResult
    public func save(
        _ name: String, settings: [String: JSONValue], secrets: [String: String] = [:], param: String = "name",
        check: @Sendable (Account, [String: String]) async throws -> Void = { _, _ in }
    ) async throws -> Account {
        try Self.checkName(name, param: param)
        let existing = try await list()
        let old = existing.first { $0.name == name }
        let candidate = Account(
            name: name, settings: settings, isDefault: old?.isDefault ?? existing.allSatisfy { $0.name == name }, state: .ready, detail: nil)
        try await check(candidate, secrets)
        for (key, value) in secrets { try await vault.set("\(name)/\(key)", secret: value) }
        let now = ISO8601.string(clock.now)
        let encoded = JSONValue.object(settings).encodedString()
        try await pool.writeWhole { [pluginID] db in
            try db.execute(
                sql: """
                    INSERT INTO host_accounts(plugin, name, settings, is_default, state, detail, created_at) VALUES (?, ?, ?, ?, 'ready', NULL, ?)
                    ON CONFLICT(plugin, name) DO UPDATE SET settings = excluded.settings, state = 'ready', detail = NULL
                    """, arguments: [pluginID, name, encoded, candidate.isDefault, now])
        }
        return try await resolve(name)
    }

    /// Forgets an account and every credential stored under it.
    public func remove(_ name: String, param: String = "name") async throws {
        let account = try await resolve(name, param: param)
        for entry in try await vault.list() where entry.name.hasPrefix("\(vault.prefix)\(account.name)/") {
            try await vault.delete(String(entry.name.dropFirst(vault.prefix.count)))
        }
        try await pool.writeWhole { [pluginID] db in
            try db.execute(sql: "DELETE FROM host_accounts WHERE plugin = ? AND name = ?", arguments: [pluginID, name])
            // The only account left becomes the default.
            let left = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM host_accounts WHERE plugin = ?", arguments: [pluginID]) ?? 0
            if left == 1 { try db.execute(sql: "UPDATE host_accounts SET is_default = 1 WHERE plugin = ?", arguments: [pluginID]) }
        }
    }

    @discardableResult
    public func setDefault(_ name: String, param: String = "name") async throws -> Account {
        _ = try await resolve(name, param: param)
        try await pool.writeWhole { [pluginID] db in
            try db.execute(sql: "UPDATE host_accounts SET is_default = (name = ?) WHERE plugin = ?", arguments: [name, pluginID])
        }
        return try await resolve(name)
    }

    /// The upstream refused the account's credentials for good. Posts `<plugin>.auth.expired` on
    /// the flip only.
    /// `notify: false` for a flip the person asked for (a logout): nothing to tell them.
    public func needsReauth(_ name: String, reason: String, notify: Bool = true) async throws {
        guard try await flip(name, to: .needsReauth, detail: reason), notify else { return }
        try await notifier.post(
            topicNamed: expiredTopic ?? "\(pluginID).auth.expired",
            title: KitWords.logInAgain.text(notifier.language, ["plugin": pluginID, "account": name]),
            body: KitWords.logInAgainBody.text(notifier.language, ["reason": reason, "command": fixCommand(name)]), severity: .warning)
    }

    public func markFailed(_ name: String, reason: String) async throws { _ = try await flip(name, to: .failed, detail: reason) }

    public func markReady(_ name: String) async throws { _ = try await flip(name, to: .ready, detail: nil) }

    /// Whether the state changed. Whole even when the caller is cancelled, so that a flip that
    /// commits is always seen by its caller, who then posts the notice.
    private func flip(_ name: String, to state: State, detail: String?) async throws -> Bool {
        try await pool.writeWhole { [pluginID] db in
            try db.execute(
                sql: "UPDATE host_accounts SET state = ?, detail = ? WHERE plugin = ? AND name = ? AND (state != ? OR detail IS NOT ?)",
                arguments: [state.rawValue, detail, pluginID, name, state.rawValue, detail])
            return db.changesCount == 1
        }
    }

    /// An account as `status` and `plugins.list` show it: its name and state, never its settings.
    public struct Standing: Sendable, ResultObject {
        public let name: String
        public let state: State
        public let detail: String?

        public static let members = ResultMembers<Self>(.field("name", \.name), .field("state", \.state), .field("detail", \.detail))
    }

    /// For `status`: each account with its state.
    public func standings() async throws -> [Standing] {
        try await list().map { Standing(name: $0.name, state: $0.state, detail: $0.detail) }
    }

    static func account(_ row: Row) -> Account {
        let settings = (try? JSONValue.decode(row["settings"] as String))?.objectValue ?? [:]
        return Account(
            name: row["name"], settings: settings, isDefault: row["is_default"], state: State(rawValue: row["state"]) ?? .failed,
            detail: row["detail"])
    }
}

/// An account as `Account.json` shows it, written straight into a reply (a list of accounts, or
/// an account with a plugin's own fields after it).
extension Accounts.Account: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: Accounts.SettingKey.self)
        let kit: Set = ["name", "default", "state", "detail"]
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) where !kit.contains(key) {
            try o.encode(value, forKey: .init(stringValue: key))
        }
        try o.encode(name, forKey: .init(stringValue: "name"))
        try o.encode(isDefault, forKey: .init(stringValue: "default"))
        try o.encode(state.rawValue, forKey: .init(stringValue: "state"))
        try o.encode(detail, forKey: .init(stringValue: "detail"))
    }
}
