import Foundation
import GRDB
import PluginKit

/// Parameters → a task: every field checked, every problem a -32602 naming the field.
enum TaskInput {
    static let clearable: Set<String> = [
        "notes", "category", "tags", "priority", "parent", "location", "url", "start", "due", "end", "duration_min", "rrule",
        "exdates", "rdates", "reminders", "channels",
    ]

    static func priority(_ value: JSONValue) throws(RPCError) -> Int {
        if let s = value.stringValue {
            switch s.lowercased() {
            case "high": return 1
            case "medium": return 5
            case "low": return 9
            case "none": return 0
            default:
                if let n = Int(s), (0...9).contains(n) { return n }
                throw TasksParams.priority.invalid("must be 0–9 (1 highest, 0 none) or high, medium, low; got '\(s)'")
            }
        }
        guard let n = value.intValue, (0...9).contains(n) else {
            throw TasksParams.priority.invalid("must be 0–9 (1 highest, 0 none) or high, medium, low")
        }
        return Int(n)
    }

    static func reminders(_ value: JSONValue) throws(RPCError) -> [Reminder] {
        guard let array = value.arrayValue else { throw TasksParams.reminders.invalid("must be a list of {before_min, of} or {at}") }
        var result: [Reminder] = []
        for (i, item) in array.enumerated() {
            let name = "reminders[\(i)]"
            guard let object = item.objectValue else {
                throw RPCError.invalidParam(name, "must be {\"before_min\": N, \"of\": \"start\"|\"due\"} or {\"at\": instant}")
            }
            for key in object.keys where !["before_min", "of", "at"].contains(key) {
                throw RPCError.invalidParam("\(name).\(key)", "is not a reminder field (before_min, of, at)")
            }
            if let at = object["at"], at != .null {
                guard object["before_min"] == nil, object["of"] == nil else {
                    throw RPCError.invalidParam(name, "gives both 'at' and 'before_min'/'of'; use one")
                }
                guard let text = at.stringValue, let instant = TimeInput.instant(text) else {
                    throw RPCError.invalidParam("\(name).at", "must be an ISO 8601 instant with an offset or Z")
                }
                result.append(Reminder(at: instant))
                continue
            }
            guard let before = object["before_min"] else {
                throw RPCError.invalidParam(name, "has no anchor: give {\"before_min\": N, \"of\": \"start\"|\"due\"} or {\"at\": instant}")
            }
            guard let minutes = before.intValue, (-525_600...525_600).contains(minutes) else {
                throw RPCError.invalidParam("\(name).before_min", "must be whole minutes (negative = after)")
            }
            var anchor: Reminder.Anchor?
            if let of = object["of"], of != .null {
                guard let text = of.stringValue, let a = Reminder.Anchor(rawValue: text) else {
                    throw RPCError.invalidParam("\(name).of", "must be 'start' or 'due'")
                }
                anchor = a
            }
            result.append(Reminder(beforeMin: Int(minutes), of: anchor))
        }
        return result
    }

    /// Applies the given fields (and `clear`) to `task`; `now` stamps `modified`.
    static func apply(_ params: Params, to task: inout TaskItem, db: Database) throws {
        if let clear = params[TasksParams.clear] {
            for name in clear {
                guard clearable.contains(name) else {
                    throw TasksParams.clear.invalid("cannot clear '\(name)'; one of \(clearable.sorted().joined(separator: ", "))")
                }
                switch name {
                case "notes": task.notes = ""
                case "category": task.category = nil
                case "tags": task.tags = []
                case "priority": task.priority = 0
                case "parent": task.parent = nil
                case "location": task.location = nil
                case "url": task.url = nil
                case "start": task.start = nil
                case "due": task.due = nil
                case "end": task.end = nil
                case "duration_min": task.durationMin = nil
                case "rrule": task.rrule = nil
                case "exdates": task.exdates = []
                case "rdates": task.rdates = []
                case "reminders": task.reminders = []
                case "channels": task.channels = nil
                default: break
                }
            }
        }
        if let v = params[TasksParams.title] {
            let t = v.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !t.isEmpty else { throw TasksParams.title.invalid("must not be empty") }
            task.title = t
        }
        // The manifest allows only the kinds there are.
        if let v = params[TasksParams.kind], let k = TaskKind(rawValue: v) { task.kind = k }
        if let v = params[TasksParams.notes] { task.notes = v }
        if let v = params[TasksParams.category] {
            let name = v.lowercased()
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM tasks_categories WHERE name = ?", arguments: [name]) == true else {
                let known = try String.fetchAll(db, sql: "SELECT name FROM tasks_categories ORDER BY name")
                throw TasksParams.category.invalid("'\(v)' is not a category (\(known.joined(separator: ", "))); add it with tasks.categories.add")
            }
            task.category = name
        }
        if let v = params[TasksParams.tags] { task.tags = v }
        if let v = params[TasksParams.priority] { task.priority = try priority(v) }
        if let given = params[TasksParams.parent] {
            let v = try TasksService.taskID(db, given, param: TasksParams.parent.name)
            guard v != task.id else { throw TasksParams.parent.invalid("a task cannot be its own parent") }
            guard try TaskItem.find(db, v) != nil else { throw TasksParams.parent.invalid("no task '\(v)'") }
            var cursor: String? = v
            var hops = 0
            while let c = cursor, hops < 100 {
                if c == task.id { throw TasksParams.parent.invalid("would make a cycle of sub-tasks") }
                cursor = try String.fetchOne(db, sql: "SELECT parent FROM tasks_items WHERE id = ?", arguments: [c])
                hops += 1
            }
            task.parent = v
        }
        if let v = params[TasksParams.location] { task.location = v }
        if let v = params[TasksParams.url] {
            guard let u = URL(string: v), u.scheme != nil else { throw TasksParams.url.invalid("'\(v)' is not a URL") }
            task.url = v
        }
        if let v = params[TasksParams.tz] {
            guard let z = Zone(identifier: v) else { throw TasksParams.tz.invalid("'\(v)' is not an IANA time zone (e.g. Europe/Prague)") }
            task.tz = z.identifier
        }
        let zone = task.zone
        if let v = params[TasksParams.allDay] { task.allDay = v }
        var sawDate = false
        var sawTime = false
        func time(_ key: Param<String>) throws(RPCError) -> WallTime? {
            guard let text = params[key] else { return nil }
            let w = try TimeInput.parse(text, param: key.name, zone: zone)
            if w.isDate { sawDate = true } else { sawTime = true }
            return w
        }
        if let w = try time(TasksParams.start) { task.start = w }
        if let w = try time(TasksParams.due) { task.due = w }
        if let w = try time(TasksParams.end) { task.end = w }
        if params[TasksParams.allDay] == nil && sawDate && !sawTime { task.allDay = true }
        if let n = params[TasksParams.durationMin] {
            guard n <= 525_600 * 5 else { throw RPCError.invalidParam(TasksParams.durationMin.name, "must be at most five years of minutes") }
            task.durationMin = Int(n)
        }
        if let v = params[TasksParams.rrule] { task.rrule = try RecurrenceRule(v).text }
        if let list = params[TasksParams.exdates] {
            task.exdates = try list.map { s throws(RPCError) in try TimeInput.parse(s, param: TasksParams.exdates.name, zone: zone) }
        }
        if let list = params[TasksParams.rdates] {
            task.rdates = try list.map { s throws(RPCError) in try TimeInput.parse(s, param: TasksParams.rdates.name, zone: zone) }
        }
        // The manifest allows only due and completion.
        if let v = params[TasksParams.repeatFrom] { task.repeatFromCompletion = v == "completion" }
        if let v = params[TasksParams.reminders] { task.reminders = try reminders(v) }
        if let minutes = params[TasksParams.remindBeforeMin] {
            let anchor: Reminder.Anchor = task.kind == .todo && task.due != nil ? .due : .start
            guard (anchor == .due ? task.due : task.start) != nil else {
                throw TasksParams.remindBeforeMin.invalid("needs a due (to-dos) or a start (events) to count back from")
            }
            task.reminders.append(Reminder(beforeMin: Int(minutes), of: anchor))
        }
        if let v = params[TasksParams.channels] {
            for c in v where NoticeChannel(rawValue: c) == nil {
                throw TasksParams.channels.invalid("'\(c)' is not a channel; use stdout and/or mail")
            }
            task.channels = Array(Set(v)).sorted()
        }
        // The manifest allows only the statuses there are.
        if let v = params[TasksParams.status], let s = TaskStatus(rawValue: v) { task.status = s }
    }

    /// The whole item's rules, after the fields are merged.
    static func validate(_ t: inout TaskItem, now: Date) throws(RPCError) {
        if t.allDay {
            for (name, w) in [("start", t.start), ("due", t.due), ("end", t.end)] {
                if let w, !w.isDate { throw RPCError.invalidParam(name, "must be a date (YYYY-MM-DD) for an all-day item") }
            }
        } else {
            for (name, w) in [("start", t.start), ("due", t.due), ("end", t.end)] {
                if let w, w.isDate { throw RPCError.invalidParam(name, "is a date, but the item is not all-day; give a time or all_day=true") }
            }
        }
        switch t.kind {
        case .todo:
            if t.end != nil { throw TasksParams.end.invalid("a to-do has no end; use due") }
            if t.due != nil && t.durationMin != nil {
                throw TasksParams.durationMin.invalid("a to-do cannot have both due and a duration (RFC 5545)")
            }
            if t.durationMin != nil && t.start == nil { throw TasksParams.durationMin.invalid("a to-do's duration needs a start") }
        case .event:
            guard t.start != nil else { throw TasksParams.start.invalid("an event needs a start") }
            if t.due != nil { throw TasksParams.due.invalid("an event has no due; use end or duration_min") }
            if t.end != nil && t.durationMin != nil { throw TasksParams.durationMin.invalid("give end or duration_min, not both") }
        }
        if let s = t.start, let d = t.due, d < s { throw TasksParams.due.invalid("is before start") }
        if let s = t.start, let e = t.end, e < s || (t.allDay && e == s) {
            throw TasksParams.end.invalid(t.allDay ? "must be after start (all-day end is exclusive)" : "is before start")
        }
        if (t.rrule != nil || !t.rdates.isEmpty) && t.anchor == nil {
            throw TasksParams.rrule.invalid("a repeating item needs a start or a due")
        }
        if let rule = t.rrule, let until = try? RecurrenceRule(rule).part("UNTIL"), let anchor = t.anchor {
            if anchor.isDate != !until.contains("T") && anchor.isDate {
                throw TasksParams.rrule.invalid("part UNTIL must be a date (YYYYMMDD) for an all-day item")
            }
        }
        for (i, r) in t.reminders.enumerated() where r.at == nil {
            let anchor = r.of ?? (t.kind == .todo && t.due != nil ? .due : .start)
            if anchor == .due && t.due == nil {
                throw RPCError.invalidParam("\(TasksParams.reminders.name)[\(i)].of", "is 'due', but the item has no due")
            }
            if anchor == .start && t.start == nil {
                throw RPCError.invalidParam("\(TasksParams.reminders.name)[\(i)].of", "is 'start', but the item has no start")
            }
            t.reminders[i].of = anchor
        }
        if t.status == .completed && t.completedAt == nil { t.completedAt = now }
        if t.status != .completed { t.completedAt = nil }
    }
}
