import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// Timetable, exams with registration, grades and results against the fake, with the
/// reference's data shapes (`Fixtures/state.json`).
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)), .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct StudyTests {
    static func student() async throws -> StagBench {
        let bench = try await StagBench.start { $0.http.timeoutSeconds = 2 }
        try await bench.fake.loadFixture()
        try await bench.login()
        return bench
    }

    @Test func timetableIsThisWeekWithTheQuirksReadOut() async throws {
        let bench = try await Self.student()
        let week = try await bench.host.call("stag.timetable").get()
        #expect(week["stale"] == false)
        #expect(week["fetched_at"] == "2026-11-24T08:00:00Z")
        let events = try require(week["events"]?.arrayValue)
        #expect(events.map { $0["date"] } == ["2026-11-23", "2026-11-24", "2026-11-26"], "Monday to Sunday of this week, sorted")
        #expect(
            events[0] == [
                "date": "2026-11-23", "start": "09:20", "end": "11:00", "subject": "KMA/MA1", "name": "Matematická analýza 1",
                "type": "Přednáška",
                "room": "US-217", "teachers": ["RNDr. Jan Novák, Ph.D."], "week_parity": "every", "note": nil, "role": "student",
                "action_id": 643817, "term_id": nil,
            ])
        #expect(events[1]["teachers"] == ["Ing. A B, Ph.D.", "C D"], "names split by their quotes, not by commas")
        #expect(events[1]["week_parity"] == "even")
        #expect(events[1]["note"] == "24.11.2026: Koná se (proběhne v EP120)")
        #expect(events[2]["type"] == "exam")
        #expect(events[2]["term_id"] == 1_118_482)
        #expect(events[2]["week_parity"] == .null)

        let next = try await bench.host.call("stag.timetable", ["from": "2026-11-30", "to": "2026-11-30"]).get()
        #expect(next["events"]?.arrayValue?.map { $0["date"] } == ["2026-11-30"])
        let sent = try await bench.fake.requests().filter { $0["path"] == "rozvrhy/getRozvrhByStudent" }
        #expect(sent.last?["query"]?["datumOd"] == "30.11.2026", "STAG gets d.M.yyyy, never an ISO date")
        #expect(sent.last?["query"]?["osCislo"] == "F20B0001P")
        await bench.stop()
    }

    @Test func aTeacherAndStudentSeesBothRoles() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.loadFixture()
        try await bench.login(user: "dual")
        let teacher = try await bench.host.call("stag.timetable", ["role": "teacher"]).get()
        #expect(teacher["events"]?.arrayValue?.map { $0["subject"] } == ["KPO/TP"])
        #expect(teacher["events"]?.arrayValue?.first?["week_parity"] == "odd")
        #expect(teacher["events"]?.arrayValue?.first?["role"] == "teacher")
        let all = try await bench.host.call("stag.timetable").get()
        #expect(all["events"]?.arrayValue?.map { $0["role"] } == ["teacher"], "the student role has no classes this week")
        let byTeacher = try await bench.fake.requests().filter { $0["path"] == "rozvrhy/getRozvrhByUcitel" }
        #expect(byTeacher.last?["query"]?["stagUser"] == "DVORAKP", "each request acts as its role")
        await bench.stop()
    }

    @Test func examTermsHaveTheirStatesInOrder() async throws {
        let bench = try await Self.student()
        let terms = try require(try await bench.host.call("stag.exams").get()["terms"]?.arrayValue)
        #expect(terms.map { $0["state"] } == ["registered", "available", "full", "closed"])
        #expect(
            terms[0] == [
                "term_id": 1_118_482, "subject": "KIV/VSS", "name": "Vývoj softwarových systémů", "kind": "Zkouška", "date": "2026-11-26",
                "start": "10:00", "end": "14:00", "room": "UC-355", "examiner": "Ing. Karel Svoboda, Ph.D.", "occupied": 1, "limit": 10,
                "state": "registered", "reason": nil, "register_deadline": "2026-11-25T09:00", "unregister_deadline": "2026-11-25T10:00",
                "note": "Sraz bude před místností UN 306.",
            ])
        #expect(terms[1]["start"] == "09:00", "9:00:00 becomes 09:00")
        #expect(terms[2]["reason"] == "Termín je plně obsazen.")
        #expect(terms[3]["limit"] == .null, "\"null\" is no limit")
        #expect(terms[3]["reason"] == "Přihlašování skončilo.")
        let filtered = try await bench.host.call("stag.exams", ["subject": "kma/ma1"]).get()
        #expect(filtered["terms"]?.arrayValue?.map { $0["term_id"] } == [1_118_484, 1_118_485])
        // One term by its id (what a person is asked about before registering), from the same read.
        var one = try require(try await bench.host.call("stag.exams.term", ["term_id": 1_118_482]).get().objectValue)
        #expect(one["stale"] == false && one["fetched_at"]?.stringValue != nil)
        one["stale"] = nil
        one["fetched_at"] = nil
        #expect(JSONValue.object(one) == terms[0])
        // The question registration asks, filled from it.
        let help = try await bench.host.call("help", ["method": "stag.exams.register"]).get()
        let question = try require(ConfirmSentence(json: help["confirm"]))
        #expect(question.details == "stag.exams.term")
        #expect(
            question.filled(arguments: ["term_id": 1_118_482], details: one)
                == "Register for KIV/VSS Vývoj softwarových systémů, exam on Thu 26 Nov 2026 10:00 in UC-355?")
        guard case .failure(let unknown) = try await bench.host.call("stag.exams.term", ["term_id": 42]) else {
            Issue.record("a term that is not listed was found")
            return
        }
        #expect(
            unknown.code == -32602 && unknown.message == "Invalid params: 'term_id' 42 is not among your exam terms (stag.exams lists them)",
            "\(unknown.message)")
        await bench.stop()
    }

    @Test func registrationSucceedsOnlyOnOKAndIsNeverRetried() async throws {
        let bench = try await Self.student()
        // Listed (and so cached) before the change: the list must not go on showing the term as it was.
        let listed = try await bench.host.call("stag.exams").get()["terms"]?.arrayValue?.first { $0["term_id"] == 1_118_483 }
        #expect(listed?["state"] != "registered" && listed?["occupied"] == 3)
        let done = try await bench.host.call("stag.exams.register", ["term_id": 1_118_483]).get()
        #expect(done["term_id"] == 1_118_483 && done["registered"] == true && done["message"] == "OK")
        #expect(done["term"]?["state"] == "registered" && done["term"]?["occupied"] == 4)
        let after = try await bench.host.call("stag.exams").get()["terms"]?.arrayValue?.first { $0["term_id"] == 1_118_483 }
        #expect(after?["state"] == "registered")
        #expect(after?["occupied"] == 4)
        let says = try require(ShortAnswer(json: try await bench.host.call("help", ["method": "stag.exams.register"]).get()["says"]))
        #expect(
            says.said(result: done, arguments: ["term_id": 1_118_483], zone: .gmt)
                == "Registered for KIV/DB1 Databázové systémy 1 on Thu 3 Dec 2026 09:00 (4 of 10 seats taken)")

        for (method, term, reason) in [
            ("stag.exams.register", 1_118_483, "Na termín jste již přihlášen(a)."),
            ("stag.exams.register", 1_118_484, "Termín je již plně obsazen."),
            ("stag.exams.register", 999, "Termín neexistuje."),
        ] {
            guard case .failure(let refused) = try await bench.host.call(method, ["term_id": .int(Int64(term))]) else {
                Issue.record("\(method) \(term) succeeded")
                continue
            }
            #expect(refused.code == 1301)
            #expect(refused.message == reason)
            #expect(refused.data?["reason"] == .string(reason))
        }
        #expect(try await bench.host.call("stag.exams.unregister", ["term_id": 1_118_483]).get()["registered"] == false)

        // A 500 on a registration is not retried: one request, an error, no success.
        try await bench.fake.admin("state", ["refusal_status": 500])
        let before = try await bench.fake.requests().count
        guard case .failure(let failed) = try await bench.host.call("stag.exams.register", ["term_id": 1_118_484]) else {
            Issue.record("a 500 was a success")
            return
        }
        #expect(failed.code == -32004)
        #expect(try await bench.fake.requests().count == before + 1, "sent once")
        await bench.stop()
    }

    @Test func gradesAndResultsMatchHandComputedFigures() async throws {
        let bench = try await Self.student()
        let grades = try require(try await bench.host.call("stag.grades").get()["grades"]?.arrayValue)
        #expect(grades.count == 7)
        let db1 = try require(grades.first { $0["subject"] == "KIV/DB1" })
        #expect(
            db1 == [
                "subject": "KIV/DB1", "name": "Databázové systémy 1", "credits": 6, "year": 2025, "semester": "ZS", "grade": 1, "passed": true,
                "date": "2026-01-19", "attempt": 1, "examiner": "Horák Martin", "kind": "exam",
            ])
        let ma1 = try require(grades.first { $0["subject"] == "KMA/MA1" })
        #expect(ma1["grade"] == 2.5)
        #expect(ma1["attempt"] == 2)
        #expect(grades.first { $0["subject"] == "KIV/PPA1" }?["passed"] == false)
        #expect(grades.first { $0["subject"] == "KFY/FYI" }?["grade"] == "S")
        #expect(grades.first { $0["subject"] == "KFY/FYI" }?["kind"] == "credit")
        #expect(grades.first { $0["subject"] == "KIV/OS" }?["grade"] == .null)
        #expect(grades.first { $0["subject"] == "KIV/OS" }?["attempt"] == .null)
        #expect(grades.first { $0["subject"] == "KMA/MA2" }?["grade"] == "N")

        let results = try await bench.host.call("stag.results").get()
        // ZS 2025: DB1 1 (6 cr), MA1 2.5 (5 cr), PPA1 4 (4 cr), FYI S (3 cr).
        // average = (1·6 + 2.5·5) / 11 = 1.682
        #expect(
            results["terms"]?.arrayValue?.first == [
                "year": 2025, "semester": "ZS", "credits_enrolled": 18, "credits_obtained": 14, "subjects_enrolled": 4, "subjects_passed": 3,
                "weighted_average": 1.682,
            ])
        // LS 2025: UPA 1.5 (6 cr), OS none (5 cr), MA2 N (4 cr).
        #expect(
            results["terms"]?.arrayValue?.last == [
                "year": 2025, "semester": "LS", "credits_enrolled": 15, "credits_obtained": 6, "subjects_enrolled": 3, "subjects_passed": 1,
                "weighted_average": 1.5,
            ])
        // Total: (6 + 12.5 + 9) / 17 = 1.618; with the 4: (27.5 + 16) / 21 = 2.071.
        #expect(
            results["total"] == [
                "credits_enrolled": 33, "credits_obtained": 20, "subjects_enrolled": 7, "subjects_passed": 4, "weighted_average": 1.618,
                "weighted_average_all": 2.071,
            ])
        // Against the target: 60 credits a year by default, and the student is in the year STAG gives.
        let year = try #require(try await bench.host.call("stag.student").get()["year_of_study"]?.intValue)
        #expect(
            results["target"] == [
                "credits_per_year": 60, "year_of_study": .int(year), "expected": .int(60 * year), "obtained": 20,
                "short": .int(max(0, 60 * year - 20)),
            ], "\(results["target"] ?? .null)")
        #expect(year == 2, "the fixture's student is in the second year")
        await bench.stop()
    }

    /// Tuesday 24 November 2026: the KIV/PPA1 lab of the day, and the KIV/VSS exam I hold on
    /// Thursday (within 7 days); Monday's lecture and the unregistered terms are not shown.
    @Test func todayShowsTheDaysClassesAndMyExamsOfTheWeek() async throws {
        let bench = try await Self.student()
        let today = try await bench.host.call("today").get()
        let items = today["items"]?.arrayValue ?? []
        #expect(
            items == [
                [
                    "kind": "class", "plugin": "stag", "title": "KIV/PPA1 Počítače a programování 1 (Cvičení)",
                    "start": "2026-11-24T12:00:00Z",
                    "end": "2026-11-24T13:35:00Z", "all_day": false, "place": "UC-326", "detail": "Ing. A B, Ph.D., C D", "account": nil,
                    "overdue": false,
                ],
                [
                    "kind": "exam", "plugin": "stag", "title": "KIV/VSS Vývoj softwarových systémů", "start": "2026-11-26T09:00:00Z",
                    "end": "2026-11-26T13:00:00Z", "all_day": false, "place": "UC-355", "detail": "Ing. Karel Svoboda, Ph.D.", "account": nil,
                    "overdue": false,
                ],
            ])
        #expect(today["problems"] == [])
        // Asked again within 15 minutes, the day comes from the cache: STAG is not asked (it hangs now).
        let asked = try await bench.fake.requests().count
        try await bench.fake.admin("hang", ["on": true, "seconds": 4])
        let cached = try await bench.host.call("today").get()
        #expect(cached["items"] == today["items"])
        try await bench.fake.admin("hang", ["on": false])
        let later = try await bench.fake.requests()
        #expect(later.count == asked, "nothing reached STAG: \(later.suffix(later.count - asked))")
        await bench.stop()
    }

    @Test func anExpiredTicketNeedsReauthOnceAndANewLoginRecovers() async throws {
        let bench = try await Self.student()
        try await bench.fake.admin("expire")
        for _ in 0..<2 {
            guard case .failure(let expired) = try await bench.host.call("stag.exams") else {
                Issue.record("served after expiry")
                return
            }
            #expect(expired.code == -32003)
            #expect(expired.data?["account"] == "school")
            #expect(expired.data?["fix"]?.stringValue?.hasPrefix("assistantctl stag.login account=school") == true)
        }
        // The notice reaches stdout through the outbox, after the call that flipped the account.
        _ = await bench.host.stdout.next { $0.contains("stag.auth.expired") }
        #expect(try await bench.host.call("stag.status").get()["accounts"]?.arrayValue?.first?["state"] == "needs_reauth")
        try await bench.login()
        #expect(try await bench.host.call("stag.exams").get()["terms"]?.arrayValue?.count == 4)
        let notices = bench.host.stdout.lines.filter { $0.contains("stag.auth.expired") }
        #expect(notices.count == 1, "one notice per expiry: \(notices)")
        await bench.stop()
    }

    @Test func theCacheServesStaleDataWhileSTAGHangs() async throws {
        let bench = try await Self.student()
        let fresh = try await bench.host.call("stag.grades").get()
        #expect(fresh["stale"] == false)
        try await bench.fake.admin("hang", ["on": true, "seconds": 4])
        bench.clock.advance(by: 3600)
        let clock = bench.clock
        let stale = try await clock.whileAdvancing { try await bench.host.call("stag.grades").get() }
        #expect(stale["stale"] == true)
        #expect(stale["fetched_at"] == "2026-11-24T08:00:00Z")
        #expect(stale["grades"] == fresh["grades"])
        try await bench.fake.admin("hang", ["on": false])
        await bench.stop()
    }

    @Test func badStudyInputSendsNothing() async throws {
        let bench = try await Self.student()
        let before = try await bench.fake.requests().count
        let cases: [(String, JSONValue, String)] = [
            ("stag.timetable", ["from": "24.11.2026"], "from"),
            ("stag.timetable", ["from": "2026-02-30"], "from"),
            ("stag.timetable", ["from": "2026-12-01", "to": "2026-11-01"], "to"),
            ("stag.timetable", ["from": "2026-01-01", "to": "2028-01-01"], "to"),
            ("stag.timetable", ["role": "dean"], "role"),
            ("stag.timetable", ["account": "other"], "account"),
            ("stag.exams", ["subject": "MA1"], "subject"),
            ("stag.exams", ["subject": "KMA/MA1/x"], "subject"),
            ("stag.exams.register", [:], "term_id"),
            ("stag.exams.register", ["term_id": "abc"], "term_id"),
            ("stag.exams.register", ["term_id": 0], "term_id"),
            ("stag.exams.unregister", ["term_id": -5], "term_id"),
            ("stag.grades", ["year": 1800], "year"),
            ("stag.grades", ["year": "last"], "year"),
        ]
        try await bench.host.expectInvalidParams(cases)
        #expect(try await bench.fake.requests().count == before, "nothing reached STAG")
        // A student-only account has no teacher role.
        guard case .failure(let noRole) = try await bench.host.call("stag.timetable", ["role": "teacher"]) else {
            Issue.record("no role accepted")
            return
        }
        #expect(noRole.code == 1303)
        await bench.stop()
    }
}

/// The teaching week in `today`, from STAG's calendar of the year (`kalendar/getKalendarRoku`):
/// the ISO weeks of the semester begun by the day, and the parity the day is taught as.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)), .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct TeachingWeekTests {
    @Test func todaySaysTheTeachingWeekAndItsParity() async throws {
        let bench = try await StudyTests.student()
        func week(_ date: String) async throws -> JSONValue? {
            try await bench.host.call("today", ["date": .string(date)]).get()["weeks"]?.arrayValue?.first { $0["plugin"] == "stag" }
        }
        let before = try await bench.fake.requests().count
        #expect(try await week("2026-09-21") == ["plugin": "stag", "semester": "ZS 2026/2027", "teaching_week": 1, "parity": "odd"])
        #expect(try await week("2026-11-09") == ["plugin": "stag", "semester": "ZS 2026/2027", "teaching_week": 8, "parity": "even"])
        // A public holiday is still in its week; a make-up day is taught as an odd week's Friday.
        #expect(try await week("2026-10-28")?["teaching_week"] == 6)
        #expect(try await week("2026-12-21")?["parity"] == "even")
        #expect(try await week("2026-12-22") == ["plugin": "stag", "semester": "ZS 2026/2027", "teaching_week": 14, "parity": "odd"])
        #expect(try await week("2026-12-27")?["teaching_week"] == 14, "Sunday ends the week")
        // Before the semester, in the exam period and in summer: no teaching week.
        #expect(try await week("2026-09-20") == nil)
        #expect(try await week("2026-12-28") == nil)
        #expect(try await week("2027-07-15") == nil)
        // The summer semester counts from its own first week.
        #expect(try await week("2027-02-15") == ["plugin": "stag", "semester": "LS 2026/2027", "teaching_week": 1, "parity": "odd"])
        #expect(try await week("2027-05-12")?["teaching_week"] == 13)
        let asked = try await bench.fake.requests().dropFirst(before).filter { $0["path"] == "kalendar/getKalendarRoku" }
        #expect(asked.count == 1, "the year's calendar is read once a day: \(asked)")
        #expect(asked.first?["query"]?["rok"] == "2026")
        await bench.stop()
    }
}
