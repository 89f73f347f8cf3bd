import Foundation
import PluginKit

/// `tasks.agenda`'s result, written straight into the reply (a month is about 20 000 rows: the
/// `JSONValue` tree and its sorted writing were most of the call's time).
struct AgendaResult: CallResult, Encodable {
    var occurrences: [AgendaRow]
    var truncated: Bool
    /// Where to continue from when `truncated` (null otherwise).
    var nextFrom: Date?

    enum Keys: String, CodingKey {
        case occurrences, truncated
        case nextFrom = "next_from"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(occurrences, forKey: .occurrences)
        try c.encode(truncated, forKey: .truncated)
        if let nextFrom { try c.encode(ISO8601.string(nextFrom), forKey: .nextFrom) } else { try c.encodeNil(forKey: .nextFrom) }
    }
}

/// One occurrence as the agenda shows it (the contract's fields), plus `occurrence` (the
/// RECURRENCE-ID) for a repeat and `due` for a to-do. Times are UTC instants with their
/// `_local` wall times, or dates for all-day items.
struct AgendaRow: Encodable {
    let occurrence: Occurrence
    let overdue: Bool

    init(_ occurrence: Occurrence, now: Date) {
        self.occurrence = occurrence
        overdue = occurrence.isOverdue(now: now)
    }

    enum Keys: String, CodingKey {
        case id, title, kind, tz, status, overdue, source, category, location, occurrence
        case allDay = "all_day"
        case start, end, due
        case startLocal = "start_local", endLocal = "end_local", dueLocal = "due_local"
    }

    /// The wall time where the row starts (a to-do without a start starts at its due).
    var startWall: WallTime? { occurrence.start ?? occurrence.due }
    var endWall: WallTime? { occurrence.task.kind == .event ? occurrence.end : occurrence.due }

    func encode(to encoder: any Encoder) throws {
        let o = occurrence
        let t = o.task
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(t.id, forKey: .id)
        try c.encode(o.title, forKey: .title)
        try c.encode(t.kind.rawValue, forKey: .kind)
        try c.encode(t.allDay, forKey: .allDay)
        try c.encode(t.tz, forKey: .tz)
        try c.encode(o.status.rawValue, forKey: .status)
        try c.encode(overdue, forKey: .overdue)
        try c.encode(t.source, forKey: .source)
        if let category = t.category { try c.encode(category, forKey: .category) } else { try c.encodeNil(forKey: .category) }
        try Self.times(&c, startWall, .start, .startLocal, zone: t.zone, allDay: t.allDay)
        try Self.times(&c, endWall, .end, .endLocal, zone: t.zone, allDay: t.allDay)
        if t.kind == .todo { try Self.times(&c, o.due, .due, .dueLocal, zone: t.zone, allDay: t.allDay) }
        if let rid = o.recurrenceID {
            try c.encode(rid.isDate ? rid.text : TimeInput.utcString(t.zone.instant(rid)), forKey: .occurrence)
        }
        if let location = o.location { try c.encode(location, forKey: .location) }
    }

    /// A time and its `_local` twin: a UTC instant and the wall time, or a date twice for an
    /// all-day item, or two nulls.
    static func times<Key: CodingKey>(
        _ c: inout KeyedEncodingContainer<Key>, _ wall: WallTime?, _ instant: Key, _ local: Key, zone: Zone, allDay: Bool
    ) throws {
        guard let wall else {
            try c.encodeNil(forKey: instant)
            try c.encodeNil(forKey: local)
            return
        }
        if allDay || wall.isDate {
            let date = wall.asDate.text
            try c.encode(date, forKey: instant)
            try c.encode(date, forKey: local)
        } else {
            try c.encode(TimeInput.utcString(zone.instant(wall)), forKey: instant)
            try c.encode(wall.text, forKey: local)
        }
    }
}
