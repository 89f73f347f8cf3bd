import Foundation

/// A recurring series as RFC 5545 defines its set: DTSTART and the RRULE's instances, plus RDATEs,
/// minus EXDATEs, all on the series' wall clock.
struct Series: Sendable {
    var anchor: WallTime
    var rule: RecurrenceRule?
    var exdates: Set<WallTime> = []
    var rdates: [WallTime] = []
    var zone: Zone

    /// Occurrences (wall clock) in [from, before), in order, at most `limit`.
    func occurrences(from: WallTime? = nil, before: WallTime, limit: Int = 100_000) -> [WallTime] {
        var all =
            rule?.occurrences(anchor: anchor, zone: zone, before: before, from: from, limit: limit + exdates.count)
            ?? ((from == nil || anchor >= from!) ? [anchor] : [])
        all.removeAll { $0 >= before }
        if !rdates.isEmpty {
            let existing = Set(all)
            all += rdates.filter { $0 < before && (from == nil || $0 >= from!) && !existing.contains($0) }
            all.sort()
        }
        if !exdates.isEmpty { all.removeAll { exdates.contains($0) } }
        return Array(all.prefix(limit))
    }

    /// The first occurrence at or after `wall`, looking at most `horizonDays` ahead.
    func next(atOrAfter wall: WallTime, horizonDays: Int = 3660) -> WallTime? {
        occurrences(from: wall, before: wall.adding(days: horizonDays), limit: 1).first
    }
}
