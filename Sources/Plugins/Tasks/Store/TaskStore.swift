import Foundation
import GRDB
import PluginKit

/// Rows ⇄ `TaskItem`. Lists are small JSON arrays in their columns.
extension TaskItem {
    /// The stored columns in their SELECT order, then the index range. Rows are read by
    /// position: reading them by name lowercased every column name on every row, a quarter of a
    /// list's time (perf, tasks-bench).
    enum Column: Int, CaseIterable {
        case id, kind, title, notes, category, tags, priority, parent, location, url, status, completedAt, created, modified, tz
        case allDay, start, due, end, durationMin, rrule, exdates, rdates, repeatFromCompletion, reminders, channels, overrides
        case extra, source, sequence, deletedAt
        case indexedFrom, indexedUntil

        /// The SQL name: `completedAt` → `completed_at`.
        var name: String {
            String(String(describing: self).flatMap { $0.isUppercase ? ["_", Character($0.lowercased())] : [$0] })
        }

        /// What a placement read puts in this column's place: nothing that places an item in time
        /// or shows in an agenda row is blanked. Also what a migration reads for a column the
        /// table does not have yet (`fetchAllInMigration`).
        var blank: String? {
            switch self {
            case .notes: "''"
            case .tags, .reminders, .extra: "'[]'"
            case .parent, .url, .completedAt, .channels: "NULL"
            default: nil
            }
        }
    }

    /// The columns a save writes.
    static let columns = Column.allCases.filter { $0.rawValue <= Column.deletedAt.rawValue }.map(\.name).joined(separator: ", ")

    /// What a read selects: the stored fields and the index range, in `Column` order.
    static let selected = Column.allCases.map(\.name).joined(separator: ", ")

    /// A placement read: the same columns with notes, tags, reminders and the other fields that
    /// only a whole task shows left blank (reading the reminders' JSON of every candidate was
    /// a large part of a list). An item read so is for choosing and sorting: never saved or shown
    /// whole.
    static let selectedForPlacement = Column.allCases.map { c in c.blank.map { "\($0) AS \(c.name)" } ?? c.name }.joined(separator: ", ")

    /// Every item, read in a migration: a column a later version adds is not in the table yet,
    /// so it reads as its `blank` (a new column needs one unless it is optional).
    static func fetchAllInMigration(_ db: Database) throws -> [TaskItem] {
        let existing = Set(try db.columns(in: "tasks_items").map(\.name))
        let columns = Column.allCases.map { c in existing.contains(c.name) ? c.name : "\(c.blank ?? "NULL") AS \(c.name)" }
        return try Array(Row.fetchCursor(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM tasks_items").map(TaskItem.init(row:)))
    }

    /// A row selected with `selected`.
    init(row: Row) {
        // Concrete types, so GRDB reads each column straight from the statement (a generic
        // helper looked up type metadata for every column of every row).
        func text(_ c: Column) -> String { row[c.rawValue] }
        func optionalText(_ c: Column) -> String? { row[c.rawValue] }
        func number(_ c: Column) -> Double { row[c.rawValue] }
        func optionalNumber(_ c: Column) -> Double? { row[c.rawValue] }
        func integer(_ c: Column) -> Int { row[c.rawValue] }
        func optionalInteger(_ c: Column) -> Int? { row[c.rawValue] }
        func flag(_ c: Column) -> Bool { row[c.rawValue] }
        func strings(_ c: Column) -> [String] { Self.strings(optionalText(c)) }
        func wall(_ c: Column) -> WallTime? { optionalText(c).flatMap { WallTime($0) } }
        func instant(_ c: Column) -> Date? { optionalNumber(c).map(Date.init(timeIntervalSince1970:)) }
        self.init(
            id: text(.id), kind: TaskKind(rawValue: text(.kind)) ?? .todo, title: text(.title),
            created: Date(timeIntervalSince1970: number(.created)), modified: Date(timeIntervalSince1970: number(.modified)),
            tz: text(.tz))
        notes = text(.notes)
        category = optionalText(.category)
        tags = strings(.tags)
        priority = integer(.priority)
        parent = optionalText(.parent)
        location = optionalText(.location)
        url = optionalText(.url)
        status = TaskStatus(rawValue: text(.status)) ?? .needsAction
        completedAt = instant(.completedAt)
        allDay = flag(.allDay)
        start = wall(.start)
        due = wall(.due)
        end = wall(.end)
        durationMin = optionalInteger(.durationMin)
        rrule = optionalText(.rrule)
        exdates = strings(.exdates).compactMap { WallTime($0) }
        rdates = strings(.rdates).compactMap { WallTime($0) }
        repeatFromCompletion = flag(.repeatFromCompletion)
        reminders = Self.reminders(optionalText(.reminders))
        channels = optionalText(.channels).map { Self.strings($0) }
        overrides = Self.decode([String: OccurrenceOverride].self, optionalText(.overrides)) ?? [:]
        extra = strings(.extra)
        source = text(.source)
        sequence = integer(.sequence)
        deletedAt = instant(.deletedAt)
        if let from = optionalNumber(.indexedFrom), let until = optionalNumber(.indexedUntil) { indexed = (from, until) }
    }

    /// The list columns are read with the wire parser: Foundation's JSONDecoder on every row was a
    /// fifth of a list's time (perf, tasks-bench).
    private static func strings(_ text: String?) -> [String] {
        guard let text, text != "[]", let value = try? JSONValue.decode(text) else { return [] }
        return value.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private static func reminders(_ text: String?) -> [Reminder] {
        guard let text, text != "[]", let value = try? JSONValue.decode(text) else { return [] }
        return value.arrayValue?.compactMap { item -> Reminder? in
            guard let o = item.objectValue else { return nil }
            if let at = o["at"]?.doubleValue { return Reminder(at: Date(timeIntervalSince1970: at)) }
            return Reminder(beforeMin: o["before_min"]?.intValue.map { Int($0) }, of: o["of"]?.stringValue.flatMap(Reminder.Anchor.init(rawValue:)))
        } ?? []
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String?) -> T? {
        // Most rows have empty lists; skip the decoder for them.
        guard let text, text != "[]", text != "{}", let data = text.data(using: .utf8) else { return nil }
        return try? JSONDecoder.tasks.decode(T.self, from: data)
    }

    private static func encode(_ value: some Encodable) -> String {
        (try? JSONEncoder.tasks.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "null"
    }

    /// The window columns: the first instant and the last (nil when the series never ends).
    var window: (first: Double?, last: Double?) {
        guard let anchor else { return (nil, nil) }
        let z = zone
        let first = z.instant(anchor).timeIntervalSince1970
        func lastInstant(_ wall: WallTime) -> Double {
            let o = occurrence(at: wall)
            let ends = [o.start, o.due, o.end].compactMap { $0 }.max() ?? wall
            return z.instant(anchor.isDate ? ends.adding(days: 1) : ends).timeIntervalSince1970
        }
        guard isRecurring else { return (first, lastInstant(anchor)) }
        let rule = rrule.flatMap { try? RecurrenceRule($0) }
        if let rule, rule.part("COUNT") == nil, rule.part("UNTIL") == nil { return (first, nil) }
        var lastWall = series?.occurrences(before: WallTime(year: 9999, month: 1, day: 1)).last ?? anchor
        for key in overrides.keys { if let w = WallTime(key), w > lastWall { lastWall = w } }
        var last = lastInstant(lastWall)
        for (key, o) in overrides where o.start != nil {
            if let w = WallTime(key) { last = max(last, lastInstant(w)) }
        }
        return (first, last + 86_400 * 2)
    }

    /// How far the occurrence index reaches: back from now (older windows are expanded on
    /// demand) and ahead of now; and at most this many occurrences per series.
    static let indexBackDays = 90.0, indexAheadDays = 400.0, indexLimit = 5_000

    /// Rewrites this series' rows in the occurrence index; returns the covered range.
    private func index(_ db: Database) throws -> (from: Double, until: Double)? {
        // Cached statements: an import saves tasks by the hundred thousand in one transaction.
        try db.cachedStatement(sql: "DELETE FROM tasks_occurrences WHERE task_id = ?").execute(arguments: [id])
        guard isRecurring, deletedAt == nil, let anchor, let series else { return nil }
        let z = zone
        // The real clock: the range only decides which windows are read from the index; any
        // other window is expanded as before, so a test clock elsewhere cannot make it wrong.
        let now = Date().timeIntervalSince1970
        let anchorAt = z.instant(anchor).timeIntervalSince1970
        let from = max(anchorAt, now - Self.indexBackDays * 86_400)
        var until = now + Self.indexAheadDays * 86_400
        var fromWall = z.wall(Date(timeIntervalSince1970: from)).adding(days: -1)
        var untilWall = z.wall(Date(timeIntervalSince1970: until)).adding(days: 1)
        if anchor.isDate {
            fromWall = fromWall.asDate
            untilWall = untilWall.asDate
        }
        let walls = series.occurrences(from: fromWall, before: untilWall, limit: Self.indexLimit)
        if walls.count >= Self.indexLimit, let last = walls.last { until = z.instant(last).timeIntervalSince1970 }
        var seen: Set<String> = []
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO tasks_occurrences(task_id, rid, start_at) VALUES (?, ?, ?)")
        for wall in walls {
            seen.insert(wall.text)
            if let at = occurrence(at: wall).sortInstant() { try statement.execute(arguments: [id, wall.text, at.timeIntervalSince1970]) }
        }
        for key in overrides.keys where !seen.contains(key) {
            guard let wall = WallTime(key), wall >= fromWall, wall < untilWall, let at = occurrence(at: wall).sortInstant() else { continue }
            try statement.execute(arguments: [id, key, at.timeIntervalSince1970])
        }
        // Before the anchor there is nothing, so a series that starts inside the range covers all before it.
        return (from <= anchorAt ? -Double.greatestFiniteMagnitude : from, until)
    }

    func save(_ db: Database) throws {
        let (first, last) = window
        let covered = try index(db)
        let placed = placement
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO tasks_items(\(Self.columns), first_at, last_at, recurring, indexed_from, indexed_until,
                    sort_at, due_at, overdue_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    ?, ?, ?)
                """
        ).execute(
            arguments: [
                id, kind.rawValue, title, notes, category, Self.encode(tags), priority, parent, location, url, status.rawValue,
                completedAt?.timeIntervalSince1970, created.timeIntervalSince1970, modified.timeIntervalSince1970, tz, allDay,
                start?.text, due?.text, end?.text, durationMin, rrule, Self.encode(exdates.map(\.text)),
                Self.encode(rdates.map(\.text)), repeatFromCompletion, Self.encode(reminders), channels.map { Self.encode($0) },
                Self.encode(overrides), Self.encode(extra), source, sequence, deletedAt?.timeIntervalSince1970, first, last,
                isRecurring, covered?.from, covered?.until, placed.sortAt, placed.dueAt, placed.overdueAt,
            ])
    }

    static func find(_ db: Database, _ id: String, includeDeleted: Bool = false) throws -> TaskItem? {
        let sql = "SELECT \(selected) FROM tasks_items WHERE id = ?" + (includeDeleted ? "" : " AND deleted_at IS NULL")
        return try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [id]).map(TaskItem.init(row:)).next()
    }

    /// `placementOnly`: see `selectedForPlacement`.
    static func fetch(_ db: Database, where clause: String, _ arguments: StatementArguments = [], placementOnly: Bool = false) throws -> [TaskItem] {
        let columns = placementOnly ? selectedForPlacement : selected
        // A cursor reads each row in place; fetchAll would copy every row first.
        return try Array(
            Row.fetchCursor(db, sql: "SELECT \(columns) FROM tasks_items WHERE \(clause)", arguments: arguments).map(TaskItem.init(row:)))
    }

    /// Whole items by id (any order), read in chunks under SQLite's parameter limit.
    static func fetch(_ db: Database, ids: some Collection<String>, placementOnly: Bool = false) throws -> [TaskItem] {
        var items: [TaskItem] = []
        var rest = ids[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(500)
            rest = rest.dropFirst(chunk.count)
            items += try fetch(
                db, where: "id IN (\(chunk.map { _ in "?" }.joined(separator: ",")))", StatementArguments(Array(chunk)), placementOnly: placementOnly)
        }
        return items
    }

    /// Live items that may have an occurrence in [from, to) (placement reads: enough for agenda
    /// rows), and for repeating items the index covers, the occurrences (RECURRENCE-IDs) the
    /// index has there: those need no expansion. `category` narrows both reads.
    ///
    /// The items and the index are read at once, on two connections that see one state: the
    /// two are independent, and each was half of the agenda's read (tasks-bench).
    static func inWindow(_ database: DatabasePool, from: Date, to: Date, category: String? = nil) async throws -> (
        items: [TaskItem], indexed: [String: [WallTime]]
    ) {
        let f = from.timeIntervalSince1970 - 86_400
        let t = to.timeIntervalSince1970 + 86_400
        let inCategory = category == nil ? "" : " AND category = ?"
        let categoryArgument: StatementArguments = category.map { [$0] } ?? []
        let covered = "recurring = 1 AND indexed_from IS NOT NULL AND indexed_from <= ? AND indexed_until >= ?"
        let (live, rids) = try await database.readsOfOneState(
            { db in
                // One read of every candidate (two, for the covered and the other items, each
                // walked the window's index).
                try fetch(
                    db, where: "deleted_at IS NULL AND first_at < ? AND (last_at IS NULL OR last_at >= ?)\(inCategory)", [t, f] + categoryArgument,
                    placementOnly: true)
            },
            { db in
                var rids: [String: [WallTime]] = [:]
                // The window's range of the start index first, each row then checked against the
                // set of covered items: left to itself, SQLite walked every covered series' whole
                // index by task (the primary key) instead, six times slower (tasks-bench).
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT task_id, rid FROM tasks_occurrences INDEXED BY tasks_occurrences_start
                        WHERE start_at >= ? AND start_at < ? AND task_id IN (
                            SELECT id FROM tasks_items WHERE deleted_at IS NULL AND \(covered)\(inCategory))
                        """,
                    arguments: [f, t, f, t] + categoryArgument)
                while let row = try rows.next() {
                    if let wall = WallTime(row[1] as String) { rids[row[0], default: []].append(wall) }
                }
                return rids
            })
        // A covered item with nothing in the window (a yearly series) is read and left out here.
        return (live.filter { !($0.isRecurring && $0.indexCovers(from, to)) || rids[$0.id] != nil }, rids)
    }
}

extension JSONEncoder {
    static let tasks: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .secondsSince1970
        e.outputFormatting = [.sortedKeys]
        return e
    }()
}

extension JSONDecoder {
    static let tasks: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }()
}
