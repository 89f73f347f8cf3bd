import Foundation
import GRDB
import NIOConcurrencyHelpers
import PluginKit

/// tasks.caldav.*: CalDAV accounts on the kit's `Accounts` (password in the vault as
/// `tasks/<name>/password`), and two-way sync.
extension TasksService {
    func client(for account: Accounts.Account, password: String? = nil) async throws -> CalDAVClient {
        guard let urlText = account["url"]?.stringValue, let url = URL(string: urlText) else {
            throw TasksError.calendarProblem(account.name, "has no URL")
        }
        var secret = password
        if secret == nil { secret = try await context.accounts.secret(account.name, "password") }
        let accounts = context.accounts
        let name = account.name
        return try CalDAVClient(
            account: name, url: url, username: account["username"]?.stringValue ?? "", password: secret ?? "", clock: context.clock,
            timeout: context.httpTimeout,
            onReauthNeeded: { reason in try? await accounts.needsReauth(name, reason: reason) })
    }

    func caldavAdd(_ params: Params) async throws -> CalDAVAdded {
        let name = try params[TasksParams.newName]
        let urlText = try params[TasksParams.caldavURL]
        try UpstreamClient.checkBaseURL(
            URL(string: urlText).map {
                var c = URLComponents(url: $0, resolvingAgainstBaseURL: false)
                c?.query = nil
                return c?.string ?? urlText
            } ?? urlText,
            policy: .loopbackOnly, param: TasksParams.url.name)
        guard let url = URL(string: urlText) else { throw TasksParams.url.invalid("is not an address") }
        let username = try params[TasksParams.caldavUsername]
        let password = try params[TasksParams.caldavPassword]
        let wanted = params[TasksParams.calendar]
        let conflict = params[TasksParams.conflict] ?? "newest"
        guard CalDAVSync.Conflict(rawValue: conflict) != nil else { throw TasksParams.conflict.invalid("must be server, local or newest") }
        let box = NIOLockedValueBox<(todo: RemoteCalendar?, event: RemoteCalendar?, all: [RemoteCalendar])>((nil, nil, []))
        let settings: [String: JSONValue] = ["url": .string(urlText), "username": .string(username), "conflict": .string(conflict)]
        let saved = try await context.accounts.save(name, settings: settings, secrets: ["password": password]) { [self] candidate, _ in
            // Checked before anything is saved: the server answers, accepts the password and has a calendar.
            let client = try await client(for: candidate, password: password)
            let calendars = try await client.calendars(startingAt: url)
            var chosen = calendars
            if let wanted {
                chosen = calendars.filter { $0.href == CalDAVClient.path(wanted) || $0.name == wanted || $0.href.hasSuffix("/\(wanted)/") }
                guard !chosen.isEmpty else {
                    throw TasksParams.calendar.invalid(
                        "'\(wanted)' is not a calendar there (calendars: \(calendars.map(\.name).joined(separator: ", ")))")
                }
            }
            let todo = chosen.first { $0.components.contains("VTODO") }
            let event = chosen.first { $0.components.contains("VEVENT") }
            guard todo != nil || event != nil else { throw TasksError.calendarProblem(name, "has no calendar for VTODO or VEVENT") }
            box.withLockedValue { $0 = (todo, event, calendars) }
        }
        let (todo, event, all) = box.withLockedValue { $0 }
        var withCalendars = saved.settings
        withCalendars["todo_calendar"] = todo.map { .string($0.href) } ?? .null
        withCalendars["event_calendar"] = event.map { .string($0.href) } ?? .null
        _ = try await context.accounts.save(name, settings: withCalendars)
        try await database.write { db in
            try db.execute(sql: "DELETE FROM tasks_caldav_calendars WHERE account = ?", arguments: [name])
            for c in [todo, event].compactMap({ $0 }) {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO tasks_caldav_calendars(account, href, name, components, sync_token) VALUES (?, ?, ?, ?, NULL)",
                    arguments: [name, c.href, c.name, c.components.joined(separator: ",")])
            }
        }
        return CalDAVAdded(
            name: name, url: urlText, username: username, conflict: conflict, todoCalendar: todo?.name, eventCalendar: event?.name,
            calendars: all.map { CalendarRow(href: $0.href, name: $0.name, components: $0.components) })
    }

    func caldavList() async throws -> CalDAVAccounts {
        let accounts = try await context.accounts.list()
        let counts = try await database.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT account, COUNT(*) AS n FROM tasks_caldav_objects GROUP BY account")
                    .map { ($0["account"] as String, $0["n"] as Int) })
        }
        return CalDAVAccounts(accounts: accounts.map { CalDAVAccounts.Row(account: $0, items: counts[$0.name] ?? 0) })
    }

    func caldavRemove(_ params: Params) async throws -> Removed {
        let name = try params[TasksParams.account]
        try await context.accounts.remove(name)
        try await database.write { db in
            try db.execute(sql: "DELETE FROM tasks_caldav_objects WHERE account = ?", arguments: [name])
            try db.execute(sql: "DELETE FROM tasks_caldav_calendars WHERE account = ?", arguments: [name])
            // Its items stay here as local tasks: removing an account loses nothing.
            try db.execute(sql: "UPDATE tasks_items SET source = 'local' WHERE source = ?", arguments: ["caldav:\(name)"])
        }
        return Removed(name)
    }

    func caldavSync(_ params: Params, call: CallContext) async throws -> CalDAVSyncList {
        let gate: @Sendable () throws -> Void = { try call.committing() }
        if let name = params[TasksParams.someAccount] {
            return CalDAVSyncList(accounts: [.first(CalDAVSyncDone(name: name, try await sync(account: name, beforeChanging: gate)))])
        }
        var results: [CalDAVSynced] = []
        for account in try await context.accounts.list() {
            do {
                results.append(.first(CalDAVSyncDone(name: account.name, try await sync(account: account.name, beforeChanging: gate))))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // One account's failure is reported in its row and does not stop the others.
                let sent = RPCError(sending: error)
                results.append(.second(AccountFailed(name: account.name, sent)))
            }
        }
        return CalDAVSyncList(accounts: results)
    }

    func sync(account name: String, beforeChanging: @escaping @Sendable () throws -> Void = {}) async throws -> CalDAVSync.Counts {
        // One sync per account at a time: the job and `tasks.caldav.sync` racing on the same
        // calendar pushed objects twice and read back each other's etags (seen in tasks-bench).
        await syncLocks.acquire(name)
        do {
            let result = try await syncLocked(account: name, beforeChanging: beforeChanging)
            await syncLocks.release(name)
            return result
        } catch {
            await syncLocks.release(name)
            throw error
        }
    }

    private func syncLocked(account name: String, beforeChanging: @escaping @Sendable () throws -> Void) async throws -> CalDAVSync.Counts {
        let account = try await context.accounts.usable(name, param: TasksParams.newName.name)
        let all = try await context.accounts.list()
        let isDefault = account.isDefault || all.count == 1
        var engine = CalDAVSync(
            service: self, account: account, client: try await client(for: account), syncAlarms: context.config[TasksConfig.syncAlarms],
            isDefault: isDefault)
        engine.beforeChanging = beforeChanging
        let counts = try await engine.run()
        context.logger.info("caldav sync", metadata: ["account": "\(name)", "requests": "\(counts.requests)"])
        return counts
    }

}

/// Serialises the syncs of each account; a waiter takes the lock over from the one that ends.
actor SyncLocks {
    private var busy: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    func acquire(_ name: String) async {
        guard busy.contains(name) else {
            busy.insert(name)
            return
        }
        await withCheckedContinuation { waiters[name, default: []].append($0) }
    }

    func release(_ name: String) {
        if var queue = waiters[name], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[name] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            busy.remove(name)
        }
    }

    func isBusy(_ name: String) -> Bool { busy.contains(name) }
}
