import AssistantTesting
import Foundation
import GRDB
import HostCore
import Testing

/// Class-rating revalidation by experience (FCL.740.A(b)(1)): within the 12 months before expiry,
/// 12 h in the class, 6 h as PIC, 12 take-offs, 12 landings and 1 h of training with an instructor.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct RatingTests {
    /// One hour on `date`, one take-off and one landing by day.
    func hour(_ lb: LogbookHost, _ date: String, aircraft: String = "OK-SKA", extra: [String: JSONValue] = [:]) async throws {
        var p: [String: JSONValue] = [
            "date": .string(date), "dep": "LKTB", "arr": "LKTB", "out": "09:00", "in": "10:00", "aircraft": .string(aircraft),
        ]
        p.merge(extra) { $1 }
        try await lb.call("logbook.flights.add", .object(p))
    }

    @Test func aLogbookOneFlightShortThenComplete() async throws {
        let clock = TestClock(now: ISO8601.date("2026-06-01T12:00:00Z")!)
        let lb = try await LogbookHost.started(clock: clock)
        try await lb.addSEP()
        try await lb.call("logbook.aircraft.add", ["registration": "OK-TWN", "model": "DA42", "engine": "me", "class_rating": "MEP(land)"])
        let sep = try await lb.call(
            "logbook.certificates.add", ["kind": "rating", "class_rating": "SEP(land)", "expiry_date": "2026-08-31", "issue_date": "2024-08-20"])
        #expect(sep["name"] == "SEP(land) class rating")
        #expect(sep["class_rating"] == "SEP(land)")
        try await lb.call("logbook.certificates.add", ["kind": "rating", "class_rating": "MEP(land)", "expiry_date": "2026-12-31"])

        // The window is 2025-08-31 to 2026-08-30: the day before does not count, nor the multi-engine hour.
        try await hour(lb, "2025-08-30")
        try await hour(lb, "2026-02-01", aircraft: "OK-TWN")
        for d in 1...10 { try await hour(lb, String(format: "2025-09-%02d", d)) }
        try await hour(lb, "2026-05-20", extra: ["function": "dual", "pic_name": "FI Dvořák"])

        var r = try await lb.call("logbook.ratings")
        var item = try #require(r["ratings"]?.arrayValue?.first { $0["class_rating"] == "SEP(land)" })
        #expect(item["revalidation"] == "experience")
        #expect(item["window_from"] == "2025-08-31")
        #expect(item["window_to"] == "2026-08-30")
        #expect(item["days_left"] == 91)
        #expect(item["held"] == ["flight_min": 660, "pic_min": 600, "takeoffs": 11, "landings": 11])
        #expect(item["missing"] == ["1:00 of flight time", "1 take-offs", "1 landings"])
        #expect(item["met"] == false)
        #expect(item["training_flight"]?.intValue != nil)
        let multi = try #require(r["ratings"]?.arrayValue?.first { $0["class_rating"] == "MEP(land)" })
        #expect(multi["revalidation"] == "proficiency_check")
        #expect(multi["met"] == false)
        #expect(multi["held"] == .null)

        // 91 days out nothing is said; at 90 the notice names what is missing, once.
        func notices() async throws -> [JSONValue] {
            try await lb.call("notifications.list", ["topic": "logbook.rating.revalidation", "limit": 100]).arrayValue ?? []
        }
        try await lb.call("jobs.run", ["id": "logbook.reminders"])
        #expect(try await notices().isEmpty)
        // Before the daily 07:00 run, so the test runs the job itself.
        clock.advance(to: ISO8601.date("2026-06-02T06:00:00Z")!)
        try await lb.call("jobs.run", ["id": "logbook.reminders"])
        try await lb.call("jobs.run", ["id": "logbook.reminders"])
        let said = try await notices()
        #expect(said.count == 1, "\(said)")
        #expect(said.first?["title"] == "SEP(land) expires in 90 days, not yet revalidated")
        #expect(said.first?["body"]?.stringValue?.hasSuffix("still lacks: 1:00 of flight time; 1 take-offs; 1 landings.") == true)
        let today = try await lb.call("today")
        #expect(today["items"]?.arrayValue?.contains { $0["title"] == "Not yet revalidated: SEP(land)" } == true, "\(today)")

        // One more flight in the class makes it.
        try await hour(lb, "2026-06-01")
        r = try await lb.call("logbook.ratings")
        item = try #require(r["ratings"]?.arrayValue?.first { $0["class_rating"] == "SEP(land)" })
        #expect(item["held"] == ["flight_min": 720, "pic_min": 660, "takeoffs": 12, "landings": 12])
        #expect(item["missing"] == [])
        #expect(item["met"] == true)
        let after = try await lb.call("today")
        #expect(after["items"]?.arrayValue?.contains { $0["title"] == "Not yet revalidated: SEP(land)" } == false, "\(after)")
        await lb.stop()
    }

    @Test func withoutTheTrainingFlightItIsNotMet() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await lb.call("logbook.certificates.add", ["kind": "rating", "class_rating": "SEP", "expiry_date": "2026-10-31"])
        for d in 1...12 { try await hour(lb, String(format: "2026-01-%02d", d)) }
        // Training of 45 minutes is not the hour the rule asks for.
        try await lb.call(
            "logbook.flights.add",
            ["date": "2026-02-01", "dep": "LKTB", "arr": "LKTB", "out": "09:00", "in": "09:45", "aircraft": "OK-SKA", "function": "dual"])
        let item = try await lb.call("logbook.ratings")["ratings"]?.arrayValue?.first
        #expect(item?["missing"] == ["a training flight of at least 1:00 with an instructor (FI or CRI)"])
        #expect(item?["training_flight"] == .null)
        #expect(item?["held"]?["flight_min"] == 765, "an SEP(land) aircraft counts towards a rating named SEP")
        await lb.stop()
    }

    @Test func badRatingsAreRefusedAndWriteNothing() async throws {
        let lb = try await LogbookHost.started()
        for (params, param) in [
            (["kind": "rating", "expiry_date": "2026-08-31"], "class_rating"),
            (["kind": "rating", "class_rating": "SEP(land)"], "expiry_date"),
            (["kind": "rating", "class_rating": "  ", "expiry_date": "2026-08-31"], "class_rating"),
            (["kind": "rating", "class_rating": "SEP(land)", "expiry_date": "2026-08-31", "issue_date": "2026-09-01"], "expiry_date"),
            (["kind": "rating", "class_rating": "SEP(land)", "expiry_date": "2026-08-31", "medical_class": "class2"], "medical_class"),
            (["kind": "other", "name": "FI(A)", "class_rating": "SEP(land)"], "class_rating"),
            (["kind": "rating", "class_rating": "SEP(land)", "expiry_date": "31.8.2026"], "expiry_date"),
        ] as [([String: JSONValue], String)] {
            let error = try await lb.failure("logbook.certificates.add", .object(params))
            #expect(error.data?["param"]?.stringValue == param, "\(params): \(error.message)")
        }
        #expect(try await lb.call("logbook.certificates.list")["certificates"] == [])
        #expect(try await lb.call("logbook.ratings")["ratings"] == [])
        #expect(try await lb.failure("logbook.ratings", ["at": "tomorrow"]).data?["param"] == "at")
        await lb.stop()
    }

    /// A logbook from before class ratings keeps its certificates when the table is made again.
    @Test func anOlderDatabaseKeepsItsCertificates() async throws {
        let directory = TemporaryDirectory()
        do {
            let lb = try await LogbookHost.started(directory: directory)
            try await lb.call("logbook.certificates.add", ["kind": "other", "name": "FI(A)", "expiry_date": "2027-03-31", "remarks": "ATO CZ/01"])
            await lb.stop()
        }
        let queue = try DatabaseQueue(path: directory.file("data/assistant.sqlite"))
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE old_certificates (
                        id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('medical', 'other')), name TEXT NOT NULL,
                        medical_class TEXT CHECK (medical_class IN ('class1', 'class2', 'lapl')),
                        examination_date TEXT, single_pilot_cat_passengers INTEGER NOT NULL DEFAULT 0,
                        issue_date TEXT, expiry_date TEXT, remarks TEXT NOT NULL DEFAULT ''
                    );
                    INSERT INTO old_certificates SELECT id, kind, name, medical_class, examination_date, single_pilot_cat_passengers,
                        issue_date, expiry_date, remarks FROM logbook_certificates;
                    DROP TABLE logbook_certificates;
                    ALTER TABLE old_certificates RENAME TO logbook_certificates;
                    DELETE FROM grdb_migrations WHERE identifier = 'logbook/v4-class-ratings';
                    """)
        }
        try queue.close()
        let lb = try await LogbookHost.started(directory: directory)
        let kept = try await lb.call("logbook.certificates.list")["certificates"]?.arrayValue ?? []
        #expect(kept.count == 1)
        #expect(kept.first?["name"] == "FI(A)")
        #expect(kept.first?["remarks"] == "ATO CZ/01")
        #expect(kept.first?["expiry_date"] == "2027-03-31")
        try await lb.call("logbook.certificates.add", ["kind": "rating", "class_rating": "TMG", "expiry_date": "2027-05-31"])
        #expect(try await lb.call("logbook.ratings")["ratings"]?.arrayValue?.first?["class_rating"] == "TMG")
        await lb.stop()
    }
}
