import Foundation
import GRDB

/// The filters of a `tasks.list` that are plain SQL on `tasks_items` (unqualified column names).
struct ListFilter: Sendable {
    let clause: String
    let arguments: [DatabaseValue]

    /// `status`: `open` (needs-action or in-process), `any`, or one status.
    init(status: String, category: String? = nil, parent: String? = nil, tag: String? = nil, text: String? = nil, minPriority: Int? = nil) {
        var clauses = ["deleted_at IS NULL"]
        var arguments: [DatabaseValue] = []
        if let category {
            clauses.append("category = ?")
            arguments.append(category.databaseValue)
        }
        if let parent {
            clauses.append("parent = ?")
            arguments.append(parent.databaseValue)
        }
        switch status {
        case "open": clauses.append("status IN ('needs-action', 'in-process')")
        case "any": break
        default:
            clauses.append("status = ?")
            arguments.append(status.databaseValue)
        }
        if let tag {
            clauses.append("EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)")
            arguments.append(tag.databaseValue)
        }
        if let text {
            clauses.append("(instr(lower(title), ?) > 0 OR instr(lower(notes), ?) > 0 OR instr(lower(coalesce(location, '')), ?) > 0)")
            arguments += [text.databaseValue, text.databaseValue, text.databaseValue]
        }
        if let minPriority, minPriority > 0 {
            clauses.append("priority BETWEEN 1 AND ?")
            arguments.append(minPriority.databaseValue)
        }
        clause = clauses.joined(separator: " AND ")
        self.arguments = arguments
    }
}

/// One row of a list: the item, the occurrence it shows (a repeating item's RECURRENCE-ID; nil
/// for its standing occurrence, see `TaskItem.standingOccurrence`) and what it sorts by.
struct ListRow: Sendable {
    let id: String
    let occurrence: WallTime?
    let at: Date?
    let priority: Int
    let title: String

    /// The next start or due, then priority (none last), then title.
    static func sortedBefore(_ a: ListRow, _ b: ListRow) -> Bool {
        switch (a.at, b.at) {
        case (let x?, let y?) where x != y: return x < y
        case (nil, _?): return false
        case (_?, nil): return true
        default:
            let pa = a.priority == 0 ? 10 : a.priority
            let pb = b.priority == 0 ? 10 : b.priority
            return pa != pb ? pa < pb : a.title < b.title
        }
    }
}

/// Which items a `tasks.list` `when` shows, and where. What the store can place without expanding
/// anything is chosen, sorted and cut in one query: single items and to-dos by their placement
/// columns (`TaskItem.placement`), repeating items by the occurrence index. A list then reads only
/// the rows it shows; reading every candidate whole was most of its time (tasks-bench). Only the
/// series the index does not cover for the window are read and expanded here.
enum ListSelection {
    case today(from: Date, to: Date, now: Date)
    case upcoming(from: Date, to: Date)
    case overdue(now: Date)
    case all(now: Date)

    /// The first `limit` rows in order, and how many there are in all.
    func place(_ db: Database, _ filter: ListFilter, limit: Int) throws -> (rows: [ListRow], total: Int) {
        var (rows, total) = try placedByTheStore(db, filter, limit: limit)
        let expanded = try placedByExpansion(db, filter)
        guard !expanded.isEmpty else { return (rows, total) }
        rows = Array((rows + expanded).sorted(by: ListRow.sortedBefore).prefix(limit))
        total += expanded.count
        return (rows, total)
    }

    /// The window repeating items are placed by (their first occurrence in it), if any.
    private var window: (from: Double, to: Double)? {
        switch self {
        case .today(let from, let to, _), .upcoming(let from, let to): (from.timeIntervalSince1970, to.timeIntervalSince1970)
        case .overdue, .all: nil
        }
    }

    private func placedByTheStore(_ db: Database, _ filter: ListFilter, limit: Int) throws -> (rows: [ListRow], total: Int) {
        guard let (sql, values) = storeQuery(filter, limit: limit) else { return ([], 0) }
        var total = 0
        var rows: [ListRow] = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(values))
        while let row = try cursor.next() {
            let at: Double? = row[2]
            let rid: String? = row[1]
            rows.append(
                ListRow(
                    id: row[0], occurrence: rid.flatMap { WallTime($0) }, at: at.map(Date.init(timeIntervalSince1970:)), priority: row[3],
                    title: row[4]))
            total = row[5]
        }
        return (rows, total)
    }

    /// The one query that places what the store can place (nil for `all`): rows of id, rid, at,
    /// priority, title and the total.
    func storeQuery(_ filter: ListFilter, limit: Int) -> (sql: String, values: [DatabaseValue])? {
        let order = "ORDER BY at, CASE priority WHEN 0 THEN 10 ELSE priority END, title LIMIT ?"
        var arguments: [DatabaseValue] = []
        let sql: String
        switch self {
        case .all:
            return nil
        case .overdue(let now):
            // A repeating event is never overdue (its overdue_at is NULL), and a repeating to-do
            // is overdue at its standing occurrence: nothing here needs the index.
            sql = """
                SELECT id, NULL AS rid, sort_at AS at, priority, title, count(*) OVER () AS total FROM tasks_items
                WHERE \(filter.clause) AND overdue_at <= ? \(order)
                """
            arguments += filter.arguments
            arguments.append(now.timeIntervalSince1970.databaseValue)
        case .today, .upcoming:
            guard let (from, to) = window else { return nil }
            // A window is answered by the index only where it covers a day either side (moved
            // instances, all-day dates), as `TaskItem.indexCovers` says.
            let covered = "indexed_from <= ? AND indexed_until >= ?"
            let coveredArguments: [DatabaseValue] = [(from - 86_400).databaseValue, (to + 86_400).databaseValue]
            let single: String
            var singleArguments: [DatabaseValue] = [from.databaseValue, to.databaseValue, from.databaseValue, to.databaseValue]
            var standing = ""
            if case .today(_, _, let now) = self {
                // Today also shows every open to-do already overdue, however long ago it was due;
                // a repeating one at its standing occurrence unless it has one today.
                single = "(sort_at >= ? AND sort_at < ?) OR (due_at >= ? AND due_at < ?) OR overdue_at <= ?"
                singleArguments.append(now.timeIntervalSince1970.databaseValue)
                standing = """
                    UNION ALL
                    SELECT id, NULL, sort_at, priority, title FROM tasks_items
                    WHERE \(filter.clause) AND recurring = 1 AND \(covered) AND overdue_at <= ? AND sort_at < ?
                        AND id NOT IN (SELECT task_id FROM hits)
                    """
            } else {
                single = "(sort_at >= ? AND sort_at < ?) OR (due_at >= ? AND due_at < ?)"
            }
            // Three arms, so the single items (most of a store) are not joined with anything:
            // single items, repeating items by their first occurrence in the window, and (today)
            // repeating to-dos without one there. min() makes SQLite take rid from the row with
            // the earliest start (its documented rule for bare columns beside min or max).
            sql = """
                WITH hits AS (SELECT task_id, min(start_at) AS first, rid FROM tasks_occurrences
                              WHERE start_at >= ? AND start_at < ? GROUP BY task_id)
                SELECT id, rid, at, priority, title, count(*) OVER () AS total FROM (
                    SELECT id, NULL AS rid, sort_at AS at, priority, title FROM tasks_items
                    WHERE \(filter.clause) AND recurring = 0 AND (\(single))
                    UNION ALL
                    SELECT id, hits.rid, hits.first, priority, title FROM hits JOIN tasks_items ON id = hits.task_id
                    WHERE \(filter.clause) AND recurring = 1 AND \(covered)
                    \(standing))
                \(order)
                """
            arguments += [from.databaseValue, to.databaseValue]
            arguments += filter.arguments
            arguments += singleArguments
            arguments += filter.arguments
            arguments += coveredArguments
            if case .today(_, _, let now) = self {
                arguments += filter.arguments
                arguments += coveredArguments
                arguments += [now.timeIntervalSince1970.databaseValue, to.databaseValue]
            }
        }
        arguments.append(limit.databaseValue)
        return (sql, arguments)
    }

    /// Rows for what the store cannot place: every item for `all` (a repeating event's current
    /// occurrence depends on the time of asking), and for a window the repeating items the index
    /// does not cover there.
    private func placedByExpansion(_ db: Database, _ filter: ListFilter) throws -> [ListRow] {
        switch self {
        case .overdue:
            return []
        case .all(let now):
            return try TaskItem.fetch(db, where: filter.clause, StatementArguments(filter.arguments), placementOnly: true).map { t in
                let standing = t.standingOccurrence
                let current = standing ?? t.currentOccurrence(now: now)
                return ListRow(
                    id: t.id, occurrence: standing == nil ? current?.recurrenceID : nil,
                    at: current?.sortInstant(), priority: t.priority, title: t.title)
            }
        case .today, .upcoming:
            guard let (from, to) = window else { return [] }
            let items = try TaskItem.fetch(
                db, where: "\(filter.clause) AND recurring = 1 AND first_at < ? AND NOT coalesce(indexed_from <= ? AND indexed_until >= ?, 0)",
                StatementArguments(filter.arguments + [(to + 86_400).databaseValue, (from - 86_400).databaseValue, (to + 86_400).databaseValue]),
                placementOnly: true)
            let (fromDate, toDate) = (Date(timeIntervalSince1970: from), Date(timeIntervalSince1970: to))
            return items.compactMap { t in
                let hits = t.occurrences(from: fromDate, to: toDate).compactMap { o in o.sortInstant().map { (o, $0) } }
                if let (first, at) = hits.min(by: { $0.1 < $1.1 }) {
                    return ListRow(id: t.id, occurrence: first.recurrenceID, at: at, priority: t.priority, title: t.title)
                }
                guard case .today(_, _, let now) = self, let standing = t.standingOccurrence, standing.isOverdue(now: now),
                    let at = standing.sortInstant(), at < toDate
                else { return nil }
                return ListRow(id: t.id, occurrence: nil, at: at, priority: t.priority, title: t.title)
            }
        }
    }
}

/// What tasks-bench runs in the sqlite3 shell beside `tasks.list when=today`: the query that
/// chooses the list's rows, with its values written in, and those rows read whole.
public enum TasksListFloor {
    public static func todaySQL(now: Date, timeZone: TimeZone, limit: Int = 500) -> String {
        let zone = Zone(timeZone)
        let today = zone.wall(now).asDate
        let selection = ListSelection.today(from: zone.instant(today), to: zone.instant(today.adding(days: 1)), now: now)
        guard let (sql, values) = selection.storeQuery(ListFilter(status: "open"), limit: limit) else { return "SELECT 1" }
        // The values are numbers here; each `?` takes the next one.
        var rendered = ""
        var next = values.makeIterator()
        for character in sql {
            guard character == "?" else {
                rendered.append(character)
                continue
            }
            rendered += next.next().map { "\($0)" } ?? "NULL"
        }
        return
            "SELECT t.* FROM (\(rendered)) p JOIN tasks_items t ON t.id = p.id "
            + "ORDER BY p.at, CASE p.priority WHEN 0 THEN 10 ELSE p.priority END, p.title"
    }
}
