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

    static let certificate = JSONSchema.object([
        "id": .integer, "kind": .string, "name": .string, "medical_class": JSONSchema.string.nullable,
        "examination_date": JSONSchema.date.nullable, "issue_date": JSONSchema.date.nullable, "remarks": .string,
        "valid_until": JSONSchema.date.nullable, "status": validity, "days_left": JSONSchema.integer.nullable,
        "single_pilot_cat_passengers?": .boolean, "computed_valid_until?": JSONSchema.date.nullable, "expiry_overridden?": .boolean,
        "age_at_examination?": JSONSchema.integer.nullable, "rule?": JSONSchema.string.nullable, "expiry_date?": JSONSchema.date.nullable,
    ])
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

}
