import AssistantTesting
import Foundation
import GRDB
import HostCore
import Testing

/// Duty periods as records of their own (ORO.FTL): logged, linked to their flights by time,
/// summed into the duty limits, and carried over once from flights that kept duty times.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct DutyTests {
    func flight(_ lb: LogbookHost, out: String, in inAt: String, extra: [String: JSONValue] = [:]) async throws -> Int64 {
        var p: [String: JSONValue] = ["dep": "LKPR", "arr": "LKTB", "out": .string(out), "in": .string(inAt), "aircraft": "OK-SKA"]
        p.merge(extra) { $1 }
        return try await lb.call("logbook.flights.add", .object(p))["id"]?.intValue ?? -1
    }

    func duties(_ lb: LogbookHost) async throws -> [JSONValue] {
        try await lb.call("logbook.duty.list")["duties"]?.arrayValue ?? []
    }

    @Test func aDutyIsLoggedWithItsFlightsAndBadInputWritesNothing() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let first = try await flight(lb, out: "2026-03-02T06:10:00Z", in: "2026-03-02T07:05:00Z")
        let second = try await flight(lb, out: "2026-03-02T08:00:00Z", in: "2026-03-02T08:45:00Z")
        _ = try await flight(lb, out: "2026-03-03T08:00:00Z", in: "2026-03-03T08:45:00Z")

        let duty = try await lb.call("logbook.duty.add", ["date": "2026-03-02", "start": "05:15", "end": "13:40", "remarks": "OPS1"])
        #expect(duty["kind"] == "flight")
        #expect(duty["origin"] == "person")
        #expect(duty["start"] == "2026-03-02T05:15:00Z")
        #expect(duty["end"] == "2026-03-02T13:40:00Z")
        #expect(duty["duty_min"] == 505)
        #expect(duty["counted_min"] == 505)
        #expect(duty["flights"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [first, second])
        #expect(duty["flight_min"] == 100)

        // A standby past midnight: the end before the start is the next day; a quarter counts.
        let standby = try await lb.call("logbook.duty.add", ["date": "2026-03-04", "start": "20:00", "end": "04:00", "kind": "standby"])
        #expect(standby["end"] == "2026-03-05T04:00:00Z")
        #expect(standby["duty_min"] == 480)
        #expect(standby["counted_min"] == 120)
        #expect(standby["flights"] == [])

        // Bad input: a clear error naming the parameter, and nothing written.
        func refused(_ params: JSONValue, _ param: String, code: Int = -32602) async throws {
            let error = try await lb.failure("logbook.duty.add", params)
            #expect(error.code == code, "\(params)")
            if code == -32602 { #expect(error.data?["param"]?.stringValue == param, "\(params)") }
        }
        try await refused(["start": "05:00", "end": "07:00"], "start")
        try await refused(["date": "2026-03-06", "start": "2026-03-06T05:00:00Z", "end": "2026-03-06T05:00:00Z"], "end")
        try await refused(["start": "2026-03-06T05:00:00Z", "end": "2026-03-07T18:00:00Z"], "end")
        try await refused(["date": "2026-03-06", "start": "5 o'clock", "end": "07:00"], "start")
        try await refused(["date": "2026-03-06", "start": "05:00", "end": "07:00", "kind": "nap"], "kind")
        try await refused(["date": "06.03.2026", "start": "05:00", "end": "07:00"], "date")
        let overlap = try await lb.failure("logbook.duty.add", ["date": "2026-03-02", "start": "13:00", "end": "15:00", "kind": "ground"])
        #expect(overlap.code == 1108)
        #expect(overlap.data?["duty"]?.intValue == duty["id"]?.intValue)
        #expect(try await duties(lb).count == 2)

        // Changed and deleted; its flights stay.
        let id = duty["id"]!
        let moved = try await lb.call("logbook.duty.update", ["id": id, "end": "09:00"])
        #expect(moved["end"] == "2026-03-02T09:00:00Z")
        #expect(moved["remarks"] == "OPS1")
        #expect(try await lb.failure("logbook.duty.update", ["id": id, "end": "05:00"]).data?["param"] == "end")
        #expect(try await lb.failure("logbook.duty.update", ["id": id, "date": "2026-03-02"]).data?["param"] == "date")
        #expect(try await lb.failure("logbook.duty.update", ["id": 999, "kind": "ground"]).code == RPCErrorCode.notFound)
        #expect(try await lb.call("logbook.duty.get", ["id": id])["end"] == "2026-03-02T09:00:00Z", "the refused changes wrote nothing")
        let list = try await lb.call("logbook.duty.list", ["kind": "standby"])
        #expect(list["total_count"] == 1)
        #expect(list["duties"]?.arrayValue?.first?["id"] == standby["id"])
        #expect(try await lb.call("logbook.duty.list", ["from_date": "2026-03-03"])["total_count"] == 1)
        #expect(try await lb.call("logbook.duty.delete", ["id": id])["deleted"] == id)
        #expect(try await lb.failure("logbook.duty.get", ["id": id]).code == RPCErrorCode.notFound)
        #expect(try await lb.count() == 3)
        await lb.stop()
    }

    /// Hand-computed at the edges: at 2026-03-28 the 7 days run from 03-22 and the 14 from 03-15.
    @Test func dutyLimitsComeFromTheRecordsAtTheirEdges() async throws {
        let lb = try await LogbookHost.started()
        #expect(
            try await lb.call("logbook.limits", ["at": "2026-03-28"])["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }?["status"]
                == "not_recorded")
        // 22:00 on 03-21 to 04:00 on 03-22: two hours before the 7 days, four inside them.
        try await lb.call("logbook.duty.add", ["start": "2026-03-21T22:00:00Z", "end": "2026-03-22T04:00:00Z", "kind": "positioning"])
        try await lb.call("logbook.duty.add", ["date": "2026-03-25", "start": "08:00", "end": "16:00", "kind": "standby"])  // 120 counted
        try await lb.call("logbook.duty.add", ["date": "2026-03-28", "start": "06:00", "end": "16:00", "kind": "ground"])
        try await lb.call("logbook.duty.add", ["date": "2026-03-14", "start": "06:00", "end": "08:00", "kind": "training"])  // before the 14 days
        try await lb.call("logbook.duty.add", ["date": "2026-03-29", "start": "06:00", "end": "08:00", "kind": "training"])  // after the day
        let r = try await lb.call("logbook.limits", ["at": "2026-03-28"])
        func item(_ id: String) -> JSONValue? { r["items"]?.arrayValue?.first { $0["id"]?.stringValue == id } }
        #expect(item("duty_7d")?["used_min"] == 960, "240 + 120 + 600")
        #expect(item("duty_7d")?["resets_on"] == "2026-03-29")
        #expect(item("duty_7d")?["status"] == "ok")
        #expect(item("duty_14d")?["used_min"] == 1080, "360 + 120 + 600")
        #expect(item("duty_14d")?["resets_on"] == "2026-04-04")
        #expect(item("duty_28d")?["used_min"] == 1200, "360 + 120 + 600 + 120")
        #expect(item("duty_28d")?["resets_on"] == "2026-04-11")
        #expect(item("flight_28d")?["used_min"] == 0)
        #expect(item("flight_28d")?["resets_on"] == .null)

        // 60 h in 7 days: 90 % is approaching, over is exceeded.
        for d in 23...27 {
            try await lb.call("logbook.duty.add", ["date": .string("2026-03-\(d)"), "start": "16:00", "end": "23:45", "kind": "ground"])
        }
        let near = try await lb.call("logbook.limits", ["at": "2026-03-28"])["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }
        #expect(near?["used_min"] == 3285, "960 + 5 × 465")
        #expect(near?["status"] == "approaching")
        try await lb.call("logbook.duty.add", ["date": "2026-03-26", "start": "00:00", "end": "12:00", "kind": "airport_standby"])
        let over = try await lb.call("logbook.limits", ["at": "2026-03-28"])["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }
        #expect(over?["used_min"] == 4005, "960 + 5 × 465 + 720")
        #expect(over?["status"] == "exceeded")
        #expect(over?["remaining_min"] == 0)
        await lb.stop()
    }

    /// The legs of one duty, each logged with the same duty times, make one record, counted once.
    @Test func aFlightsDutyTimesMakeOneRecordPerDuty() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let times: [String: JSONValue] = ["duty_start": "2026-03-27T05:00:00Z", "duty_end": "2026-03-27T15:00:00Z"]
        let first = try await flight(lb, out: "2026-03-27T06:00:00Z", in: "2026-03-27T07:00:00Z", extra: times)
        let second = try await flight(lb, out: "2026-03-27T09:00:00Z", in: "2026-03-27T10:00:00Z", extra: times)
        var list = try await duties(lb)
        #expect(list.count == 1)
        #expect(list.first?["duty_min"] == 600)
        #expect(list.first?["flights"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [first, second])
        let limits = try await lb.call("logbook.limits", ["at": "2026-03-28"])
        #expect(limits["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }?["used_min"] == 600)

        #expect(list.first?["origin"] == "flights")
        // A change that moves no duty (a remark) leaves the record, its id included.
        try await lb.call("logbook.flights.update", ["id": .int(second), "remarks": "OPS1"])
        #expect(try await duties(lb).map { $0["id"] } == [list.first?["id"]], "the same record")
        // A later leg's longer duty widens the record; deleting it narrows the record back, and a
        // leg deleted keeps the duty while another carries it.
        let third = try await flight(
            lb, out: "2026-03-27T14:00:00Z", in: "2026-03-27T15:00:00Z",
            extra: ["duty_start": "2026-03-27T05:00:00Z", "duty_end": "2026-03-27T16:00:00Z"])
        list = try await duties(lb)
        #expect(list.count == 1)
        #expect(list.first?["end"] == "2026-03-27T16:00:00Z")
        try await lb.call("logbook.flights.delete", ["id": .int(third)])
        list = try await duties(lb)
        #expect(list.count == 1 && list.first?["end"] == "2026-03-27T15:00:00Z", "\(list)")
        try await lb.call("logbook.flights.delete", ["id": .int(first)])
        #expect(try await duties(lb).count == 1, "the second leg still carries it")
        // A record the flights make is not deleted by hand (they would make it again).
        let made = try await lb.failure("logbook.duty.delete", ["id": list.first!["id"]!])
        #expect(made.data?["param"] == "id" && made.message.contains("flight \(second)"), "\(made.message)")

        // A flight's duty of more than 36 hours is a typing error, refused like a record's.
        let long = try await lb.failure(
            "logbook.flights.add",
            [
                "dep": "LKPR", "arr": "LKTB", "out": "2026-03-10T06:00:00Z", "in": "2026-03-10T07:00:00Z", "aircraft": "OK-SKA",
                "duty_start": "2026-03-09T06:00:00Z", "duty_end": "2026-03-10T19:00:00Z",
            ])
        #expect(long.data?["param"] == "duty_end")
        #expect(try await duties(lb).count == 1)

        let other = try await flight(
            lb, out: "2026-03-20T06:00:00Z", in: "2026-03-20T07:00:00Z", extra: ["duty_start": "05:30", "duty_end": "08:00", "date": "2026-03-20"])
        #expect(try await duties(lb).count == 2)
        try await lb.call("logbook.flights.delete", ["id": .int(other)])
        #expect(try await duties(lb).count == 1, "a leg's own duty goes with it")
        try await lb.call("logbook.flights.restore", ["id": .int(other)])
        #expect(try await duties(lb).count == 2, "and comes back with it")
        try await lb.call("logbook.flights.update", ["id": .int(other), "duty_end": "09:00"])
        list = try await duties(lb)
        #expect(list.count == 2)
        #expect(list.last?["end"] == "2026-03-20T09:00:00Z", "moved, not added: \(list)")
        // Cleared on the flight, its duty goes.
        try await lb.call("logbook.flights.update", ["id": .int(other), "duty_start": "", "duty_end": ""])
        #expect(try await duties(lb).count == 1)
        await lb.stop()
    }

    /// Legs whose duties chain (06–10, 12–16, then 09–13 between them) make one duty, counted once;
    /// the person's own record of a time stands, and the flights make none over it.
    @Test func chainedLegsMakeOneDutyAndThePersonsRecordStands() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        func leg(_ date: String, _ out: String, _ inAt: String, _ start: String, _ end: String) async throws -> Int64 {
            try await flight(
                lb, out: "\(date)T\(out):00Z", in: "\(date)T\(inAt):00Z",
                extra: ["duty_start": .string(start), "duty_end": .string(end), "date": .string(date)])
        }
        _ = try await leg("2026-03-27", "06:30", "07:30", "06:00", "10:00")
        _ = try await leg("2026-03-27", "12:30", "13:30", "12:00", "16:00")
        #expect(try await duties(lb).count == 2)
        _ = try await leg("2026-03-27", "09:30", "10:30", "09:00", "13:00")
        let list = try await duties(lb)
        #expect(list.map { "\($0["start"]!.stringValue!)–\($0["end"]!.stringValue!)" } == ["2026-03-27T06:00:00Z–2026-03-27T16:00:00Z"])
        let limits = try await lb.call("logbook.limits", ["at": "2026-03-28"])
        #expect(limits["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }?["used_min"] == 600, "10 hours, once")

        // A duty the person logs stands; a flight inside it makes no record, and leaving takes nothing of theirs.
        let mine = try await lb.call("logbook.duty.add", ["date": "2026-03-29", "start": "06:00", "end": "14:00"])
        let inside = try await leg("2026-03-29", "07:00", "08:00", "06:00", "14:00")
        #expect(try await duties(lb).count == 2)
        try await lb.call("logbook.flights.delete", ["id": .int(inside)])
        let after = try await duties(lb)
        #expect(after.count == 2 && after.first?["id"] == mine["id"] && after.first?["origin"] == "person", "\(after)")
        // A flight-made record changed by the person becomes theirs.
        let changed = try await lb.call("logbook.duty.update", ["id": after.last!["id"]!, "remarks": "OPS2"])
        #expect(changed["origin"] == "person")
        await lb.stop()
    }

    /// A logbook from before duty records: the flights' duty times become records once, the legs
    /// of one duty merged, and the flights keep their own fields.
    @Test func anOlderDatabaseGainsItsDutiesOnce() async throws {
        let directory = TemporaryDirectory()
        do {
            let lb = try await LogbookHost.started(directory: directory)
            try await lb.addSEP()
            let same: [String: JSONValue] = ["duty_start": "2026-03-27T05:00:00Z", "duty_end": "2026-03-27T15:00:00Z"]
            _ = try await flight(lb, out: "2026-03-27T06:00:00Z", in: "2026-03-27T07:00:00Z", extra: same)
            _ = try await flight(lb, out: "2026-03-27T09:00:00Z", in: "2026-03-27T10:00:00Z", extra: same)
            _ = try await flight(
                lb, out: "2026-03-27T14:00:00Z", in: "2026-03-27T15:30:00Z",
                extra: ["duty_start": "2026-03-27T13:00:00Z", "duty_end": "2026-03-27T16:00:00Z"])
            _ = try await flight(
                lb, out: "2026-03-29T06:00:00Z", in: "2026-03-29T07:00:00Z",
                extra: ["duty_start": "2026-03-29T05:00:00Z", "duty_end": "2026-03-29T08:00:00Z"])
            let deleted = try await flight(
                lb, out: "2026-03-30T06:00:00Z", in: "2026-03-30T07:00:00Z",
                extra: ["duty_start": "2026-03-30T05:00:00Z", "duty_end": "2026-03-30T08:00:00Z"])
            try await lb.call("logbook.flights.delete", ["id": .int(deleted)])
            await lb.stop()
        }
        // As the logbook left such a database: no duty table, no triggers, no record of the migration.
        let queue = try DatabaseQueue(path: directory.file("data/assistant.sqlite"))
        try await queue.write { db in
            try db.execute(
                sql: """
                    DROP TABLE logbook_duties;
                    DELETE FROM grdb_migrations WHERE identifier = 'logbook/v3-duties';
                    """)
        }
        try queue.close()

        let lb = try await LogbookHost.started(directory: directory)
        let list = try await duties(lb)
        #expect(
            list.map { "\($0["start"]!.stringValue!)–\($0["end"]!.stringValue!)" } == [
                "2026-03-29T05:00:00Z–2026-03-29T08:00:00Z", "2026-03-27T05:00:00Z–2026-03-27T16:00:00Z",
            ])
        #expect(list.last?["flights"]?.arrayValue?.count == 3)
        let limits = try await lb.call("logbook.limits", ["at": "2026-03-29"])
        #expect(limits["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }?["used_min"] == 840, "11 h and 3 h")
        let kept = try await lb.call("logbook.flights.list", ["from_date": "2026-03-27", "to_date": "2026-03-27"])["entries"]?.arrayValue ?? []
        #expect(
            kept.compactMap { $0["duty_end"]?.stringValue }.sorted() == [
                "2026-03-27T15:00:00Z", "2026-03-27T15:00:00Z", "2026-03-27T16:00:00Z",
            ])
        // Once: a restart adds nothing.
        await lb.stop()
        let again = try await LogbookHost.started(directory: directory)
        #expect(try await duties(again).count == 2)
        await again.stop()
    }
}
