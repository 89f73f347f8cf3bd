import Foundation
import GRDB
import PluginKit

/// tasks.export.ics and tasks.import.ics.
extension TasksService {
    func exportICS(_ params: Params) async throws -> ICSExported {
        let path = try params[TasksParams.exportPath]
        let overwrite = params[FileOutput.overwrite] ?? false
        try FileOutput.checkTarget(path, param: TasksParams.exportPath.name, overwrite: overwrite)
        let from = try params[TasksParams.exportFrom].map { s throws(RPCError) in try boundary(s, param: TasksParams.windowFrom.name) }
        let to = try params[TasksParams.exportTo].map { s throws(RPCError) in try boundary(s, param: TasksParams.windowTo.name) }
        if let from, let to, to <= from { throw TasksParams.windowTo.invalid("must be after from") }
        let category = params[TasksParams.onlyCategory]?.lowercased()
        let status = try params[TasksParams.onlyStatus].map { s throws(RPCError) in
            guard let v = TaskStatus(rawValue: s) else {
                throw TasksParams.onlyStatus.invalid("must be needs-action, in-process, completed or cancelled")
            }
            return v
        }
        var clauses = ["deleted_at IS NULL", "source NOT LIKE 'feed:%'"]
        var arguments: StatementArguments = []
        if let category {
            clauses.append("category = ?")
            arguments += [category]
        }
        if let status {
            clauses.append("status = ?")
            arguments += [status.rawValue]
        }
        if let to {
            clauses.append("(first_at IS NULL OR first_at < ?)")
            arguments += [to.timeIntervalSince1970]
        }
        if let from {
            clauses.append("(last_at IS NULL OR last_at >= ?)")
            arguments += [from.timeIntervalSince1970]
        }
        let whereClause = clauses.joined(separator: " AND ") + " ORDER BY created, id"
        let sqlArguments = arguments
        let tasks = try await database.read { db in try TaskItem.fetch(db, where: whereClause, sqlArguments) }
        let syncAlarms = context.config[TasksConfig.syncAlarms]
        let stamp = now
        let text = try await runBlocking { ICSWriter.calendar(tasks, syncAlarms: syncAlarms, stamp: stamp) }
        let data = Data(text.utf8)
        do {
            try await FileOutput.write(data, to: path, param: TasksParams.exportPath.name, overwrite: overwrite)
        } catch let error as RPCError where error.code == RPCErrorCode.invalidParams && !FileOutput.refusedAsTaken(error) {
            throw TasksError.file(path, error.message.replacingOccurrences(of: "Invalid params: 'path' ", with: ""))
        }
        return ICSExported(
            path: path, todos: tasks.filter { $0.kind == .todo }.count, events: tasks.filter { $0.kind == .event }.count, bytes: data.count)
    }

    /// Streams the file into one transaction: a task at a time, never the whole file in memory,
    /// and either all of it (with `skip_invalid`, all the good items) or nothing.
    func importICS(_ params: Params, call: CallContext) async throws -> ICSImported {
        let path = try params[TasksParams.importPath]
        let dryRun = params[TasksParams.dryRun] ?? false
        let skipInvalid = params[TasksParams.skipInvalid] ?? false
        let zone = defaultZone
        let now = self.now
        typealias Outcome = (
            added: Int, updated: Int, unchanged: Int, todos: Int, events: Int, problems: [JSONValue], problemCount: Int,
            arming: ReminderArming
        )
        let outcome = try await database.write { db -> Outcome in
            let chunks: SafeFile.Chunks
            do throws(SafeFile.Failure) { chunks = try SafeFile.chunks(path, limit: SafeFile.Limit.importFile) } catch {
                throw TasksError.file(path, error.problem)
            }
            do {
                let stream = try ICSStream(CalendarFile(chunks: chunks), defaultZone: zone, now: now, source: "local")
                if stream.notCalendar { throw CalendarReadFailure(reason: CalendarLimits.notCalendar) }
                var run = try CalendarImport(db: db, dryRun: dryRun, now: now, fileUIDs: stream.uids)
                while let item = try stream.next() {
                    try run.take(item)
                    if run.read % 10_000 == 0 {
                        call.progress("read \(run.read) tasks and events", done: Int64(chunks.bytesRead), total: chunks.size)
                    }
                }
                try run.finish()
                if run.problemCount > 0 && !skipInvalid { throw TasksError.badCalendarFile(run.problems, count: run.problemCount) }
                if !dryRun { try call.committing() }
                return (run.added, run.updated, run.unchanged, run.todos, run.events, run.problems, run.problemCount, run.arming)
            } catch let failure as CalendarReadFailure {
                throw TasksError.file(path, failure.reason)
            }
        }
        await arm(outcome.arming)
        return ICSImported(
            path: path, dryRun: dryRun, added: outcome.added, updated: outcome.updated, unchanged: outcome.unchanged,
            skipped: outcome.problemCount, problems: outcome.problems, todos: outcome.todos, events: outcome.events)
    }
}
