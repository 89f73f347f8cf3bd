import PluginKit

/// What a duty period was (ORO.FTL.205–230). Every kind counts in full towards the duty limits of
/// ORO.FTL.210, except standby away from the airport, of which CS FTL.1.225(b)(2) counts a quarter.
enum DutyKind: String, CaseIterable, Sendable, Encodable, ResultDescribing {
    case flight, standby, ground, positioning, training
    case airportStandby = "airport_standby"

    static let names = allCases.map(\.rawValue)

    /// The share of its time that counts as duty for ORO.FTL.210.
    var countedShare: Double { self == .standby ? 0.25 : 1 }
}

/// A duty period: its own record, so a standby or a ground duty can be logged and a duty of
/// several legs counts once. Flights belong to the duty whose span holds their block-off time.
struct Duty: Sendable {
    /// Who keeps the record: the person (`duty.add`, or a record they changed), or the flights,
    /// whose own duty times make it and make it again whenever they change.
    enum Origin: String, Sendable, CaseIterable, Encodable, ResultDescribing {
        case person, flights
    }

    var id: Int64
    var kind: DutyKind
    var start: UTCMinute
    var end: UTCMinute
    var remarks: String
    var origin = Origin.person

    /// The longest duty a record may span: longer is a typing error, not a duty. Every record
    /// keeps to it, so a search for the duties around a time reads only the index from that time
    /// less this much (`start_at > t - longestMinutes`), not every earlier duty.
    static let longestMinutes = 36 * 60

    init(id: Int64 = 0, kind: DutyKind, start: UTCMinute, end: UTCMinute, remarks: String) {
        (self.id, self.kind, self.start, self.end, self.remarks) = (id, kind, start, end, remarks)
    }

    init(row: Row) {
        id = row["id"]
        kind = DutyKind(rawValue: row["kind"]) ?? .flight
        start = UTCMinute(row["start_at"])
        end = UTCMinute(row["end_at"])
        remarks = row["remarks"]
        origin = Origin(rawValue: row["origin"]) ?? .person
    }

    var minutes: Int { end.value - start.value }

    static func find(_ db: Database, _ id: Int64) throws -> Duty? {
        try Row.fetchOne(db, sql: "SELECT * FROM logbook_duties WHERE id = ?", arguments: [id]).map(Duty.init)
    }

    /// A duty this one would overlap: a pilot is on one duty at a time, and two would count twice.
    func overlapping(_ db: Database) throws -> Duty? {
        try Row.fetchOne(
            db,
            sql: "SELECT * FROM logbook_duties WHERE start_at < ? AND start_at > ? AND end_at > ? AND id != ? ORDER BY start_at LIMIT 1",
            arguments: [end.value, start.value - Duty.longestMinutes, start.value, id]
        ).map(Duty.init)
    }

    func insert(_ db: Database) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO logbook_duties (kind, start_at, end_at, remarks, origin) VALUES (?, ?, ?, ?, 'person')",
            arguments: [kind.rawValue, start.value, end.value, remarks])
        return db.lastInsertedRowID
    }

    func update(_ db: Database) throws {
        try db.execute(
            sql: "UPDATE logbook_duties SET kind = ?, start_at = ?, end_at = ?, remarks = ?, origin = 'person' WHERE id = ?",
            arguments: [kind.rawValue, start.value, end.value, remarks, id])
    }

    /// The flights that belong to it: block off inside its span, or, for a flight logged without
    /// times, its date among the duty's dates.
    func flights(_ db: Database) throws -> [DutyFlight] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, date, dep, arr, out_at, total_min FROM logbook_entries
                WHERE kind = 'flight' AND deleted_at IS NULL AND date BETWEEN ? AND ?
                AND ((out_at >= ? AND out_at < ?) OR (out_at IS NULL))
                ORDER BY date, out_at, id
                """,
            arguments: [start.day.description, end.day.description, start.value, end.value]
        ).map {
            DutyFlight(
                id: $0["id"], date: Day($0["date"] as String) ?? start.day, dep: $0["dep"], arr: $0["arr"],
                out: ($0["out_at"] as Int?).map { UTCMinute($0).description }, totalMinutes: $0["total_min"])
        }
    }
}

/// The duty table, and the records the flights' own `duty_start`/`duty_end` make.
enum DutyPeriods {
    static let longest = Duty.longestMinutes

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE logbook_duties (
                    id INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN (\(DutyKind.names.map { "'\($0)'" }.joined(separator: ", ")))),
                    start_at INTEGER NOT NULL, end_at INTEGER NOT NULL CHECK (end_at > start_at AND end_at - start_at <= \(longest)),
                    remarks TEXT NOT NULL DEFAULT '',
                    origin TEXT NOT NULL DEFAULT 'person' CHECK (origin IN ('person', 'flights'))
                );
                CREATE INDEX logbook_duties_start ON logbook_duties(start_at);
                """)
        // Once, from a logbook that kept duty only on its flights: their duty times become records.
        // The flights keep their own fields, so nothing is lost.
        let bounds = try Row.fetchOne(
            db, sql: "SELECT MIN(duty_start_at), MAX(duty_end_at) FROM logbook_entries WHERE \(carried) AND deleted_at IS NULL")
        if let lo = bounds?[0] as Int?, let hi = bounds?[1] as Int? { try rebuild(db, from: lo, to: hi) }
    }

    /// A flight's duty that makes a record: alive, and at most 36 hours (longer is a typing error
    /// the flight was let keep before the bound; it stays on the flight and counts nowhere).
    static let carried = """
        kind = 'flight' AND duty_start_at IS NOT NULL AND duty_end_at > duty_start_at AND duty_end_at - duty_start_at <= \(longest)
        """

    /// The flight-made records between `from` and `to` (minutes) made again from the flights' duty
    /// times, in the transaction that changed them: overlapping duties of legs merged into one (up
    /// to 36 hours; past that the rest is a record of its own, never overlapping), and none where
    /// the person's own record already covers the time. First the span grows to every flight duty
    /// and flight-made record that reaches into it, so a record is never left half made.
    static func rebuild(_ db: Database, from: Int, to: Int) throws {
        var (lo, hi) = (from, to)
        // A flight's duty starts within 36 hours of its block off (FlightDraft), and a duty that
        // reaches into the span starts at most 36 hours before it, so the date index finds them
        // within four days; each step widens by at most 36 hours, and few are needed.
        func flightDuties() throws -> [(start: Int, end: Int)] {
            try Row.fetchAll(
                db,
                sql: """
                    SELECT duty_start_at, duty_end_at FROM logbook_entries
                    WHERE deleted_at IS NULL AND date BETWEEN ? AND ? AND \(carried) AND duty_start_at < ? AND duty_end_at > ?
                    ORDER BY duty_start_at, duty_end_at
                    """,
                arguments: [UTCMinute(lo).day.adding(days: -4).description, UTCMinute(hi).day.adding(days: 4).description, hi, lo]
            ).map { (start: $0[0] as Int, end: $0[1] as Int) }
        }
        var spans: [(start: Int, end: Int)] = []
        for _ in 0..<100 {
            spans = try flightDuties()
            let made = try Row.fetchOne(
                db,
                sql:
                    "SELECT MIN(start_at), MAX(end_at) FROM logbook_duties WHERE origin = 'flights' AND start_at < ? AND start_at > ? AND end_at > ?",
                arguments: [hi, lo - longest, lo])
            let newLo = min(lo, spans.map(\.start).min() ?? lo, (made?[0] as Int?) ?? lo)
            let newHi = max(hi, spans.map(\.end).max() ?? hi, (made?[1] as Int?) ?? hi)
            if (newLo, newHi) == (lo, hi) { break }
            (lo, hi) = (newLo, newHi)
        }
        var merged: [(start: Int, end: Int)] = []
        for span in spans {
            guard let last = merged.last, span.start < last.end else {
                merged.append(span)
                continue
            }
            if max(last.end, span.end) - last.start <= longest {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else if span.end > last.end {
                merged.append((last.end, span.end))
            }
        }
        struct Span: Hashable {
            var start: Int
            var end: Int
        }
        var wanted: Set<Span> = []
        for span in merged {
            let covered =
                try Bool.fetchOne(
                    db,
                    sql: "SELECT EXISTS (SELECT 1 FROM logbook_duties WHERE origin = 'person' AND start_at < ? AND start_at > ? AND end_at > ?)",
                    arguments: [span.end, span.start - longest, span.start]) ?? false
            if !covered { wanted.insert(Span(start: span.start, end: span.end)) }
        }
        // Only what changed is written: a record the flights still make keeps its id.
        var kept: Set<Span> = []
        for row in try Row.fetchAll(
            db, sql: "SELECT id, start_at, end_at FROM logbook_duties WHERE origin = 'flights' AND start_at < ? AND start_at > ? AND end_at > ?",
            arguments: [hi, lo - longest, lo])
        {
            let span = Span(start: row[1], end: row[2])
            if wanted.contains(span), kept.insert(span).inserted { continue }
            try db.execute(sql: "DELETE FROM logbook_duties WHERE id = ?", arguments: [row[0] as Int64])
        }
        for span in wanted.subtracting(kept).sorted(by: { $0.start < $1.start }) {
            try db.execute(
                sql: "INSERT INTO logbook_duties (kind, start_at, end_at, origin) VALUES ('flight', ?, ?, 'flights')",
                arguments: [span.start, span.end])
        }
    }

    /// After a flight changed: its old and new duty, if either, made again; nothing when a flight
    /// that stays alive kept its duty times (a changed remark moves no duty).
    static func rebuild(_ db: Database, old: Entry?, new: Entry?) throws {
        if let old, let new, old.dutyStart == new.dutyStart, old.dutyEnd == new.dutyEnd { return }
        let spans = [old, new].compactMap { e -> (Int, Int)? in
            guard let e, let s = e.dutyStart, let t = e.dutyEnd else { return nil }
            return (s.value, t.value)
        }
        guard let lo = spans.map(\.0).min(), let hi = spans.map(\.1).max() else { return }
        // Two far-apart spans (a duty moved by days) are made again each on its own.
        if spans.count == 2, spans[0].1 < spans[1].0 || spans[1].1 < spans[0].0 {
            for (s, t) in spans { try rebuild(db, from: s, to: t) }
        } else {
            try rebuild(db, from: lo, to: hi)
        }
    }
}
