import Foundation
import GRDB
import NIOConcurrencyHelpers
import PluginKit

/// Two-way sync of one CalDAV account: pull (sync-collection with the stored token, or a full
/// etag comparison), then push (conditional PUT / DELETE), with 412 answers merged by the
/// account's conflict policy. Items keep their UID as their id; `source` is `caldav:<account>`.
struct CalDAVSync {
    enum Conflict: String, CaseIterable, Sendable { case server, local, newest }

    struct Counts: Sendable {
        var pulled = 0, pushed = 0, deleted = 0, merged = 0, requests = 0
    }

    struct Record: Sendable {
        var href: String
        var taskID: String
        var etag: String?
        var calendar: String
        var syncedSequence: Int
    }

    let service: TasksService
    let account: Accounts.Account
    let client: CalDAVClient
    let conflict: Conflict
    let syncAlarms: Bool
    let isDefault: Bool
    /// Runs before every change the sync makes, here or on the server: `tasks.caldav.sync` enters
    /// its call's commit gate, so that once anything changed the call is not cut by its limit and
    /// always answers with what it did (a sync cannot be rolled back across the network).
    var beforeChanging: @Sendable () throws -> Void = {}
    var counts = Counts()

    var database: DatabasePool { service.database }

    /// A local write, after `beforeChanging`.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try beforeChanging()
        return try await database.write(updates)
    }
    var source: String { "caldav:\(account.name)" }
    var todoCalendar: String? { account["todo_calendar"]?.stringValue }
    var eventCalendar: String? { account["event_calendar"]?.stringValue }

    init(service: TasksService, account: Accounts.Account, client: CalDAVClient, syncAlarms: Bool, isDefault: Bool) {
        self.service = service
        self.account = account
        self.client = client
        self.conflict = Conflict(rawValue: account["conflict"]?.stringValue ?? "newest") ?? .newest
        self.syncAlarms = syncAlarms
        self.isDefault = isDefault
    }

    private func records(_ calendar: String? = nil) async throws -> [String: Record] {
        let name = account.name
        return try await database.read { db in
            var sql = "SELECT * FROM tasks_caldav_objects WHERE account = ?"
            var arguments: StatementArguments = [name]
            if let calendar {
                sql += " AND calendar = ?"
                arguments += [calendar]
            }
            return Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                    (
                        row["href"] as String,
                        Record(
                            href: row["href"], taskID: row["task_id"], etag: row["etag"], calendar: row["calendar"],
                            syncedSequence: row["synced_sequence"])
                    )
                })
        }
    }

    private func remember(_ r: Record) async throws {
        let name = account.name
        try await write { db in
            try db.execute(
                sql: "DELETE FROM tasks_caldav_objects WHERE account = ? AND task_id = ? AND href != ?", arguments: [name, r.taskID, r.href])
            try db.execute(
                sql: "INSERT OR REPLACE INTO tasks_caldav_objects(account, href, task_id, etag, calendar, synced_sequence) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [name, r.href, r.taskID, r.etag, r.calendar, r.syncedSequence])
        }
    }

    private func forget(href: String) async throws {
        let name = account.name
        try await write { db in
            try db.execute(sql: "DELETE FROM tasks_caldav_objects WHERE account = ? AND href = ?", arguments: [name, href])
        }
    }

    /// Tests only: runs between the pull and the push, so a test can change the server in between
    /// (a concurrent edit the push then meets as 412). nil in the daemon.
    static let beforePush = NIOLockedValueBox<(@Sendable (String) async -> Void)?>(nil)

    mutating func run() async throws -> Counts {
        let calendars = Array(Set([todoCalendar, eventCalendar].compactMap { $0 })).sorted()
        for calendar in calendars { try await pull(calendar) }
        if let hook = Self.beforePush.withLockedValue({ $0 }) { await hook(account.name) }
        let pushedBefore = counts.pushed + counts.deleted
        try await push()
        // Our own writes changed the collection's token; advance it (our objects' etags match, so nothing is fetched).
        if counts.pushed + counts.deleted > pushedBefore { for calendar in calendars { try await pull(calendar) } }
        return counts
    }

    // MARK: pull

    private mutating func pull(_ calendar: String) async throws {
        let name = account.name
        let stored = try await records(calendar)
        let token = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT sync_token FROM tasks_caldav_calendars WHERE account = ? AND href = ?", arguments: [name, calendar])
        }
        var changed: [(String, String)] = []
        var deleted: [String] = []
        var newToken: String?
        do {
            counts.requests += 1
            let c = try await client.changes(in: calendar, since: token)
            (changed, deleted, newToken) = (c.changed, c.deleted, c.token)
        } catch CalDAVClient.SyncFailure.tokenRefused {
            // The server lost or refused the token: compare every etag instead.
            counts.requests += 2
            let etags = try await client.etags(in: calendar)
            changed = etags.map { ($0.key, $0.value) }
            deleted = stored.keys.filter { etags[$0] == nil }
            newToken = try await client.syncToken(of: calendar)
        }
        let toFetch = changed.filter { stored[$0.0]?.etag != $0.1 }.map(\.0)
        for (href, etag) in changed where stored[href] != nil && stored[href]?.etag != etag {
            service.context.logger.debug(
                "caldav object changed on the server", metadata: ["href": "\(href)", "etag": "\(etag)", "was": "\(stored[href]?.etag ?? "")"])
        }
        if !toFetch.isEmpty {
            counts.requests += (toFetch.count + 199) / 200
            for object in try await client.objects(in: calendar, hrefs: toFetch) {
                try await take(object.text, href: object.href, etag: object.etag, calendar: calendar, stored: stored[object.href])
            }
        }
        let now = service.now
        for href in deleted {
            guard let record = stored[href] else { continue }
            try await write { db in
                try db.execute(
                    sql: "UPDATE tasks_items SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
                    arguments: [now.timeIntervalSince1970, record.taskID])
            }
            await service.disarmReminders(taskID: record.taskID)
            try await forget(href: href)
            counts.deleted += 1
        }
        let savedToken = newToken
        try await write { db in
            try db.execute(
                sql: "UPDATE tasks_caldav_calendars SET sync_token = ? WHERE account = ? AND href = ?", arguments: [savedToken, name, calendar])
        }
    }

    /// A server object: saved locally, unless the local copy changed too and wins the conflict.
    private mutating func take(_ text: String, href: String, etag: String?, calendar: String, stored: Record?) async throws {
        let zone = service.defaultZone
        let now = service.now
        let reader = ICSReader(text: text, defaultZone: zone, now: now, source: source)
        guard var item = reader.items.first else {
            service.context.logger.warning("skipped an unreadable calendar object", metadata: ["href": "\(href)"])
            return
        }
        let itemID = item.id
        let local = try await database.read { db in try TaskItem.find(db, itemID, includeDeleted: true) }
        if !syncAlarms { item.reminders = local?.reminders ?? [] }
        if let local { item.channels = local.channels }
        if let local, local.deletedAt == nil, let stored, local.sequence != stored.syncedSequence {
            counts.merged += 1
            if winner(server: item, local: local) == .local {
                // Keep ours; the push sends it with the server's new etag.
                try await remember(Record(href: href, taskID: local.id, etag: etag, calendar: calendar, syncedSequence: stored.syncedSequence))
                return
            }
        }
        item.created = local?.created ?? item.created
        if let local, local.deletedAt != nil, stored != nil {
            // Deleted here since the last sync, changed there: the policy decides (server → it comes back).
            counts.merged += 1
            if winner(server: item, local: local) == .local { return }
        }
        let saved = item
        try await write { db in try saved.save(db) }
        try await remember(Record(href: href, taskID: item.id, etag: etag, calendar: calendar, syncedSequence: item.sequence))
        await service.armReminders(taskID: item.id)
        counts.pulled += 1
    }

    private enum Side { case server, local }

    private func winner(server: TaskItem, local: TaskItem) -> Side {
        switch conflict {
        case .server: return .server
        case .local: return .local
        case .newest: return local.modified > server.modified ? .local : .server
        }
    }

    // MARK: push

    private static func hrefName(_ uid: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        return (uid.addingPercentEncoding(withAllowedCharacters: allowed) ?? UUID().uuidString) + ".ics"
    }

    private mutating func push() async throws {
        let name = account.name
        let mine = source
        let includeLocal = isDefault
        let (tasks, deletedIDs) = try await database.read { db -> ([TaskItem], Set<String>) in
            let live = try TaskItem.fetch(
                db, where: "deleted_at IS NULL AND (source = ? OR (? AND source = 'local'))", [mine, includeLocal])
            let deleted = Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT o.task_id FROM tasks_caldav_objects o LEFT JOIN tasks_items t ON t.id = o.task_id
                        WHERE o.account = ? AND (t.id IS NULL OR t.deleted_at IS NOT NULL)
                        """, arguments: [name]))
            return (live, deleted)
        }
        let byTask = Dictionary(try await records().values.map { ($0.taskID, $0) }, uniquingKeysWith: { a, _ in a })
        for task in tasks {
            let record = byTask[task.id]
            if let record, task.sequence == record.syncedSequence, task.source == mine { continue }
            guard let calendar = record?.calendar ?? (task.kind == .todo ? todoCalendar : eventCalendar) ?? todoCalendar ?? eventCalendar else {
                continue
            }
            let href = record?.href ?? (calendar.hasSuffix("/") ? calendar : calendar + "/") + Self.hrefName(task.id)
            try await write(task, href: href, calendar: calendar, etag: record?.etag)
        }
        let records = try await records()
        for record in records.values where deletedIDs.contains(record.taskID) {
            counts.requests += 1
            try beforeChanging()
            switch try await client.delete(record.href, ifMatch: record.etag) {
            case .written:
                try await forget(href: record.href)
                counts.deleted += 1
            case .conflict:
                counts.merged += 1
                if conflict == .local {
                    try beforeChanging()
                    _ = try await client.delete(record.href, ifMatch: nil)
                    try await forget(href: record.href)
                    counts.deleted += 1
                } else if let current = try await client.get(record.href) {
                    // Changed on the server after we deleted it here: it comes back.
                    try await write { db in
                        try db.execute(sql: "UPDATE tasks_items SET deleted_at = NULL WHERE id = ?", arguments: [record.taskID])
                    }
                    try await take(
                        current.text, href: record.href, etag: current.etag, calendar: record.calendar,
                        stored: Record(href: record.href, taskID: record.taskID, etag: nil, calendar: record.calendar, syncedSequence: -1))
                }
            }
        }
    }

    private mutating func write(_ task: TaskItem, href: String, calendar: String, etag: String?) async throws {
        var task = task
        task.source = source
        let ics = ICSWriter.calendar([task], syncAlarms: syncAlarms, stamp: service.now)
        counts.requests += 1
        try beforeChanging()
        switch try await client.put(href, ics: ics, ifMatch: etag) {
        case .written(let newEtag):
            var etagNow = newEtag
            if etagNow == nil {
                counts.requests += 1
                etagNow = try await client.etag(of: href)
            }
            let (id, mine) = (task.id, source)
            try await write { db in
                try db.execute(sql: "UPDATE tasks_items SET source = ? WHERE id = ?", arguments: [mine, id])
            }
            try await remember(Record(href: href, taskID: task.id, etag: etagNow, calendar: calendar, syncedSequence: task.sequence))
            counts.pushed += 1
        case .conflict:
            // Changed (or created) on the server meanwhile: re-read and merge by the policy.
            counts.merged += 1
            counts.requests += 1
            guard let current = try await client.get(href) else {
                if etag != nil { try await write(task, href: href, calendar: calendar, etag: nil) }
                return
            }
            let zone = service.defaultZone
            let server = ICSReader(text: current.text, defaultZone: zone, now: service.now, source: source).items.first
            if let server, winner(server: server, local: task) == .server {
                var item = server
                item.created = task.created
                if !syncAlarms { item.reminders = task.reminders }
                item.channels = task.channels
                let saved = item
                try await write { db in try saved.save(db) }
                try await remember(Record(href: href, taskID: item.id, etag: current.etag, calendar: calendar, syncedSequence: item.sequence))
                await service.armReminders(taskID: item.id)
                counts.pulled += 1
            } else {
                counts.requests += 1
                try beforeChanging()
                if case .written(let newEtag) = try await client.put(href, ics: ics, ifMatch: current.etag) {
                    var etagNow = newEtag
                    if etagNow == nil { etagNow = try await client.etag(of: href) }
                    try await remember(Record(href: href, taskID: task.id, etag: etagNow, calendar: calendar, syncedSequence: task.sequence))
                    counts.pushed += 1
                }
            }
        }
    }
}
