import Foundation
import GRDB
import HostCore

/// list, agenda and categories.
extension TasksService {
    func list(_ params: Params) async throws -> JSONValue {
        let when = params.string("when") ?? "all"
        let days = Int(params.int("days") ?? 7)
        let limit = Int(params.int("limit") ?? 500)
        let statusFilter = params.string("status") ?? (when == "all" ? "any" : "open")
        let minPriority = try params["priority"].map { v throws(RPCError) in try TaskInput.priority(v) }
        let category = params.string("category")?.lowercased()
        let tag = params.string("tag")
        let text = params.string("text")?.lowercased()
        let parent = params.string("parent")
        let now = self.now
        let zone = defaultZone
        let today = zone.wall(now).asDate
        let dayStart = zone.instant(WallTime(year: today.year, month: today.month, day: today.day))
        let dayEnd = zone.instant(today.adding(days: 1))

        var clauses = ["deleted_at IS NULL"]
        var arguments: StatementArguments = []
        if let category { clauses.append("category = ?"); arguments += [category] }
        if let parent { clauses.append("parent = ?"); arguments += [parent] }
        switch statusFilter {
        case "open": clauses.append("status IN ('needs-action', 'in-process')")
        case "any": break
        default: clauses.append("status = ?"); arguments += [statusFilter]
        }
        if let tag { clauses.append("EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)"); arguments += [tag] }
        if let text {
            clauses.append("(instr(lower(title), ?) > 0 OR instr(lower(notes), ?) > 0 OR instr(lower(coalesce(location, '')), ?) > 0)")
            arguments += [text, text, text]
        }
        if let minPriority, minPriority > 0 { clauses.append("priority BETWEEN 1 AND ?"); arguments += [minPriority] }
        let windowEnd: Date? =
            switch when {
            case "today": dayEnd
            case "upcoming": zone.instant(today.adding(days: days))
            case "overdue": now
            default: nil
            }
        if let windowEnd {
            clauses.append("first_at < ?")
            arguments += [windowEnd.timeIntervalSince1970 + 86_400]
        }
        if when == "today" {
            // Today also shows every open to-do already overdue, however long ago it was due.
            clauses.append("(last_at IS NULL OR last_at >= ? OR (kind = 'todo' AND status IN ('needs-action', 'in-process')))")
            arguments += [dayStart.timeIntervalSince1970 - 86_400]
        } else if when == "upcoming" {
            clauses.append("(last_at IS NULL OR last_at >= ?)")
            arguments += [now.timeIntervalSince1970 - 86_400]
        }
        // The occurrence index answers for repeating items it covers: their occurrences in the
        // window come from it, and a covered repeating event with none there is not even read.
        let hitWindow: (Date, Date) = when == "upcoming" ? (now, windowEnd ?? now) : (dayStart, dayEnd)
        let (hf, ht) = (hitWindow.0.timeIntervalSince1970, hitWindow.1.timeIntervalSince1970)
        if when == "today" || when == "upcoming" {
            clauses.append("""
                NOT (recurring = 1 AND kind = 'event' AND indexed_from <= ? AND indexed_until >= ?
                     AND id NOT IN (SELECT task_id FROM tasks_occurrences WHERE start_at >= ? AND start_at < ?))
                """)
            arguments += [hf - 86_400, ht + 86_400, hf, ht]
        }
        let whereClause = clauses.joined(separator: " AND ")
        let sqlArguments = arguments
        let (candidates, indexedHits) = try await database.read { db -> ([TaskItem], [String: [WallTime]]) in
            let items = try TaskItem.fetch(db, where: whereClause, sqlArguments, placementOnly: true)
            var hits: [String: [WallTime]] = [:]
            for row in try GRDB.Row.fetchAll(
                db, sql: "SELECT task_id, rid FROM tasks_occurrences WHERE start_at >= ? AND start_at < ?", arguments: [hf, ht])
            {
                if let w = WallTime(row["rid"] as String) { hits[row["task_id"], default: []].append(w) }
            }
            return (items, hits)
        }
        /// Selection needs the current occurrence of everything but repeating events (whose window
        /// hits decide); theirs is looked up for the rows shown only.
        func currentOf(_ t: TaskItem) -> Occurrence? {
            guard t.isRecurring else { return t.currentOccurrence(now: now) }
            // A repeating to-do sits at its anchor (completing moves it).
            if t.kind == .todo, let anchor = t.anchor, !t.exdates.contains(anchor) { return t.occurrence(at: anchor) }
            return t.currentOccurrence(now: now)
        }
        func inWindow(_ t: TaskItem, _ from: Date, _ to: Date) -> [Occurrence] {
            guard t.indexCovers(from, to) else { return t.occurrences(from: from, to: to) }
            return (indexedHits[t.id] ?? []).map { t.occurrence(at: $0) }.filter { o in
                o.sortInstant().map { $0 >= from && $0 < to } ?? false
            }.sorted { ($0.sortInstant() ?? from) < ($1.sortInstant() ?? from) }
        }

        struct Row { let task: TaskItem; let at: Date?; let occurrence: Occurrence?; var current: Occurrence?? = nil }
        var rows: [Row] = []
        for t in candidates {
            let lazyEvent = t.isRecurring && t.kind == .event && (when == "today" || when == "upcoming")
            let current = lazyEvent ? nil : currentOf(t)
            let before = rows.count
            defer { if rows.count > before && !lazyEvent { rows[rows.count - 1].current = .some(current) } }
            switch when {
            case "today":
                if t.isRecurring {
                    let hits = inWindow(t, dayStart, dayEnd)
                    if let first = hits.first {
                        // Today's occurrence is the current one unless it has ended (then it is looked up).
                        let notEnded = lazyEvent && (first.end ?? first.start).map { t.zone.instant(t.allDay ? $0.adding(days: 1) : $0) >= now } == true
                        rows.append(Row(task: t, at: first.sortInstant(), occurrence: first, current: notEnded ? .some(first) : nil))
                        continue
                    }
                    if let current, current.isOverdue(now: now), t.kind == .todo, (current.sortInstant() ?? now) < dayEnd {
                        rows.append(Row(task: t, at: current.sortInstant(), occurrence: current))
                    }
                } else if let o = current, let at = o.sortInstant() {
                    // Today: anything whose start or due is today, and open to-dos already overdue.
                    let dueAt = (o.due ?? o.start).map { t.zone.instant($0) }
                    if (at >= dayStart && at < dayEnd) || (dueAt.map { $0 >= dayStart && $0 < dayEnd } ?? false)
                        || o.isOverdue(now: now) {
                        rows.append(Row(task: t, at: at, occurrence: o))
                    }
                }
            case "overdue":
                if let o = current, o.isOverdue(now: now) { rows.append(Row(task: t, at: o.sortInstant(), occurrence: o)) }
            case "upcoming":
                let end = windowEnd ?? now
                if t.isRecurring {
                    if let first = inWindow(t, now, end).first { rows.append(Row(task: t, at: first.sortInstant(), occurrence: first)) }
                } else if let o = current, let at = o.sortInstant() {
                    let dueAt = (o.due ?? o.start).map { t.zone.instant($0) } ?? at
                    if (at >= now && at < end) || (dueAt >= now && dueAt < end) { rows.append(Row(task: t, at: at, occurrence: o)) }
                }
            default:
                rows.append(Row(task: t, at: current?.sortInstant(), occurrence: current))
            }
        }
        // Positions are sorted, not rows: a row holds whole items, and moving them was a tenth
        // of a list's time (perf, tasks-bench).
        let order = rows.indices.sorted { i, j in
            let (a, b) = (rows[i], rows[j])
            switch (a.at, b.at) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default:
                let pa = a.task.priority == 0 ? 10 : a.task.priority, pb = b.task.priority == 0 ? 10 : b.task.priority
                return pa != pb ? pa < pb : a.task.title < b.task.title
            }
        }
        // The candidates were placement reads; the rows shown are read whole, and their
        // occurrences made again from the whole items.
        let shown = order.prefix(limit).map { rows[$0] }
        let whole = try await database.read { db in try TaskItem.fetch(db, ids: shown.map(\.task.id)) }
        let wholeByID = Dictionary(whole.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let channels = await defaultChannels()
        let tasks: [JSONValue] = shown.compactMap { row in
            // A row deleted between the two reads is left out.
            guard let t = wholeByID[row.task.id] else { return nil }
            func again(_ o: Occurrence) -> Occurrence { t.occurrence(at: t.isRecurring ? o.recurrenceID : t.anchor) }
            var value = TaskJSON.task(t, now: now, defaultChannels: channels, current: row.current.map { $0.map(again) })
            if t.isRecurring, let o = row.occurrence, case .object(var f) = value {
                f["next"] = TaskJSON.occurrence(again(o), now: now)
                value = .object(f)
            }
            return value
        }
        return ["tasks": .array(tasks), "count": .count(rows.count), "truncated": .bool(rows.count > limit)]
    }

    func agenda(_ params: Params) async throws -> JSONValue {
        let from = try boundary(try params.requiredString("from"), param: "from")
        let to = try boundary(try params.requiredString("to"), param: "to")
        guard to > from else { throw RPCError.invalidParam("to", "must be after from") }
        guard to.timeIntervalSince(from) <= 3 * 366 * 86_400 else { throw RPCError.invalidParam("to", "the window is at most 3 years") }
        let category = params.string("category")?.lowercased()
        let now = self.now
        let (items, indexed) = try await database.read { db in try TaskItem.inWindow(db, from: from, to: to) }
        var occurrences: [Occurrence] = []
        var starts: [Date] = []
        for t in items where category == nil || t.category == category {
            let found = indexed[t.id].map { $0.map { t.occurrence(at: $0) } } ?? t.occurrences(from: from, to: to)
            for o in found {
                if let at = o.sortInstant(), at >= from, at < to {
                    occurrences.append(o)
                    starts.append(at)
                }
            }
        }
        // Positions are sorted, not occurrences (each holds its whole item).
        let order = occurrences.indices.sorted { i, j in
            starts[i] != starts[j] ? starts[i] < starts[j] : occurrences[i].title < occurrences[j].title
        }
        return ["occurrences": .array(order.map { TaskJSON.occurrence(occurrences[$0], now: now) })]
    }

    func categoriesList() async throws -> JSONValue {
        let categories = try await database.read { db -> [JSONValue] in
            try Row.fetchAll(db, sql: """
                SELECT c.name, c.builtin, (SELECT COUNT(*) FROM tasks_items t WHERE t.category = c.name AND t.deleted_at IS NULL) AS n
                FROM tasks_categories c ORDER BY c.builtin DESC, c.name
                """).map { ["name": .string($0["name"]), "builtin": .bool($0["builtin"]), "tasks": .count($0["n"])] }
        }
        return ["categories": .array(categories)]
    }

    func categoriesAdd(_ params: Params) async throws -> JSONValue {
        let raw = try params.requiredString("name")
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty, name.count <= 40, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw RPCError.invalidParam("name", "'\(raw)' is not a category name (letters, digits, - and _, up to 40)")
        }
        try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM tasks_categories WHERE name = ?", arguments: [name]) == true {
                throw TasksError.categoryExists(name)
            }
            try db.execute(sql: "INSERT INTO tasks_categories(name, builtin) VALUES (?, 0)", arguments: [name])
        }
        return ["name": .string(name)]
    }

    func categoriesRemove(_ params: Params) async throws -> JSONValue {
        let name = try params.requiredString("name").lowercased()
        try await database.write { db in
            guard let builtin = try Bool.fetchOne(db, sql: "SELECT builtin FROM tasks_categories WHERE name = ?", arguments: [name]) else {
                throw RPCError.notFound("category '\(name)'", data: ["category": .string(name)])
            }
            if builtin { throw TasksError.builtinCategory(name) }
            let used = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tasks_items WHERE category = ? AND deleted_at IS NULL", arguments: [name]) ?? 0
            if used > 0 { throw TasksError.categoryInUse(name, tasks: used) }
            try db.execute(sql: "DELETE FROM tasks_categories WHERE name = ?", arguments: [name])
        }
        return ["removed": .string(name)]
    }
}
