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
