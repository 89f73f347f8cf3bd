/// A list of typed rows (jobs, vault entries, notices) is a result as it is, described by its rows.
struct Rows<Row: Encodable & Sendable>: Encodable, CallResult {
    let rows: [Row]
    init(_ rows: [Row]) { self.rows = rows }
    func encode(to encoder: any Encoder) throws { try rows.encode(to: encoder) }
}

extension Rows: ResultDescribing where Row: ResultDescribing {
    static var resultSchema: JSONSchema { .array(Row.resultSchema) }
}

extension Notice: CallResult {}
