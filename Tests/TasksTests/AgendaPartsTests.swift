import Foundation
import Testing

@testable import Tasks

/// `tasks.agenda` works out a large window's occurrences in parts at once: the parts together
/// are what one pass finds, in the same order, and the limit's bound holds.
struct AgendaPartsTests {
    static let zone = Zone(identifier: "Europe/Prague")!

    /// 1 500 items, every third a daily series with one occurrence moved, the rest single events
    /// on the hour, many sharing a start (their order then comes from the title, unique here).
    static let items: [TaskItem] = (0..<1_500).map { index in
        var item = TaskItem(
            id: String(format: "item-%04d", index), kind: .event, title: "Item \(index)", created: Date(timeIntervalSince1970: 0),
            modified: Date(timeIntervalSince1970: 0), tz: "Europe/Prague")
        item.start = WallTime(year: 2026, month: 12, day: 1 + index % 20, hour: index % 24)
        item.durationMin = 30
        if index % 3 == 0 {
            item.rrule = "FREQ=DAILY"
            item.overrides = [WallTime(year: 2026, month: 12, day: 25, hour: index % 24).text: OccurrenceOverride(title: "Moved \(index)")]
        }
        return item
    }

    static let from = zone.instant(WallTime(year: 2026, month: 12, day: 1))
    static let to = zone.instant(WallTime(year: 2027, month: 1, day: 1))

    static func described(_ found: TasksService.FoundOccurrences) -> [String] {
        found.order().map { "\(found.starts[$0].timeIntervalSince1970) \(found.occurrences[$0].title) \(found.occurrences[$0].task.id)" }
    }

    @Test func thePartsFindWhatOnePassFinds() {
        var whole = TasksService.FoundOccurrences()
        whole.add(Self.items, indexed: [:], from: Self.from, to: Self.to, limit: 50_000)
        let inParts = TasksService.occurrences(of: Self.items, indexed: [:], from: Self.from, to: Self.to, limit: 50_000)
        // 500 series of 31 days less those that start later, and 1 000 single events.
        #expect(whole.occurrences.count > 10_000)
        #expect(Self.described(inParts) == Self.described(whole))
        #expect(inParts.occurrences.contains { $0.title.hasPrefix("Moved ") })
    }

    /// With a small limit each part keeps at most twice the limit, and the first `limit` in order
    /// are the same as one pass's.
    @Test func aSmallLimitBoundsEachPartAndKeepsTheEarliest() {
        let limit = 300
        var whole = TasksService.FoundOccurrences()
        whole.add(Self.items, indexed: [:], from: Self.from, to: Self.to, limit: limit)
        let inParts = TasksService.occurrences(of: Self.items, indexed: [:], from: Self.from, to: Self.to, limit: limit)
        #expect(inParts.occurrences.count <= ProcessInfo.processInfo.activeProcessorCount * 2 * (limit + 1))
        #expect(Array(Self.described(inParts).prefix(limit)) == Array(Self.described(whole).prefix(limit)))
    }
}
