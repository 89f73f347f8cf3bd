import PluginKit

struct Aircraft: Sendable, Equatable {
    var registration: String
    var make: String?
    var model: String?
    var variant: String?
    var typeDesignator: String?
    var engine = "se"
    var operation = "sp"
    var category = "aeroplane"
    var classRating: String?

    /// FCL.060 counts recency per type or class: the class or type rating if known, else the ICAO
    /// type designator, else the model.
    var currencyGroup: String {
        classRating ?? typeDesignator ?? model ?? (engine == "me" ? "MEP" : "SEP")
    }

    var displayModel: String {
        [make, model, variant].compactMap { $0 }.joined(separator: " ")
    }

    init(registration: String) { self.registration = registration }

    init(row: Row) {
        registration = row["registration"]
        make = row["make"]
        model = row["model"]
        variant = row["variant"]
        typeDesignator = row["type_designator"]
        engine = row["engine"]
        operation = row["operation"]
        category = row["category"]
        classRating = row["class_rating"]
    }

    static func normalized(_ registration: String) -> String {
        let t = registration.trimmedFast
        return t.utf8.contains(where: { ($0 >= 97 && $0 <= 122) || $0 >= 128 }) ? t.uppercased() : t
    }

    static func find(_ db: Database, _ registration: String) throws -> Aircraft? {
        try Row.fetchOne(db, sql: "SELECT * FROM logbook_aircraft WHERE registration = ?", arguments: [normalized(registration)])
            .map(Aircraft.init(row:))
    }

    static func all(_ db: Database) throws -> [String: Aircraft] {
        var result: [String: Aircraft] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM logbook_aircraft") {
            let a = Aircraft(row: row)
            result[a.registration] = a
        }
        return result
    }

    func save(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO logbook_aircraft (registration, make, model, variant, type_designator, engine, operation, category, class_rating)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(registration) DO UPDATE SET make = excluded.make, model = excluded.model, variant = excluded.variant,
                    type_designator = excluded.type_designator, engine = excluded.engine, operation = excluded.operation,
                    category = excluded.category, class_rating = excluded.class_rating
                """,
            arguments: [registration, make, model, variant, typeDesignator, engine, operation, category, classRating])
    }

    var json: JSONValue {
        func opt(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return [
            "registration": .string(registration), "make": opt(make), "model": opt(model), "variant": opt(variant),
            "type_designator": opt(typeDesignator), "engine": .string(engine), "operation": .string(operation),
            "category": .string(category), "class_rating": opt(classRating), "currency_group": .string(currencyGroup),
        ]
    }
}

/// An aircraft as results show it, encoded straight into the reply (`aircraft.add`, `update`).
struct AircraftResult: ResultObject, CallResult {
    let aircraft: Aircraft

    static let members = ResultMembers<Self>(
        .field("registration", \.aircraft.registration), .field("make", \.aircraft.make), .field("model", \.aircraft.model),
        .field("variant", \.aircraft.variant), .field("type_designator", \.aircraft.typeDesignator), .field("engine", \.aircraft.engine),
        .field("operation", \.aircraft.operation), .field("category", \.aircraft.category), .field("class_rating", \.aircraft.classRating),
        .field("currency_group", \.aircraft.currencyGroup))
}

/// An aircraft in `aircraft.list`, with its flights and hours.
struct AircraftUsage: ResultObject, Sendable {
    let aircraft: AircraftResult
    let flights: Int
    let totalMinutes: Int

    static let members = ResultMembers<Self>(
        .flattened(\.aircraft), .field("flights", \.flights), .field("total_min", \.totalMinutes, "minutes"))
}

/// `aircraft.list`.
struct AircraftList: ResultObject, CallResult {
    let aircraft: [AircraftUsage]

    static let members = ResultMembers<Self>(.field("aircraft", \.aircraft))
}
