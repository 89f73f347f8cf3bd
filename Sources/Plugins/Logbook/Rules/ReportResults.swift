import PluginKit

/// One recency rule for one class or type (`logbook.currency`), read by the reminder job and
/// `today` by its fields.
struct CurrencyItem: ResultObject, Sendable {
    let rule: String
    let group: String
    let reference: String
    let requirement: String
    let status: ValidityStatus
    let validUntil: Day?
    let at: Day
    var lapsesOn: Day? { validUntil?.adding(days: 1) }
    var daysLeft: Int? { validUntil.map { $0.number - at.number } }
    let window: [String: Int]

    static let members = ResultMembers<Self>(
        .field("rule", \.rule),
        .field("group", \.group),
        .field("reference", \.reference),
        .field("requirement", \.requirement),
        .field("status", \.status),
        .field("valid_until", \.validUntil),
        .field("lapses_on", \.lapsesOn),
        .field("days_left", \.daysLeft),
        .field("window", \.window, "what counts toward the rule inside its window, and what it requires"))
}

struct CurrencyResult: ResultObject, CallResult {
    let at: Day
    let items: [CurrencyItem]

    static let members = ResultMembers<Self>(.field("at", \.at), .field("items", \.items))
}

/// One ORO.FTL.210 limit on a day (`logbook.limits`).
struct LimitItem: ResultObject, Sendable {
    enum Status: String, Sendable, CaseIterable, Encodable, ResultDescribing {
        case ok, approaching, exceeded
        case notRecorded = "not_recorded"
    }

    let id: String
    let limit: String
    let reference: String
    let from: Day
    let to: Day
    let usedMin: Int
    let limitMin: Int
    let remainingMin: Int
    let status: Status
    let resetsOn: Day?

    init(_ evaluated: FlightTimeLimits.Evaluated, at: Day, status: Status) {
        let (limit, used) = (evaluated.limit, evaluated.used)
        resetsOn = evaluated.resetsOn
        id = limit.id
        self.limit = limit.what
        reference = limit.reference
        from = limit.from
        to = at
        usedMin = used
        limitMin = limit.limitMinutes
        remainingMin = max(0, limit.limitMinutes - used)
        self.status = status
    }

    static let members = ResultMembers<Self>(
        .field("id", \.id),
        .field("limit", \.limit),
        .field("reference", \.reference),
        .field("from", \.from),
        .field("to", \.to),
        .field("used_min", \.usedMin, "minutes"),
        .field("limit_min", \.limitMin, "minutes"),
        .field("remaining_min", \.remainingMin, "minutes"),
        .field("status", \.status),
        .field("resets_on", \.resetsOn, "the first day part of the time counted now leaves the window (null when none is counted)"))
}

struct LimitsResult: ResultObject, CallResult {
    let at: Day
    let items: [LimitItem]

    static let members = ResultMembers<Self>(.field("at", \.at), .field("items", \.items))
}

/// `logbook.night`: one leg's night time and night takeoff and landing.
struct NightLeg: ResultObject, CallResult {
    let dep: String
    let arr: String
    let criterion: NightCriterion
    let blockMinutes: Int
    let nightMinutes: Int
    let nightTakeoff: Bool
    let nightLanding: Bool

    static let members = ResultMembers<Self>(
        .field("dep", \.dep),
        .field("arr", \.arr),
        .field("criterion", \.criterion),
        .field("block_min", \.blockMinutes, "minutes"),
        .field("night_min", \.nightMinutes, "minutes"),
        .field("night_takeoff", \.nightTakeoff),
        .field("night_landing", \.nightLanding))
}

/// One class rating on a day (`logbook.ratings`): what the logbook holds towards its revalidation
/// by experience, and what is still missing.
struct RatingItem: ResultObject, Sendable {
    let certificate: LogbookService.Certificate
    let at: Day
    let expiry: Day
    let assessment: RatingRules.Assessment?

    var classRating: String { certificate.classRating ?? certificate.name }
    var status: ValidityStatus { ValidityStatus.of(validUntil: expiry, at: at) }
    var daysLeft: Int { expiry.number - at.number }
    var revalidation: String { assessment == nil ? "proficiency_check" : "experience" }
    var windowFrom: Day? { assessment?.from }
    var windowTo: Day? { assessment?.to }
    var held: [String: Int]? {
        assessment.map {
            [
                "flight_min": $0.held.flightMinutes, "pic_min": $0.held.picMinutes, "takeoffs": $0.held.takeoffs,
                "landings": $0.held.landings,
            ]
        }
    }
    var required: [String: Int]? {
        assessment == nil
            ? nil
            : [
                "flight_min": RatingRules.required.flightMinutes, "pic_min": RatingRules.required.picMinutes,
                "takeoffs": RatingRules.required.takeoffs, "landings": RatingRules.required.landings,
                "training_flight_min": RatingRules.trainingMinutes,
            ]
    }
    var trainingFlight: Int64? { assessment?.training?.id }
    var missing: [String] {
        assessment?.missing ?? ["a proficiency check within the 3 months before expiry (experience revalidates SEP and TMG only)"]
    }
    var met: Bool { assessment?.missing.isEmpty ?? false }

    static let members = ResultMembers<Self>(
        .field("id", \.certificate.id, "the certificate"),
        .field("class_rating", \.classRating),
        .field("expiry_date", \.expiry),
        .field("status", \.status),
        .field("days_left", \.daysLeft),
        .field("revalidation", \.revalidation, .enumeration(["experience", "proficiency_check"]), "how it can be revalidated"),
        .field("reference", \.referenceText),
        .field("window_from", \.windowFrom, "the 12 months before expiry begin"),
        .field("window_to", \.windowTo, "the day before expiry: the window's last day (flights after `at` are not counted)"),
        .field("held", \.held, "what the logbook holds in the window, in the class"),
        .field("required", \.required),
        .field("training_flight", \.trainingFlight, "the latest flight of at least 1 h with an instructor in the window"),
        .field("missing", \.missing, "what is still needed, in words"),
        .field("met", \.met, "the experience revalidates the rating"))

    var referenceText: String { RatingRules.reference }
}

struct RatingsResult: ResultObject, CallResult {
    let at: Day
    let ratings: [RatingItem]

    static let members = ResultMembers<Self>(.field("at", \.at), .field("ratings", \.ratings))
}
