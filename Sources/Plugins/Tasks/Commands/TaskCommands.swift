import Foundation
import GRDB
import PluginKit

/// add, get, update, delete, restore, complete, reopen.
extension TasksService {
    func add(_ params: Params) async throws -> TaskRow {
        _ = try params[TasksParams.requiredTitle]
        let now = self.now
        let zone = defaultZone
        let task = try await database.write { db in
            var t = TaskItem(id: UUID().uuidString.lowercased(), title: "", created: now, modified: now, tz: zone.identifier)
            try TaskInput.apply(params, to: &t, db: db)
            try TaskInput.validate(&t, now: now)
            try t.save(db)
            return t
        }
        await armReminders(taskID: task.id)
        return await row(task)
    }

    func get(_ params: Params) async throws -> TaskRow {
        try await get(id: try await taskID(try params[TasksParams.id]))
    }

    /// One task by its whole id.
    func get(id: String) async throws -> TaskRow {
        guard let t = try await database.read({ db in try TaskItem.find(db, id) }) else { throw TasksError.noSuchTask(id) }
        return await row(t)
    }

    /// Loads a live, editable task inside a write.
    static func editable(_ db: Database, _ id: String) throws -> TaskItem {
        guard let t = try TaskItem.find(db, id) else { throw TasksError.noSuchTask(id) }
        if t.source.hasPrefix("feed:") { throw TasksError.readOnly(t.source) }
        return t
    }

    /// The original wall time of one occurrence named by `occurrence` (any accepted time form).
    static func occurrence(_ text: String, of t: TaskItem) throws(RPCError) -> WallTime {
        guard t.isRecurring, let series = t.series, let anchor = t.anchor else {
            throw TasksParams.occurrence.invalid("the task does not repeat")
        }
        var wall = try TimeInput.parse(text, param: TasksParams.occurrence.name, zone: t.zone)
        if anchor.isDate { wall = wall.asDate }
        let known = series.occurrences(before: wall.adding(seconds: 1)).last == wall || t.overrides[wall.text] != nil
        guard known else { throw TasksParams.occurrence.invalid("'\(text)' is not an occurrence of this task") }
        return wall
    }

    /// One edit of a live, editable task: `change` runs inside the write, then the task gets a
    /// new `modified` and SEQUENCE (what CalDAV sync detects), is saved, and its reminders re-armed.
    private func edit(_ given: String, _ change: @escaping @Sendable (inout TaskItem, Database, Date) throws -> Void) async throws -> TaskRow {
        let id = try await taskID(given)
        let now = self.now
        let task = try await database.write { db in
            var t = try Self.editable(db, id)
            try change(&t, db, now)
            t.modified = now
            t.sequence += 1
            try t.save(db)
            return t
        }
        await armReminders(taskID: task.id)
        return await row(task)
    }

    func update(_ params: Params) async throws -> TaskRow {
        try await edit(try params[TasksParams.id]) { t, db, now in
            if let occurrenceText = params[TasksParams.occurrence] {
                try Self.applyOverride(params, wall: try Self.occurrence(occurrenceText, of: t), to: &t)
            } else {
                try TaskInput.apply(params, to: &t, db: db)
                try TaskInput.validate(&t, now: now)
            }
        }
    }

    private static let overrideFields: Set<String> = Set(
        ([TasksParams.id, TasksParams.occurrence, TasksParams.title, TasksParams.notes, TasksParams.location, TasksParams.status]
            as [any ParamDeclaration]
            + TasksParams.times).map(\.spec.name))

    static func applyOverride(_ params: Params, wall: WallTime, to t: inout TaskItem) throws {
        for key in params.values.keys where !overrideFields.contains(key) && params[key] != nil {
            throw RPCError.invalidParam(key, "cannot be changed for one occurrence (only title, notes, location, start, due, end, status)")
        }
        var o = t.overrides[wall.text] ?? OccurrenceOverride()
        if let v = params[TasksParams.title] {
            guard !v.trimmingCharacters(in: .whitespaces).isEmpty else { throw TasksParams.title.invalid("must not be empty") }
            o.title = v
        }
        if let v = params[TasksParams.notes] { o.notes = v }
        if let v = params[TasksParams.location] { o.location = v }
        // The manifest allows only the statuses there are.
        if let v = params[TasksParams.status], let s = TaskStatus(rawValue: v) { o.status = s }
        for key in TasksParams.times {
            guard let text = params[key] else { continue }
            let w = try TimeInput.parse(text, param: key.name, zone: t.zone)
            if w.isDate != t.allDay { throw RPCError.invalidParam(key.name, t.allDay ? "must be a date for an all-day item" : "needs a time") }
            switch key.name {
            case TasksParams.start.name: o.start = w.text
            case TasksParams.due.name: o.due = w.text
            default: o.end = w.text
            }
        }
        t.overrides[wall.text] = o
    }

    func delete(_ params: Params) async throws -> TaskDeleted {
        let id = try await taskID(try params[TasksParams.id])
        let now = self.now
        if let occurrenceText = params[TasksParams.occurrence] {
            let wall = try await database.write { db in
                var t = try Self.editable(db, id)
                let wall = try Self.occurrence(occurrenceText, of: t)
                if !t.exdates.contains(wall) { t.exdates.append(wall) }
                t.exdates.sort()
                t.overrides[wall.text] = nil
                t.modified = now
                t.sequence += 1
                try t.save(db)
                return (wall, t.zone)
            }
            await armReminders(taskID: id)
            let occurrence = wall.0.isDate ? wall.0.text : TimeInput.utcString(wall.1.instant(wall.0))
            return TaskDeleted(deleted: id, occurrence: occurrence, withSubtasks: [])
        }
        let removed = try await database.write { db in
            _ = try Self.editable(db, id)
            // Sub-tasks go with their parent, and come back with it.
            var ids = [id]
            var frontier = [id]
            while let next = frontier.popLast() {
                let children = try String.fetchAll(db, sql: "SELECT id FROM tasks_items WHERE parent = ? AND deleted_at IS NULL", arguments: [next])
                ids += children
                frontier += children
            }
            for i in ids {
                try db.execute(
                    sql: "UPDATE tasks_items SET deleted_at = ?, modified = ? WHERE id = ?",
                    arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, i])
            }
            return ids
        }
        for i in removed { await disarmReminders(taskID: i) }
        return TaskDeleted(deleted: id, occurrence: nil, withSubtasks: Array(removed.dropFirst()))
    }

    func restore(_ params: Params) async throws -> TaskRow {
        let id = try await taskID(try params[TasksParams.id])
        let now = self.now
        let restored = try await database.write { db -> [String] in
            guard let t = try TaskItem.find(db, id, includeDeleted: true) else { throw TasksError.noSuchTask(id) }
            guard let deletedAt = t.deletedAt else { throw TasksError.notDeleted(id) }
            let ids = try String.fetchAll(
                db, sql: "SELECT id FROM tasks_items WHERE deleted_at = ? AND (id = ? OR parent IS NOT NULL)",
                arguments: [deletedAt.timeIntervalSince1970, id])
            for i in ids {
                try db.execute(sql: "UPDATE tasks_items SET deleted_at = NULL, modified = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, i])
            }
            return ids
        }
        for i in restored { await armReminders(taskID: i) }
        return try await get(id: try await taskID(id))
    }

    func complete(_ params: Params) async throws -> TaskRow {
        try await edit(try params[TasksParams.id]) { t, _, now in
            guard t.kind == .todo else { throw TasksError.eventNotCompletable }
            if t.isRecurring, let next = Self.nextAnchor(after: t, completedAt: now) {
                Self.advance(&t, to: next)
            } else {
                t.status = .completed
                t.completedAt = now
            }
        }
    }

    /// The series' next anchor after completing its current occurrence: the next occurrence of the
    /// rule, or with repeat_from=completion the rule applied from the completion day (time of day kept).
    static func nextAnchor(after t: TaskItem, completedAt: Date) -> WallTime? {
        guard let anchor = t.anchor, let series = t.series else { return nil }
        if t.repeatFromCompletion, let rule = t.rrule.flatMap({ try? RecurrenceRule($0) }) {
            let done = t.zone.wall(completedAt)
            let base = WallTime(
                year: done.year, month: done.month, day: done.day, hour: anchor.hour, minute: anchor.minute,
                second: anchor.second, isDate: anchor.isDate)
            // The next one from the new base; COUNT and UNTIL still end the series.
            if let count = rule.part("COUNT").flatMap(Int.init), count <= 1 { return nil }
            guard let next = RecurrenceRule.unbounded(rule).occurrences(anchor: base, zone: t.zone, limit: 2).dropFirst().first else { return nil }
            if let until = rule.part("UNTIL"), let last = WallTime(until.hasSuffix("Z") ? String(until.dropLast()) : until), next > last {
                return nil
            }
            return next
        }
        let all = series.occurrences(before: anchor.adding(days: 366 * 100), limit: 2)
        return all.count > 1 ? all[1] : nil
    }

    /// Moves the series' anchor (and DUE) to `next`, keeping COUNT's remaining number of instances.
    static func advance(_ t: inout TaskItem, to next: WallTime) {
        guard let anchor = t.anchor else { return }
        let shift = next.wallSeconds - anchor.wallSeconds
        if let rule = t.rrule.map(RecurrenceRule.init(trusted:)), let count = rule.part("COUNT").flatMap(Int.init) {
            // From completion one instance is used up; else every instance before `next`.
            let used = t.repeatFromCompletion ? 1 : (t.series?.occurrences(before: next).count ?? 1)
            t.rrule = rule.replacing("COUNT", with: String(max(1, count - used)))
        }
        if t.start != nil { t.start = t.start!.adding(seconds: shift) }
        if t.due != nil { t.due = t.due!.adding(seconds: shift) }
        t.exdates.removeAll { $0 < next }
        t.rdates.removeAll { $0 < next }
        t.overrides = t.overrides.filter { (WallTime($0.key) ?? next) >= next }
        t.status = .needsAction
        t.completedAt = nil
    }

    func reopen(_ params: Params) async throws -> TaskRow {
        try await edit(try params[TasksParams.id]) { t, _, _ in
            t.status = .needsAction
            t.completedAt = nil
        }
    }

}

extension RecurrenceRule {
    /// The rule without COUNT and UNTIL (to find "the next one" from a new base).
    static func unbounded(_ rule: RecurrenceRule) -> RecurrenceRule {
        let text = RecurrenceRule.stripping(rule.text, ["COUNT", "UNTIL"])
        return (try? RecurrenceRule(text)) ?? rule
    }

    static func stripping(_ text: String, _ names: [String]) -> String {
        text.split(separator: ";").filter { piece in !names.contains { piece.hasPrefix($0 + "=") } }.joined(separator: ";")
    }
}
