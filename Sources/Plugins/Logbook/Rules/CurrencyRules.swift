import PluginKit

/// Rolling recency requirements: "N events within a window". An event on day D keeps counting
/// through `window(D)`; the requirement is met through the window end of the event at which the
/// most recent events first add up to N.
enum CurrencyRules {
    struct Event: Sendable {
        var day: Day
        var amount: Int
    }

    /// `events` newest first.
    static func validUntil(events: [Event], required: Int, window: (Day) -> Day) -> Day? {
        var sum = 0
        for e in events where e.amount > 0 {
            sum += e.amount
            if sum >= required { return window(e.day) }
        }
        return nil
    }

    static func sum(_ events: [Event], since: Day) -> Int {
        events.lazy.filter { $0.day >= since }.reduce(0) { $0 + $1.amount }
    }

    /// FCL.060(b): 90 days, an event on D counting through D + 90.
    static let passengerDays = 90
    static func ninetyDays(_ d: Day) -> Day { d.adding(days: passengerDays) }
    /// FCL.140.A (LAPL(A) recency): 24 months.
    static func twentyFourMonths(_ d: Day) -> Day { d.adding(months: 24) }
}

/// One flight's contribution to recency.
struct RecencyFlight: Sendable {
    var day: Day
    var group: String
    var category: String
    var takeoffs: Int
    var landings: Int
    var nightTakeoffs: Int
    var nightLandings: Int
    var picMinutes: Int
}

enum CurrencyReport {
    static func build(flights: [RecencyFlight], profile: Profile, at: Day) -> CurrencyResult {
        let relevant = flights.filter { $0.day <= at }.sorted { $0.day > $1.day }
        var groups: [String: [RecencyFlight]] = [:]
        for f in relevant { groups[f.group, default: []].append(f) }
        var items: [CurrencyItem] = []
        for (group, list) in groups.sorted(by: { $0.key < $1.key }) {
            let to = list.map { CurrencyRules.Event(day: $0.day, amount: $0.takeoffs) }
            let ldg = list.map { CurrencyRules.Event(day: $0.day, amount: $0.landings) }
            let since = at.adding(days: -CurrencyRules.passengerDays)
            let until = [
                CurrencyRules.validUntil(events: to, required: 3, window: CurrencyRules.ninetyDays),
                CurrencyRules.validUntil(events: ldg, required: 3, window: CurrencyRules.ninetyDays),
            ]
            let passengerUntil = until.contains(where: { $0 == nil }) ? nil : until.compactMap { $0 }.min()
            items.append(
                item(
                    rule: "passengers", group: group, reference: "FCL.060(b)(1)",
                    requirement: "3 takeoffs and 3 landings within 90 days in \(group)", validUntil: passengerUntil, at: at,
                    progress: [
                        "takeoffs": CurrencyRules.sum(to, since: since), "landings": CurrencyRules.sum(ldg, since: since), "required": 3,
                    ]))

            let nto = list.map { CurrencyRules.Event(day: $0.day, amount: $0.nightTakeoffs) }
            let nldg = list.map { CurrencyRules.Event(day: $0.day, amount: $0.nightLandings) }
            let nightProgress = [
                "night_takeoffs": CurrencyRules.sum(nto, since: since), "night_landings": CurrencyRules.sum(nldg, since: since), "required": 1,
            ]
            if profile.instrumentRating {
                items.append(
                    item(
                        rule: "night_passengers", group: group, reference: "FCL.060(b)(2)",
                        requirement: "not required: you hold an instrument rating", validUntil: nil, at: at, progress: nightProgress,
                        status: .notRequired))
            } else {
                let n = [
                    CurrencyRules.validUntil(events: nto, required: 1, window: CurrencyRules.ninetyDays),
                    CurrencyRules.validUntil(events: nldg, required: 1, window: CurrencyRules.ninetyDays),
                ]
                items.append(
                    item(
                        rule: "night_passengers", group: group, reference: "FCL.060(b)(2)",
                        requirement: "1 takeoff and 1 landing at night within 90 days in \(group) (or an instrument rating)",
                        validUntil: n.contains(where: { $0 == nil }) ? nil : n.compactMap { $0 }.min(), at: at, progress: nightProgress))
            }
        }
        if profile.holdsLAPL {
            let aeroplane = relevant.filter { $0.category == "aeroplane" }
            let pic = aeroplane.map { CurrencyRules.Event(day: $0.day, amount: $0.picMinutes) }
            let to = aeroplane.map { CurrencyRules.Event(day: $0.day, amount: $0.takeoffs) }
            let ldg = aeroplane.map { CurrencyRules.Event(day: $0.day, amount: $0.landings) }
            let window = CurrencyRules.twentyFourMonths
            let parts = [
                CurrencyRules.validUntil(events: pic, required: 720, window: window),
                CurrencyRules.validUntil(events: to, required: 12, window: window),
                CurrencyRules.validUntil(events: ldg, required: 12, window: window),
            ]
            let since = at.adding(months: -24)
            items.append(
                item(
                    rule: "lapl_recency", group: "aeroplane", reference: "FCL.140.A",
                    requirement: "12 hours as PIC and 12 takeoffs and landings within 24 months",
                    validUntil: parts.contains(where: { $0 == nil }) ? nil : parts.compactMap { $0 }.min(), at: at,
                    progress: [
                        "pic_min": CurrencyRules.sum(pic, since: since), "takeoffs": CurrencyRules.sum(to, since: since),
                        "landings": CurrencyRules.sum(ldg, since: since), "required_pic_min": 720, "required": 12,
                    ]))
        }
        return CurrencyResult(at: at, items: items)
    }

    static func item(
        rule: String, group: String, reference: String, requirement: String, validUntil: Day?, at: Day, progress: [String: Int],
        status: ValidityStatus? = nil
    ) -> CurrencyItem {
        CurrencyItem(
            rule: rule, group: group, reference: reference, requirement: requirement,
            status: status ?? ValidityStatus.of(validUntil: validUntil, at: at), validUntil: validUntil, at: at, window: progress)
    }
}
