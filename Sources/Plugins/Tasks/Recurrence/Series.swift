import Foundation

/// A recurring series as RFC 5545 defines its set: DTSTART and the RRULE's instances, plus RDATEs,
/// minus EXDATEs, all on the series' wall clock.
struct Series: Sendable {
    var anchor: WallTime
    var rule: RecurrenceRule?
    var exdates: Set<WallTime> = []
    var rdates: [WallTime] = []
    var zone: Zone

    /// Occurrences (wall clock) starting before `before`, in order, at most `limit`.
    func occurrences(before: WallTime, limit: Int = 100_000) -> [WallTime] {
        var all = rule?.occurrences(anchor: anchor, zone: zone, before: before, limit: limit + exdates.count) ?? [anchor]
        all.removeAll { $0 >= before }
        if !rdates.isEmpty {
            let existing = Set(all)
            all += rdates.filter { $0 < before && !existing.contains($0) }
            all.sort()
        }
        if !exdates.isEmpty { all.removeAll { exdates.contains($0) } }
        return Array(all.prefix(limit))
    }

    /// Occurrences whose wall time lies in [from, before).
    func occurrences(from: WallTime, before: WallTime) -> [WallTime] {
        occurrences(before: before).filter { $0 >= from }
    }

    /// The first occurrence at or after `wall`, looking at most `horizonDays` ahead.
    func next(atOrAfter wall: WallTime, horizonDays: Int = 3660) -> WallTime? {
        occurrences(before: wall.adding(days: horizonDays)).first { $0 >= wall }
    }
}
