import Foundation
import PluginKit

/// A task as results show it (the contract's fields): UTC instants with `*_local` wall times
/// and `tz`, dates for all-day items; `next` for a repeating item, its overridden occurrences, and
/// `deleted_at` for one in the bin. Written straight into the reply (`tasks.list`'s 500 rows),
/// and read back as a value where a command builds on it (`TaskJSON.task`).
struct TaskRow: CallResult, Encodable {
    let task: TaskItem
    let now: Date
    let channels: [String]
    /// The standing occurrence (overdue is read from it), and the one shown as `next`.
    let current: Occurrence?
    let next: Occurrence?

    /// `current` when the caller has it already (each expansion is a libical iterator); `next`
    /// when the list shows another occurrence than the current one.
    init(_ task: TaskItem, now: Date, defaultChannels: [String], current known: Occurrence?? = nil, next shown: Occurrence? = nil) {
        self.task = task
        self.now = now
        channels = task.channels ?? defaultChannels
        let current = known ?? task.currentOccurrence(now: now)
        self.current = current
        next = task.isRecurring ? (shown ?? current) : nil
    }

    enum Keys: String, CodingKey {
        case id, title, notes, kind, category, tags, priority, parent, location, url, status, created, modified, tz, rrule, exdates, rdates
        case reminders, channels, source, start, due, end, overdue, next, overrides
        case completedAt = "completed_at", allDay = "all_day", durationMin = "duration_min", repeatFrom = "repeat_from"
        case readOnly = "read_only", deletedAt = "deleted_at"
        case startLocal = "start_local", dueLocal = "due_local", endLocal = "end_local"
    }

    enum OverrideKeys: String, CodingKey {
        case occurrence, title, status, location, notes, start, due, end
        case startLocal = "start_local", dueLocal = "due_local", endLocal = "end_local"
    }

    func encode(to encoder: any Encoder) throws {
        let t = task
        let z = t.zone
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(t.id, forKey: .id)
        try c.encode(t.title, forKey: .title)
        try c.encode(t.notes, forKey: .notes)
        try c.encode(t.kind.rawValue, forKey: .kind)
        try c.encodeOrNull(t.category, forKey: .category)
        try c.encode(t.tags, forKey: .tags)
        try c.encode(t.priority, forKey: .priority)
        try c.encodeOrNull(t.parent, forKey: .parent)
        try c.encodeOrNull(t.location, forKey: .location)
        try c.encodeOrNull(t.url, forKey: .url)
        try c.encode(t.status.rawValue, forKey: .status)
        try c.encodeOrNull(t.completedAt.map(ISO8601.string), forKey: .completedAt)
        try c.encode(ISO8601.string(t.created), forKey: .created)
        try c.encode(ISO8601.string(t.modified), forKey: .modified)
        try c.encode(t.tz, forKey: .tz)
        try c.encode(t.allDay, forKey: .allDay)
        try c.encodeOrNull(t.durationMin, forKey: .durationMin)
        try c.encodeOrNull(t.rrule, forKey: .rrule)
        try c.encode(t.exdates.map { Self.occurrenceText($0, zone: z) }, forKey: .exdates)
        try c.encode(t.rdates.map { Self.occurrenceText($0, zone: z) }, forKey: .rdates)
        try c.encode(t.repeatFromCompletion ? "completion" : "due", forKey: .repeatFrom)
        try c.encode(t.reminders.map(\.json), forKey: .reminders)
        try c.encode(channels, forKey: .channels)
        try c.encode(t.source, forKey: .source)
        try c.encode(t.source.hasPrefix("feed:"), forKey: .readOnly)
        try AgendaRow.times(&c, t.start, .start, .startLocal, zone: z, allDay: t.allDay)
        try AgendaRow.times(&c, t.due, .due, .dueLocal, zone: z, allDay: t.allDay)
        let end: WallTime? = t.kind == .event ? t.start.map { $0.adding(seconds: t.endOffset ?? 0) } : nil
        try AgendaRow.times(&c, end, .end, .endLocal, zone: z, allDay: t.allDay)
        try c.encode(current?.isOverdue(now: now) ?? false, forKey: .overdue)
        if let next { try c.encode(AgendaRow(next, now: now), forKey: .next) }
        if !t.overrides.isEmpty {
            var list = c.nestedUnkeyedContainer(forKey: .overrides)
            for (key, o) in t.overrides.sorted(by: { $0.key < $1.key }) {
                guard let wall = WallTime(key) else { continue }
                var item = list.nestedContainer(keyedBy: OverrideKeys.self)
                try item.encode(Self.occurrenceText(wall, zone: z), forKey: .occurrence)
                if let v = o.title { try item.encode(v, forKey: .title) }
                if let v = o.status { try item.encode(v.rawValue, forKey: .status) }
                if let v = o.location { try item.encode(v, forKey: .location) }
                if let v = o.notes { try item.encode(v, forKey: .notes) }
                try AgendaRow.times(&item, o.start.flatMap { WallTime($0) }, .start, .startLocal, zone: z, allDay: t.allDay)
                if o.due != nil { try AgendaRow.times(&item, o.due.flatMap { WallTime($0) }, .due, .dueLocal, zone: z, allDay: t.allDay) }
                if o.end != nil { try AgendaRow.times(&item, o.end.flatMap { WallTime($0) }, .end, .endLocal, zone: z, allDay: t.allDay) }
            }
        }
        if let deleted = t.deletedAt { try c.encode(ISO8601.string(deleted), forKey: .deletedAt) }
    }

    static func occurrenceText(_ wall: WallTime, zone: Zone) -> String {
        wall.isDate ? wall.text : TimeInput.utcString(zone.instant(wall))
    }

}

/// `tasks.list`'s result, written straight into the reply.
struct TaskListResult: CallResult, Encodable {
    var tasks: [TaskRow]
    var count: Int
    var truncated: Bool
}
