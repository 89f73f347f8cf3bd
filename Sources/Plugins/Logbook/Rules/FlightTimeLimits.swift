import PluginKit

/// ORO.FTL.210 cumulative limits, evaluated for the windows that end on `at` (UTC dates).
enum FlightTimeLimits {
    struct Limit: Sendable {
        var id: String
        var what: String
        var reference: String
        var from: Day
        var limitMinutes: Int
        var duty: Bool
    }

    static let approachingFraction = 0.9

    static func windows(at: Day) -> [Limit] {
        let (y, _, _) = at.components
        return [
            Limit(
                id: "flight_28d", what: "flight time in 28 consecutive days", reference: "ORO.FTL.210(b)(1)",
                from: at.adding(days: -27), limitMinutes: 100 * 60, duty: false),
            Limit(
                id: "flight_calendar_year", what: "flight time in the calendar year", reference: "ORO.FTL.210(b)(2)",
                from: Day(year: y, month: 1, day: 1), limitMinutes: 900 * 60, duty: false),
            Limit(
                id: "flight_12_months", what: "flight time in 12 consecutive calendar months", reference: "ORO.FTL.210(b)(3)",
                from: at.firstOfMonth.adding(months: -11), limitMinutes: 1000 * 60, duty: false),
            Limit(
                id: "duty_7d", what: "duty in 7 consecutive days", reference: "ORO.FTL.210(a)(1)",
                from: at.adding(days: -6), limitMinutes: 60 * 60, duty: true),
            Limit(
                id: "duty_14d", what: "duty in 14 consecutive days", reference: "ORO.FTL.210(a)(2)",
                from: at.adding(days: -13), limitMinutes: 110 * 60, duty: true),
            Limit(
                id: "duty_28d", what: "duty in 28 consecutive days", reference: "ORO.FTL.210(a)(3)",
                from: at.adding(days: -27), limitMinutes: 190 * 60, duty: true),
        ]
    }

    /// One indexed range scan: every window is a conditional sum over the widest one.
    static func evaluate(_ db: Database, at: Day) throws -> [(Limit, used: Int, dutyRecorded: Bool)] {
        let limits = windows(at: at)
        let earliest = limits.map(\.from).min()!
        var sums: [String] = []
        for l in limits {
            let value = l.duty ? "COALESCE(duty_end_at - duty_start_at, 0)" : "CASE WHEN kind = 'flight' THEN total_min ELSE 0 END"
            sums.append("COALESCE(SUM(CASE WHEN date >= '\(l.from)' THEN \(value) ELSE 0 END), 0)")
        }
        sums.append("COUNT(duty_start_at)")
        let row = try Row.fetchOne(
            db,
            sql: "SELECT \(sums.joined(separator: ", ")) FROM logbook_entries WHERE deleted_at IS NULL AND date >= ? AND date <= ?",
            arguments: [earliest.description, at.description])!
        let dutyRecorded: Int = row[limits.count]
        return limits.enumerated().map { (i, l) in (l, row[i] as Int, dutyRecorded > 0) }
    }

    static func report(_ db: Database, at: Day) throws -> LimitsResult {
        let items = try evaluate(db, at: at).map { limit, used, dutyRecorded in
            let status: LimitItem.Status =
                if limit.duty && !dutyRecorded {
                    .notRecorded
                } else if used > limit.limitMinutes {
                    .exceeded
                } else if Double(used) >= approachingFraction * Double(limit.limitMinutes) {
                    .approaching
                } else {
                    .ok
                }
            return LimitItem(limit: limit, at: at, used: used, status: status)
        }
        return LimitsResult(at: at, items: items)
    }
}
