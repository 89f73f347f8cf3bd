import Foundation
import PluginKit

/// A task as results show it (the contract's fields): UTC instants with `*_local` wall times
/// and `tz`, dates for all-day items; `next` for a repeating item, its overridden occurrences, and
/// `deleted_at` for one in the bin. Written straight into the reply by `JSONDirectWriter`
/// (`tasks.list`'s 500 rows, and the single task `tasks.add`, `get`, `update`, `complete`, `reopen` and
/// `restore` answer).
struct TaskRow: CallResult {
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

    func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        JSONDirectWriter.write(into: &out, scrubber: scrubber) { write(to: $0) }
    }

    func write(to w: JSONDirectWriter) {
        let t = task
        let z = t.zone
        w.beginObject()
        w.member("id", t.id)
        w.member("title", t.title)
        w.member("notes", t.notes)
        w.member("kind", t.kind.rawValue)
        w.member("category", t.category)
        w.member("tags", strings: t.tags)
        w.member("priority", t.priority)
        w.member("parent", t.parent)
        w.member("location", t.location)
        w.member("url", t.url)
        w.member("status", t.status.rawValue)
        w.member("completed_at", instant: t.completedAt)
        w.member("created", instant: t.created)
        w.member("modified", instant: t.modified)
        w.member("tz", t.tz)
        w.member("all_day", t.allDay)
        w.member("duration_min", t.durationMin)
        w.member("rrule", t.rrule)
        for (name, dates) in [("exdates", t.exdates), ("rdates", t.rdates)] as [(StaticString, [WallTime])] {
            w.key(name)
            w.beginArray()
            for date in dates {
                w.element()
                w.occurrenceText(date, zone: z)
            }
            w.endArray()
        }
        w.member("repeat_from", t.repeatFromCompletion ? "completion" : "due")
        w.key("reminders")
        w.beginArray()
        for reminder in t.reminders {
            w.element()
            reminder.write(to: w)
        }
        w.endArray()
        w.member("channels", strings: channels)
        w.member("source", t.source)
        w.member("read_only", t.source.hasPrefix("feed:"))
        w.times(t.start, "start", "start_local", zone: z, allDay: t.allDay)
        w.times(t.due, "due", "due_local", zone: z, allDay: t.allDay)
        let end: WallTime? = t.kind == .event ? t.start.map { $0.adding(seconds: t.endOffset ?? 0) } : nil
        w.times(end, "end", "end_local", zone: z, allDay: t.allDay)
        w.member("overdue", current?.isOverdue(now: now) ?? false)
        if let next {
            w.key("next")
            AgendaRow(next, now: now).write(to: w)
        }
        if !t.overrides.isEmpty {
            w.key("overrides")
            w.beginArray()
            for (key, o) in t.overrides.sorted(by: { $0.key < $1.key }) {
                guard let wall = WallTime(key) else { continue }
                w.element()
                w.beginObject()
                w.key("occurrence")
                w.occurrenceText(wall, zone: z)
                if let v = o.title {
                    w.member("title", v)
                }
                if let v = o.status {
                    w.member("status", v.rawValue)
                }
                if let v = o.location {
                    w.member("location", v)
                }
                if let v = o.notes {
                    w.member("notes", v)
                }
                w.times(o.start.flatMap { WallTime($0) }, "start", "start_local", zone: z, allDay: t.allDay)
                if o.due != nil { w.times(o.due.flatMap { WallTime($0) }, "due", "due_local", zone: z, allDay: t.allDay) }
                if o.end != nil { w.times(o.end.flatMap { WallTime($0) }, "end", "end_local", zone: z, allDay: t.allDay) }
                w.endObject()
            }
            w.endArray()
        }
        if let deleted = t.deletedAt {
            w.member("deleted_at", instant: deleted)
        }
        w.endObject()
    }
}

/// `tasks.list`'s result, written straight into the reply.
struct TaskListResult: CallResult {
    var tasks: [TaskRow]
    var count: Int
    var truncated: Bool

    func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        JSONDirectWriter.write(into: &out, scrubber: scrubber) { w in
            // A task is about a kilobyte.
            w.reserve(tasks.count * 1100)
            w.beginObject()
            w.member("tasks", each: tasks) { $0.write(to: w) }
            w.member("count", count)
            w.member("truncated", truncated)
            w.endObject()
        }
    }
}

// The list's rows and a single task are written by `JSONDirectWriter` (the benchmark's Codable
// path was most of `tasks.list`'s time), so their schemas are declared here, beside the writer;
// the result-schema check holds the writer to them. Every other result of the plugin is a
// `ResultObject`.
extension JSONSchema {
    /// A start, due or end: a date for all-day items, else an instant in UTC.
    static let taskWhen = JSONSchema.anyOf([.date, .dateTime]).nullable
    /// Its wall-clock twin in the task's zone (`2026-12-01T09:00`), or the date.
    static let taskLocal = JSONSchema.string.nullable.described("wall-clock time in tz (YYYY-MM-DDTHH:MM), or the date for all-day items")
    static let occurrenceKey = JSONSchema.anyOf([.date, .dateTime]).described("an occurrence's original start (RECURRENCE-ID)")
}

extension TaskRow: ResultDescribing {
    static let reminder = JSONSchema.anyOf([
        .object(["before_min": .integer, "of": .enumeration(["start", "due"])]),
        .object(["at": .dateTime]),
    ])

    static let resultSchema = JSONSchema.object([
        "id": .string, "title": .string, "notes": .string, "kind": .enumeration(TaskKind.self), "category": JSONSchema.string.nullable,
        "tags": .array(.string), "priority": JSONSchema.integer.described("1 (highest) … 9, 0 = none"), "parent": JSONSchema.string.nullable,
        "location": JSONSchema.string.nullable, "url": JSONSchema.string.nullable, "status": .enumeration(TaskStatus.self),
        "completed_at": JSONSchema.dateTime.nullable, "created": .dateTime, "modified": .dateTime, "tz": .string, "all_day": .boolean,
        "duration_min": JSONSchema.integer.nullable, "rrule": JSONSchema.string.nullable, "exdates": .array(.occurrenceKey),
        "rdates": .array(.occurrenceKey), "repeat_from": .enumeration(["due", "completion"]), "reminders": .array(reminder),
        "channels": .array(.string), "source": JSONSchema.string.described("local, feed:<name> or caldav:<account>"),
        "read_only": .boolean, "start": .taskWhen, "start_local": .taskLocal, "due": .taskWhen, "due_local": .taskLocal, "end": .taskWhen,
        "end_local": .taskLocal, "overdue": .boolean, "next?": AgendaRow.resultSchema.described("a repeating task's current occurrence"),
        "overrides?": .array(
            .object([
                "occurrence": .occurrenceKey, "title?": .string, "status?": .enumeration(TaskStatus.self), "location?": .string,
                "notes?": .string, "start": .taskWhen, "start_local": .taskLocal, "due?": .taskWhen, "due_local?": .taskLocal, "end?": .taskWhen,
                "end_local?": .taskLocal,
            ])),
        "deleted_at?": .dateTime,
    ]).described("the whole task: times in UTC with their *_local twins in tz, dates for all-day items")
}

extension TaskListResult: ResultDescribing {
    static let resultSchema = JSONSchema.object([
        "tasks": .array(TaskRow.resultSchema), "count": JSONSchema.integer.described("how many matched"),
        "truncated": JSONSchema.boolean.described("more matched than limit"),
    ]).described("tasks sorted by the next start or due, then priority")
}
