import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// `kos.refresh`, `kos.evening` and `kos.watch` against the fake: a baseline without a flood,
/// each new thing once, nothing lost across an expired login, deadlines, seats freed.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct NoticeTests {
    static func notices(_ bench: AuthTests.Bench, _ topic: String) async throws -> [JSONValue] {
        let all = try await bench.call("notifications.list", ["limit": 500, "topic": .string(topic)])
        return (all.arrayValue ?? []).reversed()
    }

    static func run(_ bench: AuthTests.Bench, _ job: String) async throws {
        _ = try await bench.call("jobs.run", ["id": .string("kos." + job)])
    }

    @Test func theFirstRefreshIsABaselineThenEachNewThingIsToldOnce() async throws {
        let bench = try await TokenTests.loggedIn()
        try await Self.run(bench, "refresh")
        #expect(try await Self.notices(bench, "kos.*").isEmpty, "the baseline tells nothing")

        try await bench.admin(
            "exam", ["id": 904, "course": "BI-PA2", "start": "2027-01-14T13:00:00", "end": "2027-01-14T15:00:00", "capacity": 25, "occupied": 3])
        try await bench.admin("exam", ["id": 901, "occupied": 12])  // an occupancy change is not news
        try await bench.admin("event", ["id": 703, "course": "BI-ZMA", "name_cs": "Písemka", "name_en": "Written test"])
        try await bench.admin("enrollment", ["code": "BI-OPT", "completed": true])
        try await bench.admin("enrollment", ["code": "BI-PA2", "assessment": true])
        try await Self.run(bench, "refresh")
        let exams = try await Self.notices(bench, "kos.exam.new")
        #expect(exams.map { $0["title"] } == ["New exam date: BI-PA2"])
        #expect(exams.first?["body"] == "2027-01-14 13:00–15:00 in T9:105, 3/25 seats taken. Register in KOS: https://www.kos.cvut.cz")
        #expect(try await Self.notices(bench, "kos.event.new").map { $0["title"] } == ["New course event: BI-ZMA Písemka"])
        #expect(
            try await Self.notices(bench, "kos.result.changed").map { $0["title"] } == [
                "BI-OPT Optimalizace: completed", "BI-PA2 Programování a algoritmizace 2: assessment granted",
            ])
        try await Self.run(bench, "refresh")
        #expect(try await Self.notices(bench, "kos.*").count == 4, "nothing twice")
        await bench.stop()
    }

    /// Monday 6 October 2025, 07:00 in Prague (CEST): week 3 of B251, an odd week. BI-ZMA's
    /// odd-week tutorial begins at 07:30 (hour 1 of the grid) and is told at 07:15; the even-week
    /// BI-PA2 lab of Mondays is not this week's. BI-ZMA's assessment closes sign-up at the end of
    /// today (17 h), BI-PA2's new exam at the end of tomorrow (41 h): only the first is told.
    @Test func classRemindersFollowTheWeekParityAndASignupClosingTodayIsTold() async throws {
        let bench = try await TokenTests.loggedIn(at: "2025-10-06T05:00:00Z") {
            $0.plugins["kos"] = ["class_reminder_min": 15]
        }
        try await bench.admin("exam", ["id": 903, "signin": "2025-10-06"])
        try await bench.admin(
            "exam", ["id": 905, "course": "BI-PA2", "start": "2025-10-20T09:00:00", "capacity": 20, "occupied": 2, "signin": "2025-10-07"])
        try await Self.run(bench, "refresh")
        try await Self.run(bench, "refresh")
        let closing = try await Self.notices(bench, "kos.exam.signup_closing")
        #expect(closing.map { $0["title"] } == ["Sign-up closes soon: BI-ZMA on 2027-01-12 13:00–15:00"], "once, and not BI-PA2's")
        #expect(
            closing.first?["body"]
                == .string(
                    "Signing up for the 2027-01-12 13:00–15:00 assessment in T9:350 closes at the end of 2025-10-06 (12/30 seats taken). "
                        + "Register in KOS: https://www.kos.cvut.cz")
        )

        let remindAt = ISO8601.date("2025-10-06T05:15:00Z")!
        await bench.clock.waitForSleeper { $0 == remindAt }
        bench.clock.advance(to: remindAt)
        _ = try await withDeadline(10, "the class reminder") { await bench.host.stdout.next { $0.contains("kos.class.soon") } }
        let reminders = try await Self.notices(bench, "kos.class.soon")
        #expect(reminders.map { $0["title"] } == ["In 15 min: BI-ZMA Základy matematické analýzy (tutorial)"])
        #expect(reminders.first?["body"] == "07:30–09:00 in T9:348")
        await bench.stop()
    }

    /// Monday 6 October 2025 in an odd week: `today` shows BI-ZMA's odd-week tutorial (not the
    /// even-week BI-PA2 lab) and my BI-OPT exam on Wednesday, within 7 days.
    @Test func todayShowsTheDaysClassesByParityAndMyExamsOfTheWeek() async throws {
        let bench = try await TokenTests.loggedIn(at: "2025-10-06T05:00:00Z")
        try await bench.admin("exam", ["id": 902, "start": "2025-10-08T09:00:00", "end": "2025-10-08T11:00:00"])
        let today = try await bench.call("today")
        #expect(
            today["items"] == [
                [
                    "kind": "class", "plugin": "kos", "title": "BI-ZMA Základy matematické analýzy (tutorial)", "start": "2025-10-06T05:30:00Z",
                    "end": "2025-10-06T07:00:00Z", "all_day": false, "place": "T9:348", "detail": nil, "account": nil, "overdue": false,
                ],
                [
                    "kind": "exam", "plugin": "kos", "title": "BI-OPT (exam)", "start": "2025-10-08T07:00:00Z", "end": "2025-10-08T09:00:00Z",
                    "all_day": false, "place": "T9:107", "detail": "Ing. Tomáš Dvořák Ph.D.", "account": nil, "overdue": false,
                ],
            ])
        #expect(today["problems"] == [])
        // The semester began on Monday 22 September: this is its third teaching week, odd.
        #expect(today["weeks"] == [["plugin": "kos", "semester": "B251", "teaching_week": 3, "parity": "odd"]], "\(today["weeks"] ?? .null)")
        #expect(DayView.render(today).hasPrefix("Monday 6 October 2025 · KOS: teaching week 3 (odd)\n"), "\(DayView.render(today))")
        let next = try await bench.call("today", ["date": "2025-10-14"])
        #expect(next["weeks"]?.arrayValue?.first?["teaching_week"] == 4 && next["weeks"]?.arrayValue?.first?["parity"] == "even")
        // A day after the semester: no classes, no teaching week.
        let later = try await bench.call("today", ["date": "2026-03-02"])
        #expect(later["items"] == [] && later["weeks"] == [])
        await bench.stop()
    }

    @Test func nothingIsLostWhileTheLoginHadExpired() async throws {
        let bench = try await TokenTests.loggedIn()
        try await Self.run(bench, "refresh")
        try await bench.admin("revoke")
        #expect(try await bench.failure("kos.profile")?.code == -32003)
        try await bench.admin("exam", ["id": 907, "course": "BI-ZMA", "start": "2027-01-19T09:00:00"])
        try await Self.run(bench, "refresh")  // nothing to do without a login
        #expect(try await Self.notices(bench, "kos.exam.new").isEmpty)
        let started = try await bench.call("kos.login")
        _ = try await Browser.open(try #require(started["login_url"]?.stringValue))
        #expect(try await bench.call("kos.login.wait")["logged_in"] == true)
        try await Self.run(bench, "refresh")
        #expect(try await Self.notices(bench, "kos.exam.new").map { $0["title"] } == ["New exam date: BI-ZMA"], "compared with the state from before")
        await bench.stop()
    }

    @Test func cancelDeadlinesAndExamsTomorrow() async throws {
        let bench = try await TokenTests.loggedIn()
        // Now is 2026-11-24 09:00 in Prague: a date-only deadline today ends tonight; one in two days does not count yet.
        try await bench.admin(
            "exam",
            [
                "id": 905, "course": "BI-ZMA", "start": "2026-11-25T10:00:00", "end": "2026-11-25T12:00:00", "registered": true,
                "cancel": "2026-11-24",
            ])
        try await bench.admin("exam", ["id": 906, "course": "BI-OPT", "start": "2026-12-02T10:00:00", "registered": true, "cancel": "2026-11-26"])
        try await Self.run(bench, "refresh")
        let deadlines = try await Self.notices(bench, "kos.exam.deadline")
        #expect(deadlines.map { $0["title"] } == ["Last chance to cancel: BI-ZMA on 2026-11-25 10:00–12:00"])
        #expect(
            deadlines.first?["body"]?.stringValue?.hasPrefix("Cancelling the 2026-11-25 10:00–12:00 exam closes at the end of 2026-11-24.") == true)
        try await Self.run(bench, "evening")
        try await Self.run(bench, "evening")
        let tomorrow = try await Self.notices(bench, "kos.exam.tomorrow")
        #expect(tomorrow.map { $0["title"] } == ["Exam tomorrow: BI-ZMA"], "once, however often the job runs")
        #expect(tomorrow.first?["body"] == "2026-11-25 10:00–12:00 in T9:105, Ing. Tomáš Dvořák Ph.D.")
        await bench.stop()
    }

    @Test func aWatchedFullExamTellsEachTimeASeatFrees() async throws {
        let bench = try await TokenTests.loggedIn()
        let watched = try await bench.call("kos.exams.watch", ["exam_id": "901"])
        #expect(watched["watch"]?["full"] == true)
        #expect(watched["watch"]?["exam"]?["course"] == "BI-OPT")
        #expect(try await bench.call("kos.exams.watches")["watches"]?.arrayValue?.map { $0["exam_id"] } == ["901"])
        try await Self.run(bench, "watch")
        #expect(try await Self.notices(bench, "kos.exam.seat_freed").isEmpty, "still full")
        try await bench.admin("exam", ["id": 901, "occupied": 19])
        try await Self.run(bench, "watch")
        try await Self.run(bench, "watch")
        var freed = try await Self.notices(bench, "kos.exam.seat_freed")
        #expect(freed.map { $0["title"] } == ["A seat is free: BI-OPT on 2027-01-10 09:00–11:00"])
        #expect(freed.first?["body"] == "2027-01-10 09:00–11:00 in T9:105: 19/20 seats taken. Register in KOS: https://www.kos.cvut.cz")
        try await bench.admin("exam", ["id": 901, "occupied": 20])
        try await Self.run(bench, "watch")
        try await bench.admin("exam", ["id": 901, "occupied": 18])
        try await Self.run(bench, "watch")
        freed = try await Self.notices(bench, "kos.exam.seat_freed")
        #expect(freed.count == 2, "full again, then free again: told again")
        #expect(try await bench.call("kos.exams.watches")["watches"]?.arrayValue?.first?["seats_freed"] == 2)

        #expect(try await bench.call("kos.exams.unwatch", ["exam_id": "901"]) == ["exam_id": "901", "watched": false])
        #expect(try await bench.failure("kos.exams.unwatch", ["exam_id": "901"])?.code == 1406)
        #expect(try await bench.failure("kos.exams.watch", ["exam_id": "99999"])?.code == -32010)
        for params in [[:] as JSONValue, ["exam_id": "abc"], ["exam_id": ""], ["exam_id": "9999999999999999999999"]] {
            #expect(try await bench.failure("kos.exams.watch", params)?.data?["param"] == "exam_id", "\(params)")
        }
        #expect(try await bench.call("kos.exams.watches")["watches"] == [])
        await bench.stop()
    }

    @Test func anExamThatHasBegunIsNoLongerWatched() async throws {
        // Seven minutes: a sleep no HTTP timeout shares, so the wait below finds the job's own.
        let bench = try await TokenTests.loggedIn(configure: { $0.plugins["kos"] = ["watch_every_min": 7] })
        try await bench.admin("exam", ["id": 908, "course": "BI-OPT", "start": "2026-11-24T09:30:00", "capacity": 10, "occupied": 10])
        _ = try await bench.call("kos.exams.watch", ["exam_id": "908"])
        // The scheduled run after the clock moves on: over once the job sleeps until its next slot.
        bench.clock.advance(by: 3600)
        let now = bench.clock.now
        await bench.clock.waitForSleeper { $0 >= now.addingTimeInterval(420) && $0 <= now.addingTimeInterval(431) }
        #expect(try await bench.call("kos.exams.watches")["watches"] == [])
        await bench.stop()
    }

    @Test func eachRefreshRewritesTheConfiguredCalendar() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("feed.ics")
        let bench = try await TokenTests.loggedIn(configure: { $0.plugins["kos"] = ["ics_path": .string(path)] })
        try await Self.run(bench, "refresh")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == 57)
        try await bench.admin("exam", ["id": 909, "course": "BI-OPT", "start": "2027-01-24T09:00:00", "registered": true])
        try await Self.run(bench, "refresh")
        #expect(try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "BEGIN:VEVENT").count - 1 == 58, "the new registered exam")
        await bench.stop()
    }
}
