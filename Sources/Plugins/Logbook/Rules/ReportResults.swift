import PluginKit

/// One recency rule for one class or type (`logbook.currency`), read by the reminder job and
/// `today` by its fields.
struct CurrencyItem: Encodable, Sendable {
    let rule: String
    let group: String
    let reference: String
    let requirement: String
    let status: ValidityStatus
    let validUntil: Day?
    let at: Day
    /// What counts toward the rule within its window (`takeoffs`, `landings`, `required`, …).
    let window: [String: Int]

    enum CodingKeys: String, CodingKey {
        case rule, group, reference, requirement, status, window
        case validUntil = "valid_until"
        case lapsesOn = "lapses_on"
        case daysLeft = "days_left"
    }

    var daysLeft: Int? { validUntil.map { $0.number - at.number } }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(rule, forKey: .rule)
        try o.encode(group, forKey: .group)
        try o.encode(reference, forKey: .reference)
        try o.encode(requirement, forKey: .requirement)
        try o.encode(status.rawValue, forKey: .status)
        try o.encode(validUntil?.description, forKey: .validUntil)
        try o.encode(validUntil?.adding(days: 1).description, forKey: .lapsesOn)
        try o.encode(daysLeft, forKey: .daysLeft)
        try o.encode(window, forKey: .window)
    }
}

struct CurrencyResult: Encodable, CallResult {
    let at: Day
    let items: [CurrencyItem]

    enum CodingKeys: String, CodingKey { case at, items }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(at.description, forKey: .at)
        try o.encode(items, forKey: .items)
    }
}

/// One ORO.FTL.210 limit on a day (`logbook.limits`).
struct LimitItem: Encodable, Sendable {
    enum Status: String, Sendable { case ok, approaching, exceeded, notRecorded = "not_recorded" }

    let limit: FlightTimeLimits.Limit
    let at: Day
    let used: Int
    let status: Status

    enum CodingKeys: String, CodingKey {
        case id, limit, reference, from, to, status
        case usedMin = "used_min"
        case limitMin = "limit_min"
        case remainingMin = "remaining_min"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(limit.id, forKey: .id)
        try o.encode(limit.what, forKey: .limit)
        try o.encode(limit.reference, forKey: .reference)
        try o.encode(limit.from.description, forKey: .from)
        try o.encode(at.description, forKey: .to)
        try o.encode(used, forKey: .usedMin)
        try o.encode(limit.limitMinutes, forKey: .limitMin)
        try o.encode(max(0, limit.limitMinutes - used), forKey: .remainingMin)
        try o.encode(status.rawValue, forKey: .status)
    }
}

struct LimitsResult: Encodable, CallResult {
    let at: Day
    let items: [LimitItem]

    enum CodingKeys: String, CodingKey { case at, items }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(at.description, forKey: .at)
        try o.encode(items, forKey: .items)
    }
}

/// `logbook.night`: one leg's night time and night takeoff and landing.
struct NightLeg: Encodable, CallResult {
    let dep: String
    let arr: String
    let criterion: String
    let blockMinutes: Int
    let nightMinutes: Int
    let nightTakeoff: Bool
    let nightLanding: Bool

    enum CodingKeys: String, CodingKey {
        case dep, arr, criterion
        case blockMinutes = "block_min"
        case nightMinutes = "night_min"
        case nightTakeoff = "night_takeoff"
        case nightLanding = "night_landing"
    }
}
