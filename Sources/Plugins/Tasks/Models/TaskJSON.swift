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

    /// A task as a value (`TaskRow` writes the fields); `current` when the caller has it already.
    static func task(_ t: TaskItem, now: Date, defaultChannels: [String], current known: Occurrence?? = nil) -> JSONValue {
        TaskRow(t, now: now, defaultChannels: defaultChannels, current: known).json
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
