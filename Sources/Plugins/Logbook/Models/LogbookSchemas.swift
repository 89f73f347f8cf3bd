import PluginKit

/// The JSON Schemas of the logbook's results. Column lists come from the column enums, so a new
/// column joins its schema by being declared.
enum LogbookSchemas {
    static let minutes = JSONSchema.integer.described("minutes")
    static let validity = JSONSchema.enumeration(ValidityStatus.self)

    static var timeColumns: [(String, JSONSchema)] { TimeColumn.allCases.map { ($0.column, minutes) } }
    static var countColumns: [(String, JSONSchema)] { CountColumn.allCases.map { ($0.name, JSONSchema.integer) } }

    /// Column 4–13 totals: entries counted, minutes per time column, takeoffs, landings, approaches.
    static let totals = JSONSchema.object(ordered: ColumnTotals.names.map { ($0, $0.hasSuffix("_min") ? minutes : .integer) })

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
    static let deleted = JSONSchema.object([
        "deleted": .integer, "undo": JSONSchema.string.described("the command that restores it"),
    ])
    static let purged = JSONSchema.object(["purged": .integer])

    static let profile = JSONSchema.object([
        "name": JSONSchema.string.nullable, "address": JSONSchema.string.nullable, "date_of_birth": JSONSchema.date.nullable,
        "licences": .array(.any("a licence as given")), "ratings": .array(.any("a rating as given")), "instrument_rating": .boolean,
        "default_function": .string, "night_criterion": .enumeration(NightCriterion.self),
    ])

    static let aircraft = JSONSchema.object([
        "registration": .string, "make": JSONSchema.string.nullable, "model": JSONSchema.string.nullable,
        "variant": JSONSchema.string.nullable, "type_designator": JSONSchema.string.nullable, "engine": .string, "operation": .string,
        "category": .string, "class_rating": JSONSchema.string.nullable, "currency_group": .string,
    ])
    static let aircraftList = JSONSchema.object(["aircraft": .array(aircraft.adding(["flights": .integer, "total_min": minutes]))])
    static let aircraftDeleted = JSONSchema.object(["deleted": JSONSchema.string.described("the registration")])

    static let certificate = JSONSchema.object([
        "id": .integer, "kind": .string, "name": .string, "medical_class": JSONSchema.string.nullable,
        "examination_date": JSONSchema.date.nullable, "issue_date": JSONSchema.date.nullable, "remarks": .string,
        "valid_until": JSONSchema.date.nullable, "status": validity, "days_left": JSONSchema.integer.nullable,
        "single_pilot_cat_passengers?": .boolean, "computed_valid_until?": JSONSchema.date.nullable, "expiry_overridden?": .boolean,
        "age_at_examination?": JSONSchema.integer.nullable, "rule?": JSONSchema.string.nullable, "expiry_date?": JSONSchema.date.nullable,
    ])
    static let certificateDeleted = JSONSchema.object(["deleted": .integer])
    static let certificates = JSONSchema.object(["at": .date, "certificates": .array(certificate)])
    static let medical = JSONSchema.object([
        "at": .date, "date_of_birth": JSONSchema.date.nullable, "medicals": .array(certificate),
        "current": certificate.nullable.described("the newest medical that has not lapsed"),
    ])

    static let airport = JSONSchema.object([
        "icao": .string, "iata": JSONSchema.string.nullable, "name": .string, "city": JSONSchema.string.nullable,
        "country": JSONSchema.string.nullable, "latitude": .number, "longitude": .number, "elevation_ft": .integer, "tz": .string,
        "source": .enumeration(["bundled", "user"]),
    ])
    static let airports = JSONSchema.object(["airports": .array(airport)])

    static let totalsReport = JSONSchema.object([
        "from_date": JSONSchema.date.nullable, "to_date": JSONSchema.date.nullable, "period": totals, "starting": totals,
        "grand_total": totals.nullable.described("null when the period starts after the logbook does"),
        "group_by?": .string,
        "groups?": .array(
            .anyOf([
                .object(["key": .string, "minutes": minutes]).described("group_by=function"),
                totals.adding(["key": .string]),
            ])),
        "page?": .object([
            "page": .integer, "pages": .integer, "lines": .integer, "first_date": JSONSchema.date.nullable,
            "last_date": JSONSchema.date.nullable, "this_page": totals, "brought_forward": totals, "total": totals,
        ]),
    ])
    static let starting = JSONSchema.object(["starting": totals])

    static let limits = JSONSchema.object([
        "at": .date,
        "items": .array(
            .object([
                "id": .string, "limit": .string, "reference": .string, "from": .date, "to": .date, "used_min": minutes, "limit_min": minutes,
                "remaining_min": minutes, "status": .enumeration(["ok", "approaching", "exceeded", "not_recorded"]),
            ])),
    ])
    static let currency = JSONSchema.object([
        "at": .date,
        "items": .array(
            .object([
                "rule": .string, "group": .string, "reference": .string, "requirement": .string, "status": validity,
                "valid_until": JSONSchema.date.nullable, "lapses_on": JSONSchema.date.nullable, "days_left": JSONSchema.integer.nullable,
                "window": JSONSchema.map(.integer).described("what counts toward the rule inside its window, and what it requires"),
            ])),
    ])
    static let night = JSONSchema.object([
        "dep": .string, "arr": .string, "criterion": .enumeration(NightCriterion.self), "block_min": minutes, "night_min": minutes,
        "night_takeoff": .boolean, "night_landing": .boolean,
    ])

    static let imported = JSONSchema.object([
        "format": .enumeration(ImportFormat.self), "path": .string, "dry_run": .boolean, "rows_read": .integer, "duplicates": .integer,
        "imported": .integer, "bad_rows": .array(.object(["line": .integer, "field": .string, "reason": .string])).described("the first 1 000"),
        "bad_row_count": .integer, "aircraft_created": .array(.string), "would_import?": .integer,
        "sample?": .array(anyEntry).described("a dry run's first entries"),
    ])
    static let exported = JSONSchema.object([
        "path": .string, "format": .enumeration(["csv", "pdf"]), "entries": .integer,
        "pages?": JSONSchema.integer.described("the logbook's pages (a PDF with flights also has a page of charts after them)"),
    ])
    static let chart = JSONSchema.object([
        "path": .string, "kind": .enumeration(LogbookChart.names), "format": .enumeration(["png", "pdf"]), "bytes": .integer,
        "bars": JSONSchema.integer.described("months, years or aircraft shown"),
        "total_min": minutes.described("the first series' total (flight time, or night time)"),
    ])
    static let mailed = JSONSchema.object(["to": .string, "entries": .integer, "pages": .integer])
}
