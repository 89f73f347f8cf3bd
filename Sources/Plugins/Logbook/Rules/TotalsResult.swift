import PluginKit

/// A member named at run time (the EASA columns' names).
struct ColumnKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension ColumnTotals: Encodable {
    /// Every column by its name (`flights`, `total_min`, …), zero when nothing was logged in it.
    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: ColumnKey.self)
        try encodeColumns(into: &o)
    }

    func encodeColumns(into o: inout KeyedEncodingContainer<ColumnKey>) throws {
        for name in ColumnTotals.names { try o.encode(self[name], forKey: ColumnKey(stringValue: name)) }
    }
}

/// One group of `logbook.totals group_by=…`: a function's minutes, or every column of an
/// aircraft, type, class, year or month.
struct TotalsGroup: Encodable, Sendable {
    let key: String
    let minutes: Int?
    let totals: ColumnTotals?

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: ColumnKey.self)
        try o.encode(key, forKey: ColumnKey(stringValue: "key"))
        if let minutes { try o.encode(minutes, forKey: ColumnKey(stringValue: "minutes")) }
        try totals?.encodeColumns(into: &o)
    }
}

/// A paper page's totals (`page_size`): this page, brought forward, and the total to date.
struct TotalsPage: Encodable, Sendable {
    let page: TotalsReport.Page

    enum CodingKeys: String, CodingKey {
        case page, pages, lines, total
        case firstDate = "first_date"
        case lastDate = "last_date"
        case thisPage = "this_page"
        case broughtForward = "brought_forward"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(page.number, forKey: .page)
        try o.encode(page.count, forKey: .pages)
        try o.encode(page.entries.count, forKey: .lines)
        try o.encode(page.entries.first?.date.description, forKey: .firstDate)
        try o.encode(page.entries.last?.date.description, forKey: .lastDate)
        try o.encode(page.thisPage, forKey: .thisPage)
        try o.encode(page.broughtForward, forKey: .broughtForward)
        try o.encode(page.total, forKey: .total)
    }
}

/// `logbook.totals`.
struct TotalsResult: Encodable, CallResult {
    let from: Day?
    let to: Day?
    let period: ColumnTotals
    let starting: ColumnTotals
    /// The period and the starting totals, when the period starts with the logbook.
    let grandTotal: ColumnTotals?
    let groupBy: String?
    let groups: [TotalsGroup]
    var page: TotalsPage?

    enum CodingKeys: String, CodingKey {
        case period, starting, groups, page
        case fromDate = "from_date"
        case toDate = "to_date"
        case grandTotal = "grand_total"
        case groupBy = "group_by"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(from?.description, forKey: .fromDate)
        try o.encode(to?.description, forKey: .toDate)
        try o.encode(period, forKey: .period)
        try o.encode(starting, forKey: .starting)
        try o.encode(grandTotal, forKey: .grandTotal)
        if let groupBy {
            try o.encode(groups, forKey: .groups)
            try o.encode(groupBy, forKey: .groupBy)
        }
        try o.encodeIfPresent(page, forKey: .page)
    }
}

/// `logbook.totals.starting.set`.
struct StartingTotals: Encodable, CallResult {
    let starting: ColumnTotals
}
