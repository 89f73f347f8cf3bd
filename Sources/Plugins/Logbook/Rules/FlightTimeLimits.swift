import PluginKit

/// ORO.FTL.210 cumulative limits, evaluated for the windows that end on `at` (UTC dates).
enum FlightTimeLimits {
    enum Window: Sendable {
        case days(Int)
        case calendarYear
        case calendarMonths(Int)
    }

    struct Limit: Sendable {
        var id: String
        var what: String
        var reference: String
        var window: Window
        var from: Day
        var limitMinutes: Int
        var duty: Bool

        /// The first day on which time counted on `day` has left the window.
        func leaves(_ day: Day) -> Day {
            switch window {
            case .days(let n): day.adding(days: n)
            case .calendarYear: Day(year: day.year + 1, month: 1, day: 1)
            case .calendarMonths(let n): day.firstOfMonth.adding(months: n)
            }
        }
    }

    struct Evaluated: Sendable {
        var limit: Limit
        var used: Int
        /// Whether the pilot logs duty at all; without it a duty limit is "not recorded", not "ok".
        var recorded: Bool
        /// The first day part of what is counted now leaves the window; nil when nothing is.
        var resetsOn: Day?
    }

    static let approachingFraction = 0.9

    static func windows(at: Day) -> [Limit] {
        let (y, _, _) = at.components
        return [
            Limit(
                id: "flight_28d", what: "flight time in 28 consecutive days", reference: "ORO.FTL.210(b)(1)", window: .days(28),
                from: at.adding(days: -27), limitMinutes: 100 * 60, duty: false),
            Limit(
                id: "flight_calendar_year", what: "flight time in the calendar year", reference: "ORO.FTL.210(b)(2)", window: .calendarYear,
                from: Day(year: y, month: 1, day: 1), limitMinutes: 900 * 60, duty: false),
            Limit(
                id: "flight_12_months", what: "flight time in 12 consecutive calendar months", reference: "ORO.FTL.210(b)(3)",
                window: .calendarMonths(12), from: at.firstOfMonth.adding(months: -11), limitMinutes: 1000 * 60, duty: false),
            Limit(
                id: "duty_7d", what: "duty in 7 consecutive days", reference: "ORO.FTL.210(a)(1)", window: .days(7),
                from: at.adding(days: -6), limitMinutes: 60 * 60, duty: true),
            Limit(
                id: "duty_14d", what: "duty in 14 consecutive days", reference: "ORO.FTL.210(a)(2)", window: .days(14),
                from: at.adding(days: -13), limitMinutes: 110 * 60, duty: true),
            Limit(
                id: "duty_28d", what: "duty in 28 consecutive days", reference: "ORO.FTL.210(a)(3)", window: .days(28),
                from: at.adding(days: -27), limitMinutes: 190 * 60, duty: true),
        ]
    }

    /// Flight time per day from the flights, and counted duty per day from the duty records (a
    /// duty past midnight counts on each day for its part): two indexed range reads, then every
    /// window is a sum over days.
    static func evaluate(_ db: Database, at: Day) throws -> [Evaluated] {
        let limits = windows(at: at)
        let earliest = limits.filter { !$0.duty }.map(\.from).min()!
        let dutyEarliest = limits.filter(\.duty).map(\.from).min()!
        var flight: [Int: Double] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT date, SUM(total_min) FROM logbook_entries WHERE kind = 'flight' AND deleted_at IS NULL AND date >= ? AND date <= ?
                GROUP BY date
                """,
            arguments: [earliest.description, at.description])
        {
            if let day = Day(row[0] as String) { flight[day.number] = Double(row[1] as Int) }
        }
        let (windowStart, windowEnd) = (UTCMinute(day: dutyEarliest, minuteOfDay: 0), UTCMinute(day: at.adding(days: 1), minuteOfDay: 0))
        var duty: [Int: Double] = [:]
        for d in try Row.fetchAll(
            db, sql: "SELECT * FROM logbook_duties WHERE start_at < ? AND start_at > ? AND end_at > ?",
            arguments: [windowEnd.value, windowStart.value - Duty.longestMinutes, windowStart.value]
        ).map(Duty.init) {
            var from = max(d.start, windowStart)
            let to = min(d.end, windowEnd)
            while from < to {
                let midnight = UTCMinute(day: from.day.adding(days: 1), minuteOfDay: 0)
                duty[from.day.number, default: 0] += Double(min(to, midnight).value - from.value) * d.kind.countedShare
                from = midnight
            }
        }
        let recorded =
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM logbook_duties WHERE start_at < ? AND start_at > ?)",
                arguments: [windowEnd.value, UTCMinute(day: at.adding(years: -1), minuteOfDay: 0).value - Duty.longestMinutes]) ?? false
        return limits.map { limit in
            let days = (limit.duty ? duty : flight).filter { $0.key >= limit.from.number && $0.key <= at.number && $0.value > 0 }
            let used = Int(days.values.reduce(0, +).rounded())
            return Evaluated(
                limit: limit, used: used, recorded: !limit.duty || recorded,
                resetsOn: days.keys.min().map { limit.leaves(Day(number: $0)) })
        }
    }

    static func report(_ db: Database, at: Day) throws -> LimitsResult {
        let items = try evaluate(db, at: at).map { e in
            let status: LimitItem.Status =
                if !e.recorded {
                    .notRecorded
                } else if e.used > e.limit.limitMinutes {
                    .exceeded
                } else if Double(e.used) >= approachingFraction * Double(e.limit.limitMinutes) {
                    .approaching
                } else {
                    .ok
                }
            return LimitItem(e, at: at, status: status)
        }
        return LimitsResult(at: at, items: items)
    }
}
