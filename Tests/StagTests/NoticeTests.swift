import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// `stag.refresh`, `stag.evening` and `stag.watch` against the fake: a baseline without a
/// flood, each new thing once, nothing lost across an expired ticket, seats freed with and
/// without auto-register.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct NoticeTests {
    static func notices(_ bench: StagBench, _ topic: String) async throws -> [JSONValue] {
        let all = try await bench.host.call("notifications.list", ["limit": 500, "topic": .string(topic)]).get()
        return (all.arrayValue ?? []).reversed()
    }

    static func refresh(_ bench: StagBench) async throws {
        _ = try await bench.host.call("jobs.run", ["id": "stag.refresh"]).get()
    }

    /// Moves the clock past the scheduled refresh and returns once that run is over: the job's
    /// loop sleeps again until its next slot (30 min on, plus up to 60 s of jitter).
    static func advance(_ bench: StagBench, by seconds: TimeInterval) async {
        bench.clock.advance(by: seconds)
        let now = bench.clock.now
        await bench.clock.waitForSleeper { $0 >= now.addingTimeInterval(1800) && $0 <= now.addingTimeInterval(1861) }
    }

    static func term(_ id: Int, subject: String, day: String) -> JSONValue {
        var term = StagFake.fixture["terms"]!.arrayValue![1].objectValue!
        term["termIdno"] = .int(Int64(id))
        let parts = subject.split(separator: "/")
        term["katedra"] = .string(String(parts[0]))
        term["predmet"] = .string(String(parts[1]))
        term["datum"] = ["value": .string(day)]
        return .object(term)
    }

    @Test func theFirstRefreshIsABaselineThenEachNewThingIsToldOnce() async throws {
        let bench = try await StudyTests.student()
        try await Self.refresh(bench)
        #expect(try await Self.notices(bench, "stag.*").isEmpty, "the baseline tells nothing")
        #expect(try await bench.host.call("stag.status").get()["accounts"]?.arrayValue?.first?["last_refresh"] == "2026-11-24T08:00:00Z")

        try await bench.fake.admin("term", Self.term(2_000_001, subject: "KIV/DB1", day: "15.12.2026"))
        var graded = StagFake.fixture["grades"]!.arrayValue![5].objectValue!  // KIV/OS, ungraded
        graded["zk_hodnoceni"] = "2"
        graded["zk_datum"] = "23.11.2026"
        graded["zk_pokus"] = "1"
        try await bench.fake.admin("grade", .object(graded))
        try await Self.refresh(bench)
        let exams = try await Self.notices(bench, "stag.exam.new")
        #expect(exams.map { $0["title"] } == ["New exam term: KIV/DB1 Databázové systémy 1"])
        #expect(exams.first?["body"]?.stringValue?.contains("term_id=2000001") == true)
        let grades = try await Self.notices(bench, "stag.grade.new")
        #expect(grades.map { $0["title"] } == ["KIV/OS Operační systémy: 2"])

        try await Self.refresh(bench)
        #expect(try await Self.notices(bench, "stag.*").count == 2, "nothing twice")
        await bench.stop()
    }

    @Test func roomChangesAndCancelledClassesWithinTwoWeeks() async throws {
        let bench = try await StudyTests.student()
        try await Self.refresh(bench)
        var rows = StagFake.fixture["timetable"]!.arrayValue!
        // MA1 on 30 Nov moves to another room; PPA1 on 24 Nov (today) is cancelled.
        var moved = rows[3].objectValue!
        moved["mistnost"] = "101"
        rows[3] = .object(moved)
        rows.remove(at: 1)
        try await bench.fake.admin("timetable", ["rows": .array(rows)])
        try await Self.refresh(bench)
        let changes = try await Self.notices(bench, "stag.timetable.changed")
        #expect(
            Set(changes.compactMap { $0["title"]?.stringValue }) == [
                "Room change: KMA/MA1 Matematická analýza 1 on 2026-11-30", "Cancelled: KIV/PPA1 Počítače a programování 1 on 2026-11-24",
            ])
        #expect(changes.first { $0["title"]?.stringValue?.hasPrefix("Room") == true }?["body"] == "2026-11-30 09:20: US-217 → US-101")

        // The window moving past a day is not a cancellation.
        await Self.advance(bench, by: 7 * 86_400)
        try await Self.refresh(bench)
        #expect(try await Self.notices(bench, "stag.timetable.changed").count == 2)
        await bench.stop()
    }

    @Test func deadlinesAndTomorrowsExam() async throws {
        let bench = try await StudyTests.student()
        try await Self.refresh(bench)
        #expect(try await Self.notices(bench, "stag.exam.deadline").isEmpty, "25 h before the deadline")
        await Self.advance(bench, by: 2 * 3600)
        try await Self.refresh(bench)
        let deadline = try await Self.notices(bench, "stag.exam.deadline")
        #expect(deadline.map { $0["title"] } == ["Last chance to unregister: KIV/VSS Vývoj softwarových systémů"])
        #expect(deadline.first?["body"] == "Unregistering from the 2026-11-26 10:00 term closes at 2026-11-25 10:00.")

        // The evening before the registered exam (26 Nov).
        await Self.advance(bench, by: ISO8601.date("2026-11-25T16:59:00Z")!.timeIntervalSince(bench.clock.now))
        _ = try await bench.host.call("jobs.run", ["id": "stag.evening"]).get()
        _ = try await bench.host.call("jobs.run", ["id": "stag.evening"]).get()
        let tomorrow = try await Self.notices(bench, "stag.exam.tomorrow")
        #expect(tomorrow.map { $0["title"] } == ["Exam tomorrow: KIV/VSS Vývoj softwarových systémů"])
        #expect(tomorrow.first?["body"]?.stringValue?.hasPrefix("2026-11-26 10:00 in UC-355, Ing. Karel Svoboda, Ph.D.") == true)
        await bench.stop()
    }

    /// Now is 2026-11-24 09:00 in Prague. KIV/DB1's available term closes sign-up 23 h from now,
    /// a second DB term's 25 h from now; KIV/VSS's closes soon too, but a VSS term is mine.
    @Test func aSignupClosingIn23HoursIsToldOnceAndOneIn25HoursIsNot() async throws {
        let bench = try await StudyTests.student()
        var soon = StagFake.fixture["terms"]!.arrayValue![1].objectValue!
        soon["deadlineDatumPrihlaseni"] = ["value": "25.11.2026 8:00"]
        var later = soon
        later["termIdno"] = 1_118_490
        later["predmet"] = "DB2"
        later["deadlineDatumPrihlaseni"] = ["value": "25.11.2026 10:00"]
        var vss = soon
        vss["termIdno"] = 1_118_491
        vss["predmet"] = "VSS"
        for term in [soon, later, vss] { try await bench.fake.admin("term", .object(term)) }
        try await Self.refresh(bench)
        try await Self.refresh(bench)
        let closing = try await Self.notices(bench, "stag.exam.signup_closing")
        #expect(closing.count == 1, "told once, and only for the 23 h one: \(closing.map { $0["title"] })")
        #expect(closing.first?["title"]?.stringValue?.hasPrefix("Sign-up closes soon: KIV/DB1") == true)
        #expect(
            closing.first?["body"]
                == .string(
                    "Registering for the 2026-12-03 09:00 term in UC-355 closes at 2026-11-25 08:00 (3/10 seats taken). Register: assistantctl "
                        + "stag.exams.register term_id=1118483")
        )
        await bench.stop()
    }

    /// With `language = "cs"`, the same notices in Czech: their titles and bodies, not their
    /// topics, fields or the command they name.
    @Test func noticesSpeakTheConfiguredLanguage() async throws {
        let bench = try await StagBench.start {
            $0.http.timeoutSeconds = 2
            $0.language = .cs
            $0.plugins["stag"] = ["class_reminder_min": 15]
        }
        try await bench.fake.loadFixture()
        try await bench.login()
        try await Self.refresh(bench)
        try await bench.fake.admin("term", Self.term(2_000_001, subject: "KIV/DB1", day: "15.12.2026"))
        var graded = StagFake.fixture["grades"]!.arrayValue![5].objectValue!  // KIV/OS, ungraded
        graded["zk_hodnoceni"] = "2"
        graded["zk_datum"] = "23.11.2026"
        try await bench.fake.admin("grade", .object(graded))
        try await Self.refresh(bench)
        let exams = try await Self.notices(bench, "stag.exam.new")
        #expect(exams.map { $0["title"] } == ["Nový termín zkoušky: KIV/DB1 Databázové systémy 1"])
        #expect(
            exams.first?["body"]?.stringValue?.hasSuffix(", obsazeno 3/10 míst. stag.exams.register term_id=2000001") == true,
            "\(exams.first?["body"] ?? .null)")
        let grades = try await Self.notices(bench, "stag.grade.new")
        #expect(grades.first?["body"]?.stringValue?.hasPrefix("Známka 2 (splněno)") == true, "\(grades.first?["body"] ?? .null)")
        let remindAt = ISO8601.date("2026-11-24T11:45:00Z")!
        await bench.clock.waitForSleeper { $0 == remindAt }
        bench.clock.advance(to: remindAt)
        _ = try await withDeadline(10, "the class reminder") { await bench.host.stdout.next { $0.contains("stag.class.soon") } }
        let reminders = try await Self.notices(bench, "stag.class.soon")
        #expect(reminders.map { $0["title"] } == ["Za 15 min: KIV/PPA1 Počítače a programování 1 (Cvičení)"])
        #expect(reminders.first?["body"] == "13:00–14:35 v UC-326")
        await bench.stop()
    }

    /// With `class_reminder_min`, each refresh arms a reminder before each class (not exams):
    /// today's KIV/PPA1 lab at 13:00 in Prague is told at 12:45.
    @Test func aClassIsRemindedItsLeadBeforeFromTheRefreshedTimetable() async throws {
        let bench = try await StagBench.start {
            $0.http.timeoutSeconds = 2
            $0.plugins["stag"] = ["class_reminder_min": 15]
        }
        try await bench.fake.loadFixture()
        try await bench.login()
        try await Self.refresh(bench)
        let remindAt = ISO8601.date("2026-11-24T11:45:00Z")!
        await bench.clock.waitForSleeper { $0 == remindAt }
        bench.clock.advance(to: remindAt)
        _ = try await withDeadline(10, "the class reminder") { await bench.host.stdout.next { $0.contains("stag.class.soon") } }
        let reminders = try await Self.notices(bench, "stag.class.soon")
        #expect(reminders.map { $0["title"] } == ["In 15 min: KIV/PPA1 Počítače a programování 1 (Cvičení)"])
        #expect(reminders.first?["body"] == "13:00–14:35 in UC-326")
        // The clock's move made the refresh job due: it runs, and sleeps again (11:45 + 30 min).
        await bench.clock.waitForSleeper { $0 >= remindAt.addingTimeInterval(1800) && $0 <= remindAt.addingTimeInterval(1861) }
        // Removing the account disarms its reminders and forgets its classes.
        func kept() async throws -> String? {
            try await bench.host.host.store.pool.read { db in
                try String.fetchOne(db, sql: "SELECT items FROM host_refresh WHERE plugin = 'stag' AND name = 'classes' AND account = 'school'")
            }
        }
        #expect(try await kept()?.contains("2026-11-30") == true, "next Monday's lecture is kept for a restart")
        _ = try await bench.host.call("stag.accounts.remove", ["account": "school"]).get()
        #expect(try await kept() == "{}")
        await bench.stop()
    }

    @Test func whatArrivesWhileTheTicketIsExpiredIsToldAfterTheNewLogin() async throws {
        let bench = try await StudyTests.student()
        try await Self.refresh(bench)
        try await bench.fake.admin("expire")
        let failed = try await bench.host.call("jobs.run", ["id": "stag.refresh"]).get()
        #expect(failed["last_outcome"] == "failed", "\(failed)")
        #expect(try await Self.notices(bench, "stag.auth.expired").count == 1)
        try await bench.fake.admin("term", Self.term(2_000_002, subject: "KMA/MA1", day: "20.12.2026"))
        try await Self.refresh(bench)  // skips the account that needs a login
        #expect(try await Self.notices(bench, "stag.exam.new").isEmpty)
        try await bench.login()
        try await Self.refresh(bench)
        #expect(try await Self.notices(bench, "stag.exam.new").map { $0["title"] } == ["New exam term: KMA/MA1 Matematická analýza 1"])
        await bench.stop()
    }

    @Test func aWatchedFullTermTellsEachTimeASeatFrees() async throws {
        let bench = try await StudyTests.student()
        let watched = try await bench.host.call("stag.exams.watch", ["term_id": 1_118_484]).get()
        #expect(watched["watch"]?["state"] == "full")
        #expect(try await bench.host.call("stag.exams.watches").get()["watches"]?.arrayValue?.map { $0["term_id"] } == [1_118_484])
        _ = try await bench.host.call("jobs.run", ["id": "stag.watch"]).get()
        #expect(try await Self.notices(bench, "stag.exam.seat_freed").isEmpty)

        for round in 1...2 {
            try await bench.fake.admin("seat", ["termIdno": 1_118_484, "obsazeni": 9])
            _ = try await bench.host.call("jobs.run", ["id": "stag.watch"]).get()
            _ = try await bench.host.call("jobs.run", ["id": "stag.watch"]).get()
            let freed = try await Self.notices(bench, "stag.exam.seat_freed")
            #expect(freed.count == round, "once per full → free")
            #expect(freed.last?["body"]?.stringValue?.hasSuffix("Register: assistantctl stag.exams.register term_id=1118484") == true)
            try await bench.fake.admin("seat", ["termIdno": 1_118_484, "obsazeni": 10])
            _ = try await bench.host.call("jobs.run", ["id": "stag.watch"]).get()
        }
        _ = try await bench.host.call("stag.exams.unwatch", ["term_id": 1_118_484]).get()
        guard case .failure(let gone) = try await bench.host.call("stag.exams.unwatch", ["term_id": 1_118_484]) else {
            Issue.record("unwatched twice")
            return
        }
        #expect(gone.code == 1307)
        await bench.stop()
    }

    @Test func autoRegisterRegistersAndSaysSo() async throws {
        let bench = try await StudyTests.student()
        _ = try await bench.host.call("stag.exams.watch", ["term_id": 1_118_484, "auto_register": true]).get()
        try await bench.fake.admin("seat", ["termIdno": 1_118_484, "obsazeni": 9])
        _ = try await bench.host.call("jobs.run", ["id": "stag.watch"]).get()
        let freed = try await Self.notices(bench, "stag.exam.seat_freed")
        #expect(freed.count == 1)
        #expect(freed.first?["body"]?.stringValue?.hasSuffix("Registered for you.") == true)
        let term = try await bench.host.call("stag.exams").get()["terms"]?.arrayValue?.first { $0["term_id"] == 1_118_484 }
        #expect(term?["state"] == "registered")
        #expect(term?["occupied"] == 10)

        // Refused: the seat is taken again before the plugin registers (STAG's words in the notice).
        _ = try await bench.host.call("stag.exams.unregister", ["term_id": 1_118_484]).get()
        try await bench.fake.admin("seat", ["termIdno": 1_118_484, "obsazeni": 10])
        _ = try await bench.host.call("stag.exams.watch", ["term_id": 1_118_484, "auto_register": true]).get()
        var refusing = StagFake.fixture["terms"]!.arrayValue![2].objectValue!
        refusing["obsazeni"] = "9"
        refusing["lzeZapsatOdepsat"] = true
        refusing["kodDuvoduProcNelzeZapsatOdepsat"] = "OK"
        refusing["limit"] = "9"  // STAG lists a seat, but the register call finds the term full
        try await bench.fake.admin("term", .object(refusing))
        _ = try await bench.host.call("jobs.run", ["id": "stag.watch"]).get()
        let second = try await Self.notices(bench, "stag.exam.seat_freed")
        #expect(second.count == 2)
        #expect(second.last?["body"]?.stringValue?.hasSuffix("Registering failed: Termín je již plně obsazen.") == true)
        #expect(second.last?["severity"] == "warning")
        await bench.stop()
    }

    @Test func badWatchInputSendsNothing() async throws {
        let bench = try await StudyTests.student()
        let before = try await bench.fake.requests().count
        for (params, param) in [
            ([:] as JSONValue, "term_id"), (["term_id": "x"], "term_id"), (["term_id": 5, "auto_register": "maybe"], "auto_register"),
        ] {
            guard case .failure(let error) = try await bench.host.call("stag.exams.watch", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == .string(param))
        }
        #expect(try await bench.fake.requests().count == before)
        guard case .failure(let unknown) = try await bench.host.call("stag.exams.watch", ["term_id": 424242]) else {
            Issue.record("unknown term watched")
            return
        }
        #expect(unknown.code == -32010)
        #expect(try await bench.host.call("stag.exams.watches").get()["watches"] == [])
        await bench.stop()
    }
}
