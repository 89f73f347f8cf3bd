import Foundation
import PluginKit

/// The Tasks part of `today`: the day's events and to-dos (the agenda of that day), and, when
/// the day is today, the open to-dos that fell due before it.
extension TasksService: DayContributing {
    /// What marks a to-do of the day done.
    static let completes = "tasks.complete"

    public func dayItems(_ query: DayQuery) async throws -> [DayItem] {
        let day = try await agenda(from: query.start, to: query.end)
        var items = day.occurrences.compactMap { row -> DayItem? in
            let o = row.occurrence
            let t = o.task
            guard t.kind == .event ? o.status != .cancelled : o.status.isOpen else { return nil }
            let start = (o.start ?? o.due).map { t.zone.instant($0) }
            let end = (t.kind == .event ? o.end : nil).map { t.zone.instant($0) }
            var item = DayItem(
                kind: t.kind == .event ? .event : .task, title: o.title, start: start, end: end, allDay: t.allDay, place: o.location,
                detail: t.category, overdue: row.overdue)
            if t.kind != .event { (item.id, item.completes) = (t.id, Self.completes) }
            return item
        }
        guard query.date == DateOnly(query.now, in: query.zone) else { return items }
        let overdue = try await overdue()
        for row in overdue.tasks {
            let t = row.task
            guard let current = row.current, let due = (current.due ?? current.start).map({ t.zone.instant($0) }), due < query.start else { continue }
            var item = DayItem(
                kind: .task, title: current.title, start: due, allDay: t.allDay, place: current.location, detail: t.category, overdue: true)
            (item.id, item.completes) = (t.id, Self.completes)
            items.append(item)
        }
        return items
    }
}
