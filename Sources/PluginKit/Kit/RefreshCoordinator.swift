import Foundation
import GRDB

/// Named fetches a plugin polls (Home Assistant's DataUpdateCoordinator): each runs as a job on
/// the host clock (jitter, backoff on failure, shown in `jobs.list`), and the coordinator keeps
/// the previous result so the plugin is told what changed, item by item. The baseline lives in
/// `host_refresh`, so it survives restarts and re-logins: a new exam term is new once. Upstream
/// trouble posts `<plugin>.upstream.unreachable` and `.recovered`, once per flip.
public actor RefreshCoordinator {
    /// What changed since the last successful fetch, by item key.
    public struct Change: Sendable, Equatable {
        public var added: [String: JSONValue] = [:]
        public var removed: [String: JSONValue] = [:]
        public var changed: [String: Pair] = [:]
        /// True on the first successful fetch: everything is the baseline, nothing is "new".
        public var isBaseline = false

        public struct Pair: Sendable, Equatable {
            public var old: JSONValue
            public var new: JSONValue
        }

        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    public struct Refresh: Sendable {
        public var name: String
        public var account: String?
        public var every: Duration
        public var jitter: Duration
        public var summary: String
        public var fetch: @Sendable () async throws -> [String: JSONValue]
        public var onChange: @Sendable (Change) async throws -> Void

        public init(
            name: String, account: String? = nil, every: Duration, jitter: Duration = .seconds(30), summary: String,
            fetch: @escaping @Sendable () async throws -> [String: JSONValue], onChange: @escaping @Sendable (Change) async throws -> Void
        ) {
            self.name = name
            self.account = account
            self.every = every
            self.jitter = jitter
            self.summary = summary
            self.fetch = fetch
            self.onChange = onChange
        }

        /// A fetch for `check(_:)`, which runs it once without a job (no interval, no summary).
        public init(
            checking name: String, account: String? = nil, fetch: @escaping @Sendable () async throws -> [String: JSONValue],
            onChange: @escaping @Sendable (Change) async throws -> Void
        ) {
            self.init(name: name, account: account, every: .zero, jitter: .zero, summary: name, fetch: fetch, onChange: onChange)
        }

        func jobID(_ plugin: String) -> String { RefreshCoordinator.jobID(plugin, name, account) }
    }

    public nonisolated let pluginID: String
    let pool: DatabasePool
    let scheduler: any JobScheduling
    let notifier: PluginNotifier
    let clock: any HostClock
    private var armed: [String: Refresh] = [:]

    package init(pluginID: String, pool: DatabasePool, scheduler: any JobScheduling, notifier: PluginNotifier, clock: any HostClock) {
        self.pluginID = pluginID
        self.pool = pool
        self.scheduler = scheduler
        self.notifier = notifier
        self.clock = clock
    }

    /// `<plugin>.<name>` or `<plugin>.<name>@<account>`, as `jobs.list` shows it.
    static func jobID(_ plugin: String, _ name: String, _ account: String?) -> String {
        "\(plugin).\(name)" + (account.map { "@\($0)" } ?? "")
    }

    /// Starts polling (again, with the new interval, if it was armed).
    public func arm(_ refresh: Refresh) async throws {
        let id = refresh.jobID(pluginID)
        if armed[id] != nil { await scheduler.deactivate(ids: [id]) }
        armed[id] = refresh
        let descriptor = JobDescriptor(
            id: id, summary: refresh.summary, schedule: .every(refresh.every), jitter: refresh.jitter, timeout: .seconds(300))
        try await scheduler.activate([ScheduledJob(id: id, descriptor: descriptor) { [self] in _ = try await self.run(id) }])
    }

    /// Stops polling; the baseline stays (a watch re-armed later does not report old items as new).
    public func cancel(name: String, account: String? = nil) async {
        let id = Self.jobID(pluginID, name, account)
        armed[id] = nil
        await scheduler.deactivate(ids: [id])
    }

    public var armedIDs: [String] { armed.keys.sorted() }

    /// Runs one refresh now (what its job does) and returns what changed.
    @discardableResult
    public func runNow(name: String, account: String? = nil) async throws -> Change {
        try await run(Self.jobID(pluginID, name, account))
    }

    func run(_ id: String) async throws -> Change {
        guard let refresh = armed[id] else { throw RPCError.invalidParam("id", "'\(id)' is not an armed refresh") }
        return try await check(refresh)
    }

    /// Fetches once and reports what changed against the stored baseline, without a job of its
    /// own: for a plugin whose one job (`stag.refresh`) walks every account.
    @discardableResult
    public func check(_ refresh: Refresh) async throws -> Change {
        let items: [String: JSONValue]
        do {
            items = try await refresh.fetch()
        } catch let error as RPCError where error.allowsStaleRead {
            try await flip(refresh, unreachable: true, reason: error.message)
            throw error
        }
        try await flip(refresh, unreachable: false, reason: nil)
        let previous = try await baseline(refresh)
        var change = Change()
        if let previous {
            for (key, value) in items {
                if let old = previous[key] {
                    if old != value { change.changed[key] = Change.Pair(old: old, new: value) }
                } else {
                    change.added[key] = value
                }
            }
            for (key, value) in previous where items[key] == nil { change.removed[key] = value }
        } else {
            change.isBaseline = true
        }
        // The plugin hears of the change before the baseline moves: if it fails, the change is
        // reported again next time instead of being lost.
        if !change.isEmpty { try await refresh.onChange(change) }
        try await save(refresh, items: items)
        return change
    }

    /// One diff of items the plugin has already read (a job that reads once and compares
    /// several things).
    @discardableResult
    public func check(
        _ name: String, account: String?, items: [String: JSONValue], onChange: @escaping @Sendable (Change) async throws -> Void
    ) async throws -> Change {
        try await check(Refresh(checking: name, account: account, fetch: { items }, onChange: onChange))
    }

    /// Keeps `items` as what `name` read last for `account`, without comparing: for a list the
    /// plugin acts on after a restart before it can read again (the classes the reminders are
    /// armed from).
    public func remember(_ name: String, account: String?, items: [String: JSONValue]) async throws {
        try await save(Refresh(checking: name, account: account, fetch: { items }, onChange: { _ in }), items: items)
    }

    /// What each account's `name` read last (its baseline), by account ("" for none).
    public func remembered(_ name: String) async throws -> [String: [String: JSONValue]] {
        try await pool.read { [pluginID] db in
            var found: [String: [String: JSONValue]] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT account, items FROM host_refresh WHERE plugin = ? AND name = ?", arguments: [pluginID, name])
            {
                if let items = try? JSONValue.decode(row["items"] as String).objectValue { found[row["account"]] = items }
            }
            return found
        }
    }

    private func baseline(_ refresh: Refresh) async throws -> [String: JSONValue]? {
        try await pool.read { [pluginID] db in
            guard
                let text = try String.fetchOne(
                    db, sql: "SELECT items FROM host_refresh WHERE plugin = ? AND name = ? AND account = ?",
                    arguments: [pluginID, refresh.name, refresh.account ?? ""])
            else { return nil }
            // A first fetch that failed left a row without items: still no baseline.
            return try JSONValue.decode(text).objectValue
        }
    }

    private func save(_ refresh: Refresh, items: [String: JSONValue]) async throws {
        let now = ISO8601.string(clock.now)
        try await pool.write { [pluginID] db in
            try db.execute(
                sql: """
                    INSERT INTO host_refresh(plugin, name, account, items, state, updated_at) VALUES (?, ?, ?, ?, 'ok', ?)
                    ON CONFLICT(plugin, name, account) DO UPDATE SET items = excluded.items, updated_at = excluded.updated_at
                    """, arguments: [pluginID, refresh.name, refresh.account ?? "", JSONValue.object(items).encodedString(), now])
        }
    }

    /// Records the upstream's state; posts a notice only when it changes.
    private func flip(_ refresh: Refresh, unreachable: Bool, reason: String?) async throws {
        let state = unreachable ? "unreachable" : "ok"
        let now = ISO8601.string(clock.now)
        let flipped = try await pool.write { [pluginID] db -> Bool in
            let before = try String.fetchOne(
                db, sql: "SELECT state FROM host_refresh WHERE plugin = ? AND name = ? AND account = ?",
                arguments: [pluginID, refresh.name, refresh.account ?? ""])
            if before == nil {
                // No baseline yet: remember the state without items (a first fetch that fails).
                guard unreachable else { return false }
                try db.execute(
                    sql: "INSERT INTO host_refresh(plugin, name, account, items, state, updated_at) VALUES (?, ?, ?, 'null', 'unreachable', ?)",
                    arguments: [pluginID, refresh.name, refresh.account ?? "", now])
                return true
            }
            guard before != state else { return false }
            try db.execute(
                sql: "UPDATE host_refresh SET state = ? WHERE plugin = ? AND name = ? AND account = ?",
                arguments: [state, pluginID, refresh.name, refresh.account ?? ""])
            return true
        }
        guard flipped else { return }
        let whose = refresh.account.map { " (\($0))" } ?? ""
        let language = notifier.language
        if unreachable {
            try await notifier.post(
                topicNamed: "\(pluginID).upstream.unreachable", title: KitWords.unreachable.text(language, ["plugin": pluginID, "whose": whose]),
                body: KitWords.unreachableBody.text(language, ["reason": reason ?? KitWords.noAnswer.text(language)]), severity: .warning)
        } else {
            try await notifier.post(
                topicNamed: "\(pluginID).upstream.recovered", title: KitWords.recovered.text(language, ["plugin": pluginID, "whose": whose]),
                body: KitWords.recoveredBody.text(language))
        }
    }
}
