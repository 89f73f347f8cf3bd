import PluginKit

/// The JSON Schemas of the logbook's results. Column lists come from the column enums, so a new
/// column joins its schema by being declared.
enum LogbookSchemas {
    static let minutes = JSONSchema.integer.described("minutes")

    static var timeColumns: [(String, JSONSchema)] { TimeColumn.allCases.map { ($0.column, minutes) } }
    static var countColumns: [(String, JSONSchema)] { CountColumn.allCases.map { ($0.name, JSONSchema.integer) } }

    private static func entry(_ kind: String, _ specific: [(String, JSONSchema)]) -> JSONSchema {
        let common: [(String, JSONSchema)] = [
            ("id", JSONSchema.integer.nullable.described("null in an import's dry-run sample")), ("kind", .constant(.string(kind))),
            ("date", .date), ("remarks", .string), ("deleted", .boolean),
        ]
        return .object(ordered: common + timeColumns + specific)
    }

    static let flight = entry(
        "flight",
        [
            ("dep", JSONSchema.string.nullable), ("arr", JSONSchema.string.nullable), ("out", JSONSchema.dateTime.nullable),
            ("off", JSONSchema.dateTime.nullable), ("on", JSONSchema.dateTime.nullable), ("in", JSONSchema.dateTime.nullable),
            ("aircraft", JSONSchema.string.nullable.described("registration")), ("pic_name", JSONSchema.string.nullable),
            ("duty_start", JSONSchema.dateTime.nullable), ("duty_end", JSONSchema.dateTime.nullable),
        ] + countColumns)
    static let fstd = entry("fstd", [("fstd_type", JSONSchema.string.nullable), ("fstd_qualification", JSONSchema.string.nullable)])
    static let anyEntry = JSONSchema.anyOf([flight, fstd])

    static let page = JSONSchema.object([
        "entries": .array(anyEntry), "total_count": .integer, "limit": .integer, "offset": .integer,
    ])
}
