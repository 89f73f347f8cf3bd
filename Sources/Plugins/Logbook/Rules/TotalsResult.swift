import PluginKit

extension ColumnTotals: Encodable, ResultDescribing {
    /// Every column by its name (`flights`, `total_min`, …), zero when nothing was logged in it.
    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: ResultKey.self)
        try encodeColumns(into: &o)
    }

    func encodeColumns(into o: inout KeyedEncodingContainer<ResultKey>) throws {
        for name in ColumnTotals.names { try o.encode(self[name], forKey: ResultKey(stringValue: name)) }
    }

    /// Column 4–13 totals: entries counted, minutes per time column, takeoffs, landings, approaches.
    static let resultSchema = JSONSchema.object(
        ordered: ColumnTotals.names.map { ($0, $0.hasSuffix("_min") ? .minutes : .integer) })
}

/// One group of `logbook.totals group_by=…`: a function's minutes, or every column of an
/// aircraft, type, class, year or month.
struct TotalsGroup: Encodable, Sendable, ResultDescribing {
    let key: String
    let minutes: Int?
    let totals: ColumnTotals?

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: ResultKey.self)
        try o.encode(key, forKey: ResultKey(stringValue: "key"))
        if let minutes { try o.encode(minutes, forKey: ResultKey(stringValue: "minutes")) }
        try totals?.encodeColumns(into: &o)
    }

    static let resultSchema = JSONSchema.anyOf([
        .object(["key": .string, "minutes": .minutes]).described("group_by=function"),
        ColumnTotals.resultSchema.adding(["key": .string]),
    ])
}

/// A paper page's totals (`page_size`): this page, brought forward, and the total to date.
struct TotalsPage: ResultObject, Sendable {
    let page: TotalsReport.Page

    var firstDate: Day? { page.entries.first?.date }
    var lastDate: Day? { page.entries.last?.date }

    static let members = ResultMembers<Self>(
        .field("page", \.page.number), .field("pages", \.page.count), .field("lines", \.page.entries.count),
        .field("first_date", \.firstDate), .field("last_date", \.lastDate), .field("this_page", \.page.thisPage),
        .field("brought_forward", \.page.broughtForward), .field("total", \.page.total))
}

/// `logbook.totals`.
struct TotalsResult: ResultObject, CallResult {
    let from: Day?
    let to: Day?
    let period: ColumnTotals
    let starting: ColumnTotals
    /// The period and the starting totals, when the period starts with the logbook.
    let grandTotal: ColumnTotals?
    let groupBy: String?
    let groups: [TotalsGroup]
    var page: TotalsPage?

    var groupsWhenGrouped: [TotalsGroup]? { groupBy == nil ? nil : groups }

    static let members = ResultMembers<Self>(
        .field("from_date", \.from), .field("to_date", \.to), .field("period", \.period), .field("starting", \.starting),
        .field("grand_total", \.grandTotal, "null when the period starts after the logbook does"), .omittedWhenNil("group_by", \.groupBy),
        .omittedWhenNil("groups", \.groupsWhenGrouped), .omittedWhenNil("page", \.page))
}

/// `logbook.totals.starting.set`.
struct StartingTotals: ResultObject, CallResult {
    let starting: ColumnTotals

    static let members = ResultMembers<Self>(.field("starting", \.starting))
}
