import Foundation
import GRDB
import PluginKit
import Synchronization

/// list, agenda and categories.
extension TasksService {
    func list(_ params: Params) async throws -> TaskListResult {
        let when = params[TasksParams.when] ?? "all"
        let days = Int(params[TasksParams.days] ?? 7)
        let limit = Int(params[TasksParams.listLimit] ?? 500)
        let statusFilter = params[TasksParams.listStatus] ?? (when == "all" ? "any" : "open")
        let minPriority = try params[TasksParams.minPriority].map { v throws(RPCError) in try TaskInput.priority(v) }
        let category = params[TasksParams.onlyCategory]?.lowercased()
        let tag = params[TasksParams.tag]
        let text = params[TasksParams.text]?.lowercased()
        var parent = params[TasksParams.subtasksOf]
        if let given = parent { parent = try await taskID(given, param: TasksParams.subtasksOf.name) }
        let now = self.now
        let zone = defaultZone
        let today = zone.wall(now).asDate
        let dayStart = zone.instant(WallTime(year: today.year, month: today.month, day: today.day))
        let dayEnd = zone.instant(today.adding(days: 1))

        let filter = ListFilter(
            status: statusFilter, category: category, parent: parent, tag: tag, text: text, minPriority: minPriority)

        let selection: ListSelection =
            switch when {
            case "today": .today(from: dayStart, to: dayEnd, now: now)
            case "upcoming": .upcoming(from: now, to: zone.instant(today.adding(days: days)))
            case "overdue": .overdue(now: now)
            default: .all(now: now)
            }
        return try await list(selection, filter, limit: limit)
    }

    /// The open to-dos past their due (what `today` and the digest add to the day).
    func overdue() async throws -> TaskListResult {
        try await list(.overdue(now: now), ListFilter(status: "open"), limit: 500)
    }

    func list(_ selection: ListSelection, _ filter: ListFilter, limit: Int) async throws -> TaskListResult {
        let now = self.now
        // One read: the rows placed, then those shown read whole (one transaction, so a row
        // cannot go between the two, and one trip to the reader).
        let (placed, total, whole) = try await database.read { db in
            let (placed, total) = try selection.place(db, filter, limit: limit)
            return (placed, total, try TaskItem.fetch(db, ids: placed.map(\.id)))
        }
        let wholeByID = Dictionary(whole.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let channels = await defaultChannels()
        let tasks: [TaskRow] = placed.compactMap { row in
            guard let t = wholeByID[row.id] else { return nil }
            let shown = row.occurrence.map { t.occurrence(at: $0) } ?? t.standingOccurrence
            // A repeating event's current occurrence is the one shown unless that has ended
            // (then TaskJSON looks it up); anything else's is its standing one.
            let current: Occurrence??
            if t.isRecurring && t.kind == .event {
                let notEnded = shown.flatMap { o in (o.end ?? o.start).map { t.zone.instant(t.allDay ? $0.adding(days: 1) : $0) >= now } } == true
                current = notEnded ? .some(shown) : nil
            } else {
                current = .some(t.standingOccurrence)
            }
            return TaskRow(t, now: now, defaultChannels: channels, current: current, next: shown)
        }
        return TaskListResult(tasks: tasks, count: total, truncated: total > limit)
    }

    func agenda(_ params: Params) async throws -> AgendaResult {
        let from = try boundary(try params[TasksParams.windowFrom], param: TasksParams.windowFrom.name)
        let to = try boundary(try params[TasksParams.windowTo], param: TasksParams.windowTo.name)
        guard to > from else { throw TasksParams.windowTo.invalid("must be after from") }
        // Any window is a fair question ("every occurrence of this series"): the work is bounded
        // by `limit`, not by the window's length (`truncated` and `next_from` say where to go on).
        return try await agenda(
            from: from, to: to, category: params[TasksParams.onlyCategory]?.lowercased(),
            limit: Int(params[TasksParams.agendaLimit] ?? Int64(Self.agendaLimit)))
    }

    /// The occurrences in [from, to), in order, at most `limit` (cut where the start changes).
    func agenda(from: Date, to: Date, category: String? = nil, limit: Int = TasksService.agendaLimit) async throws -> AgendaResult {
        let now = self.now
        let (items, indexed) = try await TaskItem.inWindow(database, from: from, to: to, category: category)
        let found = Self.occurrences(of: items, indexed: indexed, from: from, to: to, limit: limit)
        let sorted = found.order()
        guard sorted.count > limit else {
            return AgendaResult(found: found.occurrences, shown: sorted, now: now, truncated: false)
        }
        // Cut where the start changes, so that `from = next_from` continues without repeating any:
        // the occurrences that share the first left-out start all go to the next call.
        let nextFrom = found.starts[sorted[limit]]
        var shown = sorted.prefix(limit).filter { found.starts[$0] < nextFrom }
        if shown.isEmpty { shown = Array(sorted.prefix(limit)) }
        return AgendaResult(found: found.occurrences, shown: shown, now: now, truncated: true, nextFrom: nextFrom)
    }

    /// Occurrences in [from, to) with their start instants, in no order.
    struct FoundOccurrences: Sendable {
        var occurrences: [Occurrence] = []
        var starts: [Date] = []

        /// Positions in order of start, then title (positions are sorted, not occurrences: each
        /// holds its whole item).
        func order() -> [Int] {
            occurrences.indices.sorted { i, j in starts[i] != starts[j] ? starts[i] < starts[j] : occurrences[i].title < occurrences[j].title }
        }

        /// Memory stays near twice the limit however many occurrences the window holds (a feed's
        /// series every minute): no series needs more than `limit + 1` of its own, and once more
        /// than twice the limit are held, the latest are let go and later series stop earlier.
        mutating func add(_ items: some Sequence<TaskItem>, indexed: [String: [WallTime]], from: Date, to: Date, limit: Int) {
            var end = to
            for t in items {
                let found = indexed[t.id].map { t.occurrences(at: $0) } ?? t.occurrences(from: from, to: end, limit: limit + 1)
                for o in found {
                    if let at = o.sortInstant(), at >= from, at < end {
                        occurrences.append(o)
                        starts.append(at)
                    }
                }
                if occurrences.count > 2 * (limit + 1) {
                    let kept = order().prefix(limit + 1)
                    occurrences = kept.map { occurrences[$0] }
                    starts = kept.map { starts[$0] }
                    end = starts[limit].addingTimeInterval(1)
                }
            }
        }
    }

    /// The items' occurrences, worked out in parts at once when there are many (a month of a busy
    /// calendar: the expansion was a fifth of the call), each part bounded as `add` says.
    static func occurrences(of items: [TaskItem], indexed: [String: [WallTime]], from: Date, to: Date, limit: Int) -> FoundOccurrences {
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, 4, items.count / 500)
        guard parts > 1 else {
            var found = FoundOccurrences()
            found.add(items, indexed: indexed, from: from, to: to, limit: limit)
            return found
        }
        let results = Mutex([FoundOccurrences](repeating: FoundOccurrences(), count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var found = FoundOccurrences()
            // Every `parts`-th item: the read puts single items first and series after.
            found.add(stride(from: part, to: items.count, by: parts).lazy.map { items[$0] }, indexed: indexed, from: from, to: to, limit: limit)
            results.withLock { $0[part] = found }
        }
        return results.withLock { parts in
            var all = FoundOccurrences()
            all.occurrences.reserveCapacity(parts.reduce(0) { $0 + $1.occurrences.count })
            all.starts.reserveCapacity(all.occurrences.capacity)
            for part in parts {
                all.occurrences += part.occurrences
                all.starts += part.starts
            }
            return all
        }
    }

    /// `tasks.agenda`'s default `limit`: a month of a busy calendar (about 20 000) fits.
    static let agendaLimit = 50_000

    func categoriesList() async throws -> CategoryList {
        let categories = try await database.read { db -> [CategoryRow] in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.name, c.builtin, (SELECT COUNT(*) FROM tasks_items t WHERE t.category = c.name AND t.deleted_at IS NULL) AS n
                    FROM tasks_categories c ORDER BY c.builtin DESC, c.name
                    """
            ).map { CategoryRow(name: $0["name"], builtin: $0["builtin"], tasks: $0["n"]) }
        }
        return CategoryList(categories: categories)
    }

    func categoriesAdd(_ params: Params) async throws -> CategoryAdded {
        let raw = try params[TasksParams.newCategory]
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty, name.count <= 40, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw TasksParams.newName.invalid("'\(raw)' is not a category name (letters, digits, - and _, up to 40)")
        }
        try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM tasks_categories WHERE name = ?", arguments: [name]) == true {
                throw TasksError.categoryExists(name)
            }
            try db.execute(sql: "INSERT INTO tasks_categories(name, builtin) VALUES (?, 0)", arguments: [name])
        }
        return CategoryAdded(name: name)
    }

    func categoriesRemove(_ params: Params) async throws -> Removed {
        let name = try params[TasksParams.categoryName].lowercased()
        try await database.write { db in
            guard let builtin = try Bool.fetchOne(db, sql: "SELECT builtin FROM tasks_categories WHERE name = ?", arguments: [name]) else {
                throw RPCError.notFound("category '\(name)'", data: ["category": .string(name)])
            }
            if builtin { throw TasksError.builtinCategory(name) }
            let used = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tasks_items WHERE category = ? AND deleted_at IS NULL", arguments: [name]) ?? 0
            if used > 0 { throw TasksError.categoryInUse(name, tasks: used) }
            try db.execute(sql: "DELETE FROM tasks_categories WHERE name = ?", arguments: [name])
        }
        return Removed(name)
    }
}
