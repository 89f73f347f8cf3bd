import PluginKit

struct Profile: Sendable {
    var name: String?
    var address: String?
    var dateOfBirth: Day?
    var licences: [JSONValue] = []
    var ratings: [JSONValue] = []
    var instrumentRating = false
    var defaultFunction = "pic"
    var nightCriterion = NightCriterion.civilTwilight

    /// A LAPL holder is checked against the LAPL recency rule (FCL.140.A).
    var holdsLAPL: Bool {
        licences.contains { licence in
            let text = (licence.stringValue ?? licence["type"]?.stringValue ?? "").uppercased()
            return text.hasPrefix("LAPL")
        }
    }

    static func load(_ db: Database) throws -> Profile {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM logbook_profile WHERE id = 1") else { return Profile() }
        var p = Profile()
        p.name = row["name"]
        p.address = row["address"]
        p.dateOfBirth = (row["date_of_birth"] as String?).flatMap { Day($0) }
        p.licences = (try? JSONValue.decode(row["licences"] as String))?.arrayValue ?? []
        p.ratings = (try? JSONValue.decode(row["ratings"] as String))?.arrayValue ?? []
        p.instrumentRating = row["instrument_rating"]
        p.defaultFunction = row["default_function"]
        p.nightCriterion = NightCriterion(rawValue: row["night_criterion"]) ?? .civilTwilight
        return p
    }

    func save(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO logbook_profile (
                    id, name, address, date_of_birth, licences, ratings, instrument_rating, default_function, night_criterion)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, address = excluded.address, date_of_birth = excluded.date_of_birth,
                    licences = excluded.licences, ratings = excluded.ratings, instrument_rating = excluded.instrument_rating,
                    default_function = excluded.default_function, night_criterion = excluded.night_criterion
                """,
            arguments: [
                name, address, dateOfBirth?.description, JSONValue.array(licences).encodedString(),
                JSONValue.array(ratings).encodedString(), instrumentRating, defaultFunction, nightCriterion.rawValue,
            ])
    }
}

/// The pilot profile as results show it (`profile.get`, `profile.set`), encoded straight into the
/// reply; licences and ratings are as the pilot gave them (free-form JSON).
struct ProfileResult: ResultObject, CallResult {
    let profile: Profile

    static let members = ResultMembers<Self>(
        .field("name", \.profile.name), .field("address", \.profile.address), .field("date_of_birth", \.profile.dateOfBirth),
        .field("licences", \.profile.licences, .array(.any("a licence as given"))),
        .field("ratings", \.profile.ratings, .array(.any("a rating as given"))), .field("instrument_rating", \.profile.instrumentRating),
        .field("default_function", \.profile.defaultFunction), .field("night_criterion", \.profile.nightCriterion))
}
