import Foundation
import GRDB
import HostCore

/// tasks.export.ics and tasks.import.ics.
extension TasksService {
    func exportICS(_ params: Params) async throws -> JSONValue {
        let path = try params.requiredString("path")
        try FileOutput.checkFolder(of: path, param: "path")
        let from = try params.string("from").map { s throws(RPCError) in try boundary(s, param: "from") }
        let to = try params.string("to").map { s throws(RPCError) in try boundary(s, param: "to") }
        if let from, let to, to <= from { throw RPCError.invalidParam("to", "must be after from") }
        let category = params.string("category")?.lowercased()
        let status = try params.string("status").map { s throws(RPCError) in
            guard let v = TaskStatus(rawValue: s) else { throw RPCError.invalidParam("status", "must be needs-action, in-process, completed or cancelled") }
            return v
        }
        var clauses = ["deleted_at IS NULL", "source NOT LIKE 'feed:%'"]
        var arguments: StatementArguments = []
        if let category { clauses.append("category = ?"); arguments += [category] }
        if let status { clauses.append("status = ?"); arguments += [status.rawValue] }
        if let to { clauses.append("(first_at IS NULL OR first_at < ?)"); arguments += [to.timeIntervalSince1970] }
        if let from { clauses.append("(last_at IS NULL OR last_at >= ?)"); arguments += [from.timeIntervalSince1970] }
        let whereClause = clauses.joined(separator: " AND ") + " ORDER BY created, id"
        let sqlArguments = arguments
        let tasks = try await database.read { db in try TaskItem.fetch(db, where: whereClause, sqlArguments) }
        let syncAlarms = context.config[TasksConfig.syncAlarms]
        let stamp = now
        let text = try await runBlocking { ICSWriter.calendar(tasks, syncAlarms: syncAlarms, stamp: stamp) }
        let data = Data(text.utf8)
        do {
            try await FileOutput.write(data, to: path, param: "path")
        } catch let error as RPCError where error.code == RPCErrorCode.invalidParams {
            throw TasksError.file(path, error.message.replacingOccurrences(of: "Invalid params: 'path' ", with: ""))
        }
        return [
            "path": .string(path), "todos": .count(tasks.filter { $0.kind == .todo }.count),
            "events": .count(tasks.filter { $0.kind == .event }.count), "bytes": .count(data.count),
        ]
    }

    func importICS(_ params: Params) async throws -> JSONValue {
        let path = try params.requiredString("path")
        let dryRun = params.bool("dry_run") ?? false
        let skipInvalid = params.bool("skip_invalid") ?? false
        let text: String = try await runBlocking {
            let data: Data
            do throws(SafeFile.Failure) { data = try SafeFile.read(path, limit: SafeFile.Limit.importFile) } catch { throw TasksError.file(path, error.problem) }
            guard let s = String(data: data, encoding: .utf8) else { throw TasksError.file(path, "it is not UTF-8 text") }
            return s
        }
        let zone = defaultZone
        let now = self.now
        let reader = try await runBlocking { ICSReader(text: text, defaultZone: zone, now: now) }
        if reader.notCalendar { throw TasksError.file(path, reader.problems.first?.reason ?? "it is not an iCalendar file") }
        var problems: [JSONValue] = reader.problems.map {
            ["uid": $0.uid.map(JSONValue.string) ?? .null, "summary": $0.summary.map(JSONValue.string) ?? .null, "reason": .string($0.reason)]
        }
        let items = reader.items
        let readerFoundProblems = !reader.problems.isEmpty
        typealias Outcome = (added: Int, updated: Int, unchanged: Int, valid: [TaskItem], problems: [JSONValue], arming: ReminderArming)
        let outcome = try await database.write { db -> Outcome in
            var problems: [JSONValue] = []
            var valid: [TaskItem] = []
            let known = Set(try String.fetchAll(db, sql: "SELECT name FROM tasks_categories"))
            let fileIDs = Set(items.map(\.id))
            var added = 0, updated = 0, unchanged = 0
            for var t in items {
                if t.category == nil, let first = t.tags.first, known.contains(first.lowercased()) {
                    t.category = first.lowercased()
                    t.tags.removeFirst()
                }
                if let parent = t.parent, !fileIDs.contains(parent), try TaskItem.find(db, parent) == nil {
                    t.extra.append("RELATED-TO;RELTYPE=PARENT:\(parent)")
                    t.parent = nil
                }
                do throws(RPCError) {
                    try TaskInput.validate(&t, now: now)
                } catch {
                    problems.append(["uid": .string(t.id), "summary": .string(t.title), "reason": .string(error.message)])
                    continue
                }
                valid.append(t)
            }
            if (readerFoundProblems || !problems.isEmpty) && !skipInvalid { return (0, 0, 0, [], problems, ReminderArming()) }
            var saved: [TaskItem] = []
            for t in valid {
                if let category = t.category, !known.contains(category) {
                    try db.execute(sql: "INSERT OR IGNORE INTO tasks_categories(name, builtin) VALUES (?, 0)", arguments: [category])
                }
                if let existing = try TaskItem.find(db, t.id, includeDeleted: true) {
                    var merged = t
                    merged.created = existing.created
                    if existing.deletedAt == nil && existing.sequence == t.sequence && abs(existing.modified.timeIntervalSince(t.modified)) < 1 {
                        unchanged += 1
                        continue
                    }
                    if !dryRun { try merged.save(db) }
                    saved.append(merged)
                    updated += 1
                } else {
                    if !dryRun { try t.save(db) }
                    saved.append(t)
                    added += 1
                }
            }
            // The reminders' state is written in the same transaction, so that what follows the
            // commit is only the scheduler's in-memory queue: nothing a timeout or a client
            // hanging up can cut off half-way (it once logged 40 819 "could not arm" errors).
            let arming = dryRun ? ReminderArming() : try ReminderArming(saved, db: db, now: now)
            return (added, updated, unchanged, valid, problems, arming)
        }
        problems += outcome.problems
        if !problems.isEmpty && !skipInvalid { throw TasksError.badCalendarFile(problems) }
        await arm(outcome.arming)
        return [
            "path": .string(path), "dry_run": .bool(dryRun), "added": .count(outcome.added), "updated": .count(outcome.updated),
            "unchanged": .count(outcome.unchanged), "skipped": .count(problems.count), "problems": .array(problems),
            "todos": .count(outcome.valid.filter { $0.kind == .todo }.count), "events": .count(outcome.valid.filter { $0.kind == .event }.count),
        ]
    }
}
