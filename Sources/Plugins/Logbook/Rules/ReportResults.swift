import PluginKit

/// One recency rule for one class or type (`logbook.currency`), read by the reminder job and
/// `today` by its fields.
@ResultObject
struct CurrencyItem: Sendable {
    let rule: String
    let group: String
    let reference: String
    let requirement: String
    let status: ValidityStatus
    let validUntil: Day?
    @NotInResult let at: Day
    @InResult var lapsesOn: Day? { validUntil?.adding(days: 1) }
    @InResult var daysLeft: Int? { validUntil.map { $0.number - at.number } }
    /// what counts toward the rule inside its window, and what it requires
    let window: [String: Int]
}

@ResultObject
struct CurrencyResult: CallResult {
    let at: Day
    let items: [CurrencyItem]
}

/// One ORO.FTL.210 limit on a day (`logbook.limits`).
@ResultObject
struct LimitItem: Sendable {
    enum Status: String, Sendable, CaseIterable, Encodable, ResultDescribing {
        case ok, approaching, exceeded
        case notRecorded = "not_recorded"
    }

    let id: String
    let limit: String
    let reference: String
    let from: Day
    let to: Day
    /// minutes
    let usedMin: Int
    /// minutes
    let limitMin: Int
    /// minutes
    let remainingMin: Int
    let status: Status

    init(limit: FlightTimeLimits.Limit, at: Day, used: Int, status: Status) {
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
}

@ResultObject
struct LimitsResult: CallResult {
    let at: Day
    let items: [LimitItem]
}

/// `logbook.night`: one leg's night time and night takeoff and landing.
@ResultObject
struct NightLeg: CallResult {
    let dep: String
    let arr: String
    let criterion: NightCriterion
    /// minutes
    @Key("block_min") let blockMinutes: Int
    /// minutes
    @Key("night_min") let nightMinutes: Int
    let nightTakeoff: Bool
    let nightLanding: Bool
}
