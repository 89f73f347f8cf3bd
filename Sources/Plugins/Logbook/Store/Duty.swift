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
    var id: Int64
    var kind: DutyKind
    var start: UTCMinute
    var end: UTCMinute
    var remarks: String

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
            sql: "INSERT INTO logbook_duties (kind, start_at, end_at, remarks) VALUES (?, ?, ?, ?)",
            arguments: [kind.rawValue, start.value, end.value, remarks])
        return db.lastInsertedRowID
    }

    func update(_ db: Database) throws {
        try db.execute(
            sql: "UPDATE logbook_duties SET kind = ?, start_at = ?, end_at = ?, remarks = ? WHERE id = ?",
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

/// The duty table, and the triggers that keep a flight's own `duty_start`/`duty_end` in it.
enum DutyPeriods {
    /// A flight's duty times become a flight duty, or widen the one they overlap: the legs of one
    /// duty, each logged with its duty times, make one record.
    static func carry(_ ref: String) -> String {
        let (start, end, longest) = ("\(ref).duty_start_at", "\(ref).duty_end_at", Duty.longestMinutes)
        return """
            UPDATE logbook_duties SET start_at = MIN(start_at, \(start)), end_at = MAX(end_at, \(end))
            WHERE kind = 'flight' AND start_at < \(end) AND start_at > \(start) - \(longest) AND end_at > \(start)
            AND MAX(end_at, \(end)) - MIN(start_at, \(start)) <= \(longest) AND \(carried(ref));
            INSERT INTO logbook_duties (kind, start_at, end_at) SELECT 'flight', \(start), \(end)
            WHERE \(carried(ref)) AND NOT EXISTS (
                SELECT 1 FROM logbook_duties WHERE kind = 'flight' AND start_at <= \(start) AND start_at > \(start) - \(longest)
                AND end_at >= \(end));
            """
    }

    /// A flight's duty goes with it when the record is as the flight made it and no other flight's
    /// duty falls in it. The flights' duty times have no index of their own: it would cost an
    /// import of 100 000 flights 0.6 s, and this runs only when a flight's duty changes or it is
    /// deleted or restored.
    static func release(_ ref: String) -> String {
        let (start, end) = ("\(ref).duty_start_at", "\(ref).duty_end_at")
        return """
            DELETE FROM logbook_duties WHERE kind = 'flight' AND start_at = \(start) AND end_at = \(end) AND remarks = ''
            AND \(carried(ref)) AND NOT EXISTS (
                SELECT 1 FROM logbook_entries WHERE deleted_at IS NULL AND id != \(ref).id AND duty_start_at < \(end)
                AND duty_start_at > \(start) - \(Duty.longestMinutes) AND duty_end_at > \(start));
            """
    }

    static func carried(_ ref: String) -> String {
        "\(ref).deleted_at IS NULL AND \(ref).duty_start_at IS NOT NULL AND \(ref).duty_end_at > \(ref).duty_start_at"
    }

    static func create(_ db: Database) throws {
        let changed = ["duty_start_at", "duty_end_at", "deleted_at"].map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
        try db.execute(
            sql: """
                CREATE TABLE logbook_duties (
                    id INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN (\(DutyKind.names.map { "'\($0)'" }.joined(separator: ", ")))),
                    start_at INTEGER NOT NULL, end_at INTEGER NOT NULL CHECK (end_at > start_at),
                    remarks TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX logbook_duties_start ON logbook_duties(start_at);
                CREATE TRIGGER logbook_duty_insert AFTER INSERT ON logbook_entries BEGIN
                    \(carry("NEW"))
                END;
                CREATE TRIGGER logbook_duty_update AFTER UPDATE OF duty_start_at, duty_end_at, deleted_at ON logbook_entries
                WHEN \(changed) BEGIN
                    \(release("OLD"))
                    \(carry("NEW"))
                END;
                """)
        try migrate(db)
    }

    /// Once, from a logbook that kept duty only on its flights: every flight's duty times become
    /// records, overlapping ones merged. The flights keep their own fields, so nothing is lost.
    static func migrate(_ db: Database) throws {
        let spans = try Row.fetchAll(
            db,
            sql: """
                SELECT DISTINCT duty_start_at, duty_end_at FROM logbook_entries
                WHERE \(carried("logbook_entries")) ORDER BY duty_start_at, duty_end_at
                """
        ).map { (start: $0[0] as Int, end: $0[1] as Int) }
        var merged: [(start: Int, end: Int)] = []
        for span in spans where span.end - span.start <= Duty.longestMinutes {
            if let last = merged.last, span.start < last.end, max(last.end, span.end) - last.start <= Duty.longestMinutes {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else {
                merged.append(span)
            }
        }
        for span in merged {
            try db.execute(sql: "INSERT INTO logbook_duties (kind, start_at, end_at) VALUES ('flight', ?, ?)", arguments: [span.start, span.end])
        }
    }
}
