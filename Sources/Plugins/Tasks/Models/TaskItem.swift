import Foundation
import PluginKit

enum TaskKind: String, Codable, Sendable, CaseIterable { case todo, event }

enum TaskStatus: String, Codable, Sendable, CaseIterable {
    case needsAction = "needs-action"
    case inProcess = "in-process"
    case completed, cancelled

    var isOpen: Bool { self == .needsAction || self == .inProcess }
    var ical: String { rawValue.uppercased() }
    init?(ical: String) { self.init(rawValue: ical.lowercased()) }
}

/// `{"before_min": N, "of": "start"|"due"}` or `{"at": instant}`.
struct Reminder: Codable, Sendable, Hashable {
    var beforeMin: Int?
    var of: Anchor?
    var at: Date?

    enum Anchor: String, Codable, Sendable { case start, due }

    enum CodingKeys: String, CodingKey {
        case beforeMin = "before_min"
        case of, at
    }

    var json: JSONValue {
        if let at { return ["at": .string(ISO8601.string(at))] }
        return ["before_min": .count(beforeMin ?? 0), "of": .string((of ?? .start).rawValue)]
    }

    /// `json`, written straight into a reply (members in `json`'s sorted order).
    func write(to w: JSONDirectWriter) {
        w.beginObject()
        if let at {
            w.member("at", instant: at)
        } else {
            w.member("before_min", beforeMin ?? 0)
            w.member("of", (of ?? .start).rawValue)
        }
        w.endObject()
    }
}

/// One occurrence changed on its own (RECURRENCE-ID), possibly by another client.
struct OccurrenceOverride: Codable, Sendable, Equatable {
    var title: String?
    var notes: String?
    var location: String?
    var start: String?
    var due: String?
    var end: String?
    var status: TaskStatus?
    /// Properties this plugin does not model, kept verbatim (unfolded content lines).
    var extra: [String] = []
}

/// A task or event as stored. Times are wall-clock readings in `tz` (see `WallTime`).
struct TaskItem: Sendable {
    var id: String
    var kind: TaskKind = .todo
    var title: String
    var notes: String = ""
    var category: String?
    var tags: [String] = []
    var priority: Int = 0
    var parent: String?
    var location: String?
    var url: String?
    var status: TaskStatus = .needsAction
    var completedAt: Date?
    var created: Date
    var modified: Date
    var tz: String { didSet { zone = Zone(identifier: tz) ?? .utc } }
    /// `tz` as a zone, kept beside it: looking the zone up by name on every instant was a tenth
    /// of a month's agenda (perf, tasks-bench).
    private(set) var zone: Zone
    var allDay = false
    var start: WallTime?
    var due: WallTime?
    var end: WallTime?
    var durationMin: Int?
    var rrule: String?
    var exdates: [WallTime] = []
    var rdates: [WallTime] = []
    var repeatFromCompletion = false
    var reminders: [Reminder] = []
    var channels: [String]?
    /// Keyed by the original occurrence's wall time (`WallTime.text`).
    var overrides: [String: OccurrenceOverride] = [:]
    /// Unmodelled iCalendar properties, kept verbatim for export and sync.
    var extra: [String] = []
    var source = "local"
    var sequence = 0
    var deletedAt: Date?
    /// The range the occurrence index covers, as read (nil for items not read from the store).
    var indexed: (from: Double, until: Double)? = nil

    /// Whether the occurrence index answers for [from, to).
    func indexCovers(_ from: Date, _ to: Date) -> Bool {
        guard let indexed else { return false }
        return indexed.from <= from.timeIntervalSince1970 - 86_400 && indexed.until >= to.timeIntervalSince1970 + 86_400
    }

    init(id: String, kind: TaskKind = .todo, title: String, created: Date, modified: Date, tz: String) {
        (self.id, self.kind, self.title, self.created, self.modified, self.tz) = (id, kind, title, created, modified, tz)
        zone = Zone(identifier: tz) ?? .utc
    }

    var isRecurring: Bool { rrule != nil || !rdates.isEmpty }

    /// The series' first instant: DTSTART, or DUE for a to-do without a start.
    var anchor: WallTime? { start ?? due }

    /// Seconds from the anchor to DUE and to the end, on the wall clock, so each occurrence keeps them.
    var dueOffset: Int64? {
        guard let due, let anchor else { return nil }
        return due.wallSeconds - anchor.wallSeconds
    }

    var endOffset: Int64? {
        guard kind == .event, let start else { return nil }
        if let end { return end.wallSeconds - start.wallSeconds }
        if let durationMin { return Int64(durationMin) * 60 }
        return allDay ? 86_400 : 0
    }

    var series: Series? {
        guard let anchor else { return nil }
        // Stored rules were checked on the way in (input, import, sync).
        return Series(anchor: anchor, rule: rrule.map(RecurrenceRule.init(trusted:)), exdates: Set(exdates), rdates: rdates, zone: zone)
    }
}

/// An item shared by its occurrences: a series' thousand occurrences in an agenda hold one
/// reference instead of a copy each (copying and destroying the item's thirty fields per
/// occurrence was most of the agenda's expansion, perf).
final class SharedTask: Sendable {
    let item: TaskItem
    init(_ item: TaskItem) { self.item = item }
}

/// One concrete occurrence (or the single instance of a non-recurring item), overrides applied.
struct Occurrence: Sendable {
    private let shared: SharedTask
    var task: TaskItem { _read { yield shared.item } }
    /// The original wall time (RECURRENCE-ID) for a recurring item.
    let recurrenceID: WallTime?
    var start: WallTime?
    var due: WallTime?
    var end: WallTime?
    var title: String
    var status: TaskStatus
    var location: String?
    var notes: String

    /// The instant agenda and list sort by: start, else due.
    func sortInstant() -> Date? {
        guard let w = start ?? due else { return nil }
        return task.zone.instant(w)
    }

    init(
        shared: SharedTask, recurrenceID: WallTime?, start: WallTime?, due: WallTime?, end: WallTime?, title: String, status: TaskStatus,
        location: String?, notes: String
    ) {
        self.shared = shared
        self.recurrenceID = recurrenceID
        (self.start, self.due, self.end) = (start, due, end)
        (self.title, self.status, self.location, self.notes) = (title, status, location, notes)
    }

    func isOverdue(now: Date) -> Bool {
        guard task.kind == .todo, status.isOpen, let w = due ?? start else { return false }
        let at = task.allDay ? task.zone.instant(w.adding(days: 1)) : task.zone.instant(w)
        return at <= now
    }
}

extension TaskItem {
    /// The occurrences that start at `walls`, sharing this item.
    func occurrences(at walls: [WallTime]) -> [Occurrence] {
        let shared = SharedTask(self)
        return walls.map { occurrence(at: $0, shared: shared) }
    }

    /// The occurrence that starts at `wall` (the series' own wall clock), with its override;
    /// `shared` is this item when the caller has it shared already.
    func occurrence(at wall: WallTime?, shared: SharedTask? = nil) -> Occurrence {
        let startWall: WallTime? = start == nil ? nil : wall
        let dueWall: WallTime? = dueOffset.flatMap { off in wall.map { $0.adding(seconds: off) } }
        let endWall: WallTime? = endOffset.flatMap { off in wall.map { $0.adding(seconds: off) } }
        var o = Occurrence(
            shared: shared ?? SharedTask(self), recurrenceID: isRecurring ? wall : nil, start: startWall, due: dueWall, end: endWall, title: title,
            status: status, location: location, notes: notes)
        if isRecurring, !overrides.isEmpty, let wall, let override = overrides[wall.text] {
            if let v = override.title { o.title = v }
            if let v = override.notes { o.notes = v }
            if let v = override.location { o.location = v }
            if let v = override.status { o.status = v }
            if let v = override.start.flatMap({ WallTime($0) }) {
                o.start = v
                if override.end == nil, let off = endOffset { o.end = v.adding(seconds: off) }
            }
            if let v = override.due.flatMap({ WallTime($0) }) { o.due = v }
            if let v = override.end.flatMap({ WallTime($0) }) { o.end = v }
        }
        return o
    }

    /// Occurrences whose start (or due) lies in [from, to), overrides applied (a moved instance
    /// counts where it moved to). Non-recurring items give at most one.
    func occurrences(from: Date, to: Date, limit: Int = 100_000) -> [Occurrence] {
        guard let anchor else { return [] }
        let z = zone
        guard isRecurring, let series else {
            let o = occurrence(at: anchor)
            guard let at = o.sortInstant(), at >= from, at < to else { return [] }
            return [o]
        }
        // Widen by a day on both sides: overrides may move an instance, and all-day items are local dates.
        let fromWall = z.wall(from).adding(days: -1)
        let toWall = z.wall(to).adding(days: 1)
        var result: [Occurrence] = []
        var seen: Set<String> = []
        let shared = SharedTask(self)
        let walls = series.occurrences(from: anchor.isDate ? fromWall.asDate : fromWall, before: anchor.isDate ? toWall.asDate : toWall, limit: limit)
        for wall in walls {
            if !overrides.isEmpty { seen.insert(wall.text) }
            let o = occurrence(at: wall, shared: shared)
            if let at = o.sortInstant(), at >= from, at < to { result.append(o) }
        }
        // An instance moved into the window from outside it.
        for (key, override) in overrides where !seen.contains(key) && override.start != nil {
            guard let wall = WallTime(key) else { continue }
            let o = occurrence(at: wall, shared: shared)
            if let at = o.sortInstant(), at >= from, at < to { result.append(o) }
        }
        return result
    }

    /// The occurrence a list places the item at when that does not depend on the time of
    /// asking: a single item's only one; a repeating to-do's at its anchor (completing moves the
    /// anchor). nil for a repeating event, whose current occurrence is the first not ended.
    var standingOccurrence: Occurrence? {
        guard let anchor else { return occurrence(at: nil) }
        guard isRecurring else { return occurrence(at: anchor) }
        guard kind == .todo else { return nil }
        // The anchor is the series' first occurrence (RFC 5545) unless it is excluded.
        return exdates.contains(anchor) ? currentOccurrence(now: .distantPast) : occurrence(at: anchor)
    }

    /// The list's columns (`sort_at`, `due_at`, `overdue_at`, see `TasksSchema`): where the
    /// standing occurrence sorts (start, else due), its due instant (due, else start) and the
    /// instant an open to-do falls overdue. All nil for a repeating event.
    var placement: (sortAt: Double?, dueAt: Double?, overdueAt: Double?) {
        guard let o = standingOccurrence, let sortAt = o.sortInstant(), let w = o.due ?? o.start else { return (nil, nil, nil) }
        let dueAt = zone.instant(w).timeIntervalSince1970
        let overdueAt = kind == .todo && o.status.isOpen ? (allDay ? zone.instant(w.adding(days: 1)).timeIntervalSince1970 : dueAt) : nil
        return (sortAt.timeIntervalSince1970, dueAt, overdueAt)
    }

    /// The occurrence that is "current": for a to-do, the first open one (completing advances the
    /// anchor); for an event, the first that has not ended.
    func currentOccurrence(now: Date) -> Occurrence? {
        guard let anchor else { return occurrence(at: nil) }
        guard isRecurring, let series else { return occurrence(at: anchor) }
        if kind == .todo { return occurrence(at: series.occurrences(before: anchor.adding(days: 366 * 50), limit: 1).first ?? anchor) }
        let nowWall = zone.wall(now).adding(seconds: -(endOffset ?? 0))
        if let next = series.next(atOrAfter: anchor.isDate ? nowWall.asDate : nowWall) { return occurrence(at: next) }
        return nil
    }
}
