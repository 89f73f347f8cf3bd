import Foundation
import GRDB
import PluginKit

/// tasks.feeds.*: read-only ICS subscriptions whose events show in the agenda.
extension TasksService {
    static func checkName(_ raw: String, param: String = "name") throws(RPCError) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 40, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw RPCError.invalidParam(param, "'\(raw)' is not a name (letters, digits, - and _, up to 40)")
        }
        return name
    }

    private func fetcher(_ name: String, url: URL? = nil, username: String? = nil, password: String? = nil) async throws -> FeedFetcher {
        let stored = try await context.vault.get("feeds/\(name)/url")
        guard let url = url ?? stored.flatMap(URL.init(string:)) else { throw RPCError.notFound("feed '\(name)'", data: ["name": .string(name)]) }
        var user = username
        var pass = password
        if user == nil { user = try await context.vault.get("feeds/\(name)/username") }
        if pass == nil { pass = try await context.vault.get("feeds/\(name)/password") }
        return FeedFetcher(name: name, url: url, username: user, password: pass, clock: context.clock, timeout: context.httpTimeout)
    }

    func feedsAdd(_ params: Params) async throws -> FeedAdded {
        let name = try Self.checkName(try params[TasksParams.newName])
        let url = try FeedFetcher.check(try params[TasksParams.feedURL])
        let username = params[TasksParams.feedUsername]
        let password = params[TasksParams.feedPassword]
        if try await database.read({ db in try Bool.fetchOne(db, sql: "SELECT 1 FROM tasks_feeds WHERE name = ?", arguments: [name]) }) == true {
            throw TasksError.feedExists(name)
        }
        // Fetch first: a feed that cannot be read is not saved.
        let fetcher = try await fetcher(name, url: url, username: username, password: password)
        let outcome = try await fetcher.fetch(etag: nil, lastModified: nil)
        // Read before anything is saved: a feed that is not a calendar is refused here.
        let items = try await parse(feed: name, outcome)
        try await context.vault.set("feeds/\(name)/url", secret: url.absoluteString)
        if let username { try await context.vault.set("feeds/\(name)/username", secret: username) }
        if let password { try await context.vault.set("feeds/\(name)/password", secret: password) }
        try await database.write { db in
            try db.execute(sql: "INSERT INTO tasks_feeds(name, display_url) VALUES (?, ?)", arguments: [name, FeedFetcher.displayURL(url)])
        }
        let count = try await store(feed: name, outcome, items: items)
        return FeedAdded(
            name: name, url: FeedFetcher.displayURL(url), items: count ?? 0, skipped: items?.skipped ?? FeedSkipped(skipped: 0, reasons: []))
    }

    /// The feed's items from a changed answer (nil when unchanged), ids namespaced by the feed,
    /// and what was left out.
    private func parse(feed name: String, _ outcome: FeedFetcher.Outcome) async throws -> (items: [TaskItem], skipped: FeedSkipped)? {
        guard case .changed(let text, _, _) = outcome else { return nil }
        let zone = defaultZone
        let now = self.now
        let reader = try await runBlocking { ICSReader(text: text, defaultZone: zone, now: now, source: "feed:\(name)") }
        if reader.notCalendar { throw TasksError.feedUnreadable(name, "the answer is not an iCalendar file") }
        let items = reader.items.map { item -> TaskItem in
            var t = item
            t.id = "feed:\(name):\(item.id)"
            t.parent = nil
            t.category = nil
            t.reminders = []
            return t
        }
        return (items, FeedSkipped(reader.problems))
    }

    /// Replaces the feed's items, in one transaction. nil when unchanged.
    @discardableResult
    private func store(feed name: String, _ outcome: FeedFetcher.Outcome, items read: (items: [TaskItem], skipped: FeedSkipped)?) async throws
        -> Int?
    {
        let now = self.now
        guard case .changed(_, let etag, let lastModified) = outcome, let (items, skipped) = read else {
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE tasks_feeds SET fetched_at = ?, problem = NULL WHERE name = ?", arguments: [now.timeIntervalSince1970, name])
            }
            return nil
        }
        try await database.write { db in
            try db.execute(sql: "DELETE FROM tasks_items WHERE source = ?", arguments: ["feed:\(name)"])
            for t in items { try t.save(db) }
            try db.execute(
                sql: """
                    UPDATE tasks_feeds SET etag = ?, last_modified = ?, fetched_at = ?, problem = NULL, skipped = ?, skipped_reasons = ?
                    WHERE name = ?
                    """,
                arguments: [etag, lastModified, now.timeIntervalSince1970, skipped.skipped, skipped.storedReasons, name])
        }
        return items.count
    }

    func feedsList() async throws -> FeedList {
        let rows = try await database.read { db -> [FeedRow] in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT f.*, (SELECT COUNT(*) FROM tasks_items t WHERE t.source = 'feed:' || f.name) AS items FROM tasks_feeds f ORDER BY f.name
                    """
            ).map { row in
                FeedRow(
                    name: row["name"], url: row["display_url"], items: row["items"],
                    fetchedAt: (row["fetched_at"] as Double?).map { ISO8601.string(Date(timeIntervalSince1970: $0)) }, problem: row["problem"],
                    skipped: FeedSkipped(count: row["skipped"], stored: row["skipped_reasons"]))
            }
        }
        return FeedList(feeds: rows)
    }

    func feedsRemove(_ params: Params) async throws -> Removed {
        let name = try params[TasksParams.feed]
        let removed = try await database.write { db -> Bool in
            try db.execute(sql: "DELETE FROM tasks_feeds WHERE name = ?", arguments: [name])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM tasks_items WHERE source = ?", arguments: ["feed:\(name)"])
            return true
        }
        guard removed else { throw RPCError.notFound("feed '\(name)'", data: ["name": .string(name)]) }
        for key in ["url", "username", "password"] { try await context.vault.delete("feeds/\(name)/\(key)") }
        return Removed(name)
    }

    func feedsRefresh(_ params: Params) async throws -> FeedRefreshList {
        let only = params[TasksParams.someFeed]
        let names = try await database.read { db in try String.fetchAll(db, sql: "SELECT name FROM tasks_feeds ORDER BY name") }
        if let only, !names.contains(only) { throw RPCError.notFound("feed '\(only)'", data: ["name": .string(only)]) }
        var results: [FeedRefreshed] = []
        for name in names where only == nil || only == name {
            results.append(await refreshFeed(name))
        }
        if let only, let result = results.first, let problem = result.problem {
            throw TasksError.feedUnreadable(only, problem)
        }
        return FeedRefreshList(feeds: results)
    }

    /// One feed; a failure is recorded (and noticed once per flip), never thrown, so one broken
    /// feed does not stop the others.
    func refreshFeed(_ name: String) async -> FeedRefreshed {
        do {
            let (etag, lastModified) = try await database.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT etag, last_modified FROM tasks_feeds WHERE name = ?", arguments: [name])
                return (row?["etag"] as String?, row?["last_modified"] as String?)
            }
            let outcome = try await fetcher(name).fetch(etag: etag, lastModified: lastModified)
            let count = try await store(feed: name, outcome, items: try await parse(feed: name, outcome))
            return FeedRefreshed(name: name, changed: count != nil, items: count, problem: nil)
        } catch {
            let message = ErrorText.sentence(error)
            let flipped =
                (try? await database.write { db -> Bool in
                    let old = try String.fetchOne(db, sql: "SELECT problem FROM tasks_feeds WHERE name = ?", arguments: [name])
                    try db.execute(sql: "UPDATE tasks_feeds SET problem = ? WHERE name = ?", arguments: [message, name])
                    return old == nil
                }) ?? false
            if flipped {
                _ = try? await context.notifier.post(
                    topic: TasksTopic.feedFailed, title: NoticeWords.feedFailed.text(context.language, ["name": name]), body: message,
                    severity: .warning)
            }
            return FeedRefreshed(name: name, changed: false, items: nil, problem: message)
        }
    }

}
