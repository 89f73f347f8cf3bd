import Foundation
import PluginKit

/// The contract's output: UTC instants (`…Z`) with `*_local` wall times and `tz`; dates for all-day.
enum TaskJSON {
    /// A time field and its `_local` twin.
    enum TimeField {
        case start, due, end

        var keys: (instant: String, local: String) {
            switch self {
            case .start: ("start", "start_local")
            case .due: ("due", "due_local")
            case .end: ("end", "end_local")
            }
        }
    }

    static func times(_ fields: inout [String: JSONValue], _ field: TimeField, _ wall: WallTime?, zone: Zone, allDay: Bool) {
        let (name, local) = field.keys
        guard let wall else {
            fields[name] = .null
            fields[local] = .null
            return
        }
        if allDay || wall.isDate {
            let date = JSONValue.string(wall.asDate.text)
            fields[name] = date
            fields[local] = date
        } else {
            fields[name] = .string(TimeInput.utcString(zone.instant(wall)))
            fields[local] = .string(wall.text)
        }
    }

    /// `current` when the caller has it already (each expansion is a libical iterator).
    static func task(_ t: TaskItem, now: Date, defaultChannels: [String], current known: Occurrence?? = nil) -> JSONValue {
        let z = t.zone
        var f: [String: JSONValue] = [
            "id": .string(t.id), "title": .string(t.title), "notes": .string(t.notes), "kind": .string(t.kind.rawValue),
            "category": t.category.map(JSONValue.string) ?? .null, "tags": .array(t.tags.map(JSONValue.string)),
            "priority": .count(t.priority), "parent": t.parent.map(JSONValue.string) ?? .null,
            "location": t.location.map(JSONValue.string) ?? .null, "url": t.url.map(JSONValue.string) ?? .null,
            "status": .string(t.status.rawValue),
            "completed_at": t.completedAt.map { .string(ISO8601.string($0)) } ?? .null,
            "created": .string(ISO8601.string(t.created)), "modified": .string(ISO8601.string(t.modified)),
            "tz": .string(t.tz), "all_day": .bool(t.allDay),
            "duration_min": t.durationMin.map { .count($0) } ?? .null,
            "rrule": t.rrule.map(JSONValue.string) ?? .null,
            "exdates": .array(t.exdates.map { occurrenceText($0, zone: z) }),
            "rdates": .array(t.rdates.map { occurrenceText($0, zone: z) }),
            "repeat_from": .string(t.repeatFromCompletion ? "completion" : "due"),
            "reminders": .array(t.reminders.map(\.json)),
            "channels": .array((t.channels ?? defaultChannels).map(JSONValue.string)),
            "source": .string(t.source),
            "read_only": .bool(t.source.hasPrefix("feed:")),
        ]
        times(&f, .start, t.start, zone: z, allDay: t.allDay)
        times(&f, .due, t.due, zone: z, allDay: t.allDay)
        let end: WallTime? = t.kind == .event ? t.start.map { $0.adding(seconds: t.endOffset ?? 0) } : nil
        times(&f, .end, end, zone: z, allDay: t.allDay)
        let current = known ?? t.currentOccurrence(now: now)
        f["overdue"] = .bool(current?.isOverdue(now: now) ?? false)
        if t.isRecurring, let current {
            f["next"] = occurrence(current, now: now)
        }
        if !t.overrides.isEmpty {
            f["overrides"] = .array(
                t.overrides.sorted { $0.key < $1.key }.compactMap { key, o in
                    guard let wall = WallTime(key) else { return nil }
                    var item: [String: JSONValue] = ["occurrence": occurrenceText(wall, zone: z)]
                    if let v = o.title { item["title"] = .string(v) }
                    if let v = o.status { item["status"] = .string(v.rawValue) }
                    if let v = o.location { item["location"] = .string(v) }
                    if let v = o.notes { item["notes"] = .string(v) }
                    times(&item, .start, o.start.flatMap { WallTime($0) }, zone: z, allDay: t.allDay)
                    if o.due != nil { times(&item, .due, o.due.flatMap { WallTime($0) }, zone: z, allDay: t.allDay) }
                    if o.end != nil { times(&item, .end, o.end.flatMap { WallTime($0) }, zone: z, allDay: t.allDay) }
                    return .object(item)
                })
        }
        if let deleted = t.deletedAt { f["deleted_at"] = .string(ISO8601.string(deleted)) }
        return .object(f)
    }

    static func occurrenceText(_ wall: WallTime, zone: Zone) -> JSONValue {
        .string(wall.isDate ? wall.text : TimeInput.utcString(zone.instant(wall)))
    }

    /// One agenda row (contract fields), plus `occurrence` (the RECURRENCE-ID) and `due` for to-dos.
    static func occurrence(_ o: Occurrence, now: Date) -> JSONValue {
        let t = o.task
        let z = t.zone
        // Sized for every field at once: growing the dictionary twice per row showed in perf.
        var f = [String: JSONValue](minimumCapacity: 18)
        f["id"] = .string(t.id)
        f["title"] = .string(o.title)
        f["kind"] = .string(t.kind.rawValue)
        f["all_day"] = .bool(t.allDay)
        f["tz"] = .string(t.tz)
        f["status"] = .string(o.status.rawValue)
        f["overdue"] = .bool(o.isOverdue(now: now))
        f["source"] = .string(t.source)
        f["category"] = t.category.map(JSONValue.string) ?? .null
        let startWall = o.start ?? o.due
        times(&f, .start, startWall, zone: z, allDay: t.allDay)
        times(&f, .end, t.kind == .event ? o.end : o.due, zone: z, allDay: t.allDay)
        if t.kind == .todo { times(&f, .due, o.due, zone: z, allDay: t.allDay) }
        if let rid = o.recurrenceID { f["occurrence"] = occurrenceText(rid, zone: z) }
        if let l = o.location { f["location"] = .string(l) }
        return .object(f)
    }
}
