import PluginKit

/// The EASA column sums as named in results (`*_min` durations, plain counts).
struct ColumnTotals: Sendable, Equatable {
    static let names: [String] =
        ["flights", "fstd_sessions"] + TimeColumn.allCases.map(\.column) + CountColumn.allCases.map(\.name) + ["fstd_min"]

    var values: [String: Int] = [:]

    subscript(_ name: String) -> Int {
        get { values[name] ?? 0 }
        set { values[name] = newValue }
    }

    mutating func add(_ e: Entry) {
        switch e.kind {
        case .flight:
            self["flights"] += 1
            for c in TimeColumn.allCases { self[c.column] += e[c] }
            for c in CountColumn.allCases { self[c.name] += e[c] }
        case .fstd:
            self["fstd_sessions"] += 1
            self["fstd_min"] += e[.total]
        }
    }

    static func + (a: ColumnTotals, b: ColumnTotals) -> ColumnTotals {
        var r = a
        for (k, v) in b.values { r[k] += v }
        return r
    }

    /// SELECT expressions producing `names` in order, over `TotalsReport.source` aliased `e`.
    static let sqlSums: String = {
        var parts = [
            "COALESCE(SUM(CASE WHEN e.kind = 'flight' THEN e.entries ELSE 0 END), 0)",
            "COALESCE(SUM(CASE WHEN e.kind = 'fstd' THEN e.entries ELSE 0 END), 0)",
        ]
        for c in TimeColumn.allCases {
            parts.append(
                c == .total
                    ? "COALESCE(SUM(CASE WHEN e.kind = 'flight' THEN e.total_min ELSE 0 END), 0)"
                    : "COALESCE(SUM(e.\(c.column)), 0)")
        }
        for c in CountColumn.allCases { parts.append("COALESCE(SUM(e.\(c.name)), 0)") }
        parts.append("COALESCE(SUM(CASE WHEN e.kind = 'fstd' THEN e.total_min ELSE 0 END), 0)")
        return parts.joined(separator: ", ")
    }()

    init() {}

    init(row: Row, offset: Int = 0) {
        for (i, name) in ColumnTotals.names.enumerated() { values[name] = row[offset + i] }
    }

    static func loadStarting(_ db: Database) throws -> ColumnTotals {
        var t = ColumnTotals()
        for row in try Row.fetchAll(db, sql: "SELECT column, value FROM logbook_starting_totals") {
            t[row["column"] as String] = row["value"]
        }
        return t
    }
}

enum TotalsReport {
    static let groupings = ["aircraft", "type", "class", "function", "year", "month"]

    /// Entries of [from, to] as rows of (month, reg_key, kind, entries, columns…): whole months
    /// from `logbook_month_totals`, the partial months at either end from the entries themselves.
    static func source(from: Day?, to: Day?) -> (sql: String, arguments: StatementArguments) {
        let fromMonth: String
        let toMonth: String
        if let from {
            let c = from.components
            fromMonth = c.day == 1 ? String(from.description.prefix(7)) : String(from.firstOfMonth.adding(months: 1).description.prefix(7))
        } else {
            fromMonth = "0000-00"
        }
        if let to {
            let c = to.components
            toMonth =
                c.day == Day.daysIn(year: c.year, month: c.month)
                ? String(to.description.prefix(7)) : String(to.firstOfMonth.adding(months: -1).description.prefix(7))
        } else {
            toMonth = "9999-99"
        }
        let columns = MonthTotals.columns.joined(separator: ", ")
        let raw =
            "SELECT substr(date, 1, 7), \(MonthTotals.key("logbook_entries")), kind, 1, \(columns) FROM logbook_entries WHERE deleted_at IS NULL"
        // The partial month at each end as its own index range (an OR of the two made SQLite scan
        // the whole date index); each is empty when the period has no end there.
        let sql = """
            SELECT month, reg_key, kind, entries, \(columns) FROM logbook_month_totals WHERE month >= ?5 AND month <= ?6
            UNION ALL \(raw) AND date >= ?1 AND date < ?3 AND date <= ?2
            UNION ALL \(raw) AND date > ?4 AND date <= ?2 AND date >= ?1
            """
        let lower = from?.description ?? "0000-01-01"
        let upper = to?.description ?? "9999-12-31"
        if fromMonth > toMonth {
            // No whole month inside the period: the entries alone.
            return (
                "SELECT month, reg_key, kind, entries, \(columns) FROM logbook_month_totals WHERE 0 UNION ALL \(raw) AND date >= ? AND date <= ?",
                [lower, upper]
            )
        }
        return (sql, [lower, upper, fromMonth + "-01", toMonth + "-31", fromMonth, toMonth])
    }

    /// Column sums of the entries dated within [from, to].
    static func sums(_ db: Database, from: Day?, to: Day?) throws -> ColumnTotals {
        let (source, arguments) = source(from: from, to: to)
        return ColumnTotals(row: try Row.fetchOne(db, sql: "SELECT \(ColumnTotals.sqlSums) FROM (\(source)) e", arguments: arguments)!)
    }

    static func build(_ db: Database, from: Day?, to: Day?, groupBy: String?) throws -> TotalsResult {
        let (source, arguments) = source(from: from, to: to)
        let period = try sums(db, from: from, to: to)
        let starting = try ColumnTotals.loadStarting(db)
        var groups: [TotalsGroup] = []
        if let groupBy {
            if groupBy == "function" {
                groups = TimeColumn.functions.map { c in TotalsGroup(key: c.name, minutes: period[c.column], totals: nil) }
            } else {
                let key: String =
                    switch groupBy {
                    case "aircraft": "e.reg_key"
                    case "type": "COALESCE(a.type_designator, a.model, CASE WHEN e.kind = 'fstd' THEN 'FSTD' END, 'unknown')"
                    case "class": "COALESCE(a.class_rating, CASE WHEN e.kind = 'fstd' THEN 'FSTD' WHEN a.engine = 'me' THEN 'MEP' ELSE 'SEP' END)"
                    case "year": "substr(e.month, 1, 4)"
                    default: "e.month"
                    }
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(key) AS group_key, \(ColumnTotals.sqlSums) FROM (\(source)) e
                        LEFT JOIN logbook_aircraft a ON a.registration = e.reg_key
                        GROUP BY group_key HAVING SUM(e.entries) > 0 ORDER BY group_key
                        """, arguments: arguments)
                groups = rows.map { row in TotalsGroup(key: row["group_key"] ?? "", minutes: nil, totals: ColumnTotals(row: row, offset: 1)) }
            }
        }
        // Starting totals belong before the first entry: they join the grand total unless the
        // period starts later than the logbook.
        return TotalsResult(
            from: from, to: to, period: period, starting: starting, grandTotal: from == nil ? period + starting : nil, groupBy: groupBy,
            groups: groups)
    }

    struct Page {
        var number: Int
        var count: Int
        var entries: [Entry]
        var thisPage: ColumnTotals
        var broughtForward: ColumnTotals
        var total: ColumnTotals
    }

    /// One page (the last when `number` is nil) of `pageSize` lines over [from, to] in logbook
    /// order, read without decoding the other pages: the lines before it are summed in SQL.
    static func page(_ db: Database, from: Day?, to: Day?, pageSize: Int, number: Int?, starting: ColumnTotals) throws -> Page {
        let range = "deleted_at IS NULL AND date >= ? AND date <= ?"
        let bounds: [any DatabaseValueConvertible] = [from?.description ?? "0000-01-01", to?.description ?? "9999-12-31"]
        let order = "ORDER BY date, COALESCE(out_at, 0), id"
        let lines = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM logbook_entries WHERE \(range)", arguments: StatementArguments(bounds)) ?? 0
        let count = max(1, (lines + pageSize - 1) / pageSize)
        let index = (number ?? count) - 1
        guard (0..<count).contains(index) else { throw LogbookParams.page.invalid("must be between 1 and \(count)") }
        let before = ColumnTotals(
            row: try Row.fetchOne(
                db, sql: "SELECT \(ColumnTotals.sqlSums) FROM (SELECT *, 1 AS entries FROM logbook_entries WHERE \(range) \(order) LIMIT ?) e",
                arguments: StatementArguments(bounds + [index * pageSize]))!)
        let entries = try Row.fetchAll(
            db, sql: "SELECT \(Entry.selection) FROM logbook_entries WHERE \(range) \(order) LIMIT ? OFFSET ?",
            arguments: StatementArguments(bounds + [pageSize, index * pageSize])
        ).map(Entry.init(row:))
        var thisPage = ColumnTotals()
        entries.forEach { thisPage.add($0) }
        let forward = starting + before
        return Page(number: index + 1, count: count, entries: entries, thisPage: thisPage, broughtForward: forward, total: forward + thisPage)
    }

    /// Page totals as on a paper logbook: this page, brought forward from earlier pages (starting
    /// totals included), and the total to date.
    static func pages(entries: [Entry], pageSize: Int, starting: ColumnTotals) -> [(
        entries: ArraySlice<Entry>, thisPage: ColumnTotals, broughtForward: ColumnTotals, total: ColumnTotals
    )] {
        var result: [(ArraySlice<Entry>, ColumnTotals, ColumnTotals, ColumnTotals)] = []
        var running = starting
        var index = 0
        repeat {
            let slice = entries[index..<min(index + pageSize, entries.count)]
            var page = ColumnTotals()
            for e in slice { page.add(e) }
            let forward = running
            running = running + page
            result.append((slice, page, forward, running))
            index += pageSize
        } while index < entries.count
        return result
    }
}
