import Foundation
import PluginKit

/// `tasks.agenda`'s result, written straight into the reply by `JSONDirectWriter` (a month is
/// about 20 000 rows and 8 MB: the `JSONValue` tree, and then `Encoder`'s per-field dispatch,
/// were most of the call's time).
struct AgendaResult: CallResult {
    /// The occurrences found, and the positions of those shown in their order: rows are made as
    /// they are written, in parts at once (making 20 000 first took as long as sorting them).
    let found: [Occurrence]
    let shown: [Int]
    /// The time of asking (for `overdue`).
    let now: Date
    var truncated: Bool
    /// Where to continue from when `truncated` (null otherwise).
    var nextFrom: Date?

    var occurrences: [AgendaRow] { shown.map { AgendaRow(found[$0], now: now) } }

    func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        JSONDirectWriter.write(into: &out, scrubber: scrubber) { w in
            w.beginObject()
            // A row is about 400 bytes.
            w.member("occurrences", eachInParts: shown, bytesPerElement: 450) { [found, now] position, w in
                AgendaRow(found[position], now: now).write(to: w)
            }
            w.member("truncated", truncated)
            w.member("next_from", instant: nextFrom)
            w.endObject()
        }
    }
}

/// One occurrence as the agenda shows it (the contract's fields), plus `occurrence` (the
/// RECURRENCE-ID) for a repeat and `due` for a to-do. Times are UTC instants with their
/// `_local` wall times, or dates for all-day items.
struct AgendaRow: Sendable {
    let occurrence: Occurrence
    /// The time of asking: whether the row is overdue is worked out as it is written (in parts
    /// at once, see `member(_:eachInParts:)`).
    let now: Date

    init(_ occurrence: Occurrence, now: Date) {
        self.occurrence = occurrence
        self.now = now
    }

    var overdue: Bool { occurrence.isOverdue(now: now) }

    /// The wall time where the row starts (a to-do without a start starts at its due).
    var startWall: WallTime? { occurrence.start ?? occurrence.due }
    var endWall: WallTime? { occurrence.task.kind == .event ? occurrence.end : occurrence.due }

    func write(to w: JSONDirectWriter) {
        let o = occurrence
        let t = o.task
        w.beginObject()
        w.member("id", t.id)
        w.member("title", o.title)
        w.member("kind", t.kind.rawValue)
        w.member("all_day", t.allDay)
        w.member("tz", t.tz)
        w.member("status", o.status.rawValue)
        w.member("overdue", overdue)
        w.member("source", t.source)
        w.member("category", t.category)
        w.times(startWall, "start", "start_local", zone: t.zone, allDay: t.allDay)
        w.times(endWall, "end", "end_local", zone: t.zone, allDay: t.allDay)
        if t.kind == .todo { w.times(o.due, "due", "due_local", zone: t.zone, allDay: t.allDay) }
        if let rid = o.recurrenceID {
            w.key("occurrence")
            w.occurrenceText(rid, zone: t.zone)
        }
        if let location = o.location {
            w.member("location", location)
        }
        w.endObject()
    }
}

extension JSONDirectWriter {
    /// A wall time as stored (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS`), with `Z` when it is a UTC reading.
    func wall(_ wall: WallTime, utc: Bool = false) {
        dateTime(
            year: wall.year, month: wall.month, day: wall.day, hour: wall.isDate ? nil : wall.hour, minute: wall.minute, second: wall.second,
            utc: utc)
    }

    /// An instant as `TimeInput.utcString` writes it.
    func utcInstant(_ date: Date) {
        wall(WallTime(wallSeconds: Int64(date.timeIntervalSince1970.rounded(.down))), utc: true)
    }

    /// A time and its `_local` twin: a UTC instant and the wall time, or a date twice for an
    /// all-day item, or two nulls.
    func times(_ wall: WallTime?, _ instant: StaticString, _ local: StaticString, zone: Zone, allDay: Bool) {
        key(instant)
        guard let wall else {
            null()
            key(local)
            null()
            return
        }
        if allDay || wall.isDate {
            self.wall(wall.asDate)
            key(local)
            self.wall(wall.asDate)
        } else {
            utcInstant(zone.instant(wall))
            key(local)
            self.wall(wall)
        }
    }

    /// An occurrence's original time (RECURRENCE-ID): a date, or a UTC instant.
    func occurrenceText(_ wall: WallTime, zone: Zone) {
        if wall.isDate { self.wall(wall) } else { utcInstant(zone.instant(wall)) }
    }
}

// Written by `JSONDirectWriter` (see `AgendaResult`), so declared beside the writer; the
// result-schema check holds the writer to it.
extension AgendaRow: ResultDescribing {
    static let resultSchema = JSONSchema.object([
        "id": .string, "title": .string, "kind": .enumeration(TaskKind.self), "all_day": .boolean, "tz": .string,
        "status": .enumeration(TaskStatus.self), "overdue": .boolean, "source": .string, "category": JSONSchema.string.nullable,
        "start": .taskWhen, "start_local": .taskLocal, "end": .taskWhen, "end_local": .taskLocal, "due?": .taskWhen, "due_local?": .taskLocal,
        "occurrence?": .occurrenceKey, "location?": .string,
    ])
}

extension AgendaResult: ResultDescribing {
    static let resultSchema = JSONSchema.object([
        "occurrences": .array(AgendaRow.resultSchema),
        "truncated": JSONSchema.boolean.described("the limit was reached before the window's end"),
        "next_from": JSONSchema.dateTime.nullable.described("when truncated: the from to continue with"),
    ])
}
