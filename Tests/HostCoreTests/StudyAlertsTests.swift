import AssistantTesting
import Foundation
import HostCore
import StudyKit
import Testing

/// The kit's study alerts and class reminders on a small study system (`StudyPlugin`): which
/// exams get a last-chance, an evening, a sign-up-closing and a seat-freed notice, which classes
/// a reminder, and that each is sent once.
@Suite(.stopsTestHosts)
struct StudyAlertsTests {
    // 2027-01-15T08:00:00Z, 09:00 in Prague.
    static let now = Date(timeIntervalSince1970: 1_800_000_000 + 0)

    static func titles(_ host: TestHost, _ topic: String) async throws -> [String] {
        let all = try await host.call("notifications.list", ["limit": 100, "topic": .string(topic)]).get()
        return (all.arrayValue ?? []).compactMap { $0["title"]?.stringValue }.sorted()
    }

    static func local(_ offset: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Prague")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: now.addingTimeInterval(offset))
    }

    @Test func lastChanceOnlyForRegisteredExamsWithinADayOfTheirDeadline() async throws {
        let host = try await TestHost.started(plugins: [StudyPlugin()], clock: TestClock(now: Self.now))
        let exams: JSONValue = [
            ["id": "soon", "registered": true, "leave_by": .string(Self.local(3 * 3600))],
            ["id": "not-mine", "registered": false, "leave_by": .string(Self.local(3 * 3600))],
            ["id": "later", "registered": true, "leave_by": .string(Self.local(2 * 86_400))],
            ["id": "passed", "registered": true, "leave_by": .string(Self.local(-60))],
            ["id": "no-deadline", "registered": true],
        ]
        #expect(try await host.call("study.deadlines", ["exams": exams]).get() == ["soon"])
        // Run again (the refresh runs every half hour): the notice is not sent twice.
        _ = try await host.call("study.deadlines", ["exams": exams]).get()
        #expect(try await Self.titles(host, "study.exam.deadline") == ["leave soon"])
        await host.stop()
    }

    @Test func theEveningNamesRegisteredExamsOfTheNextDayOnce() async throws {
        let host = try await TestHost.started(plugins: [StudyPlugin()], clock: TestClock(now: Self.now))
        let exams: JSONValue = [
            ["id": "a", "registered": true, "day": "2027-01-16"], ["id": "b", "registered": false, "day": "2027-01-16"],
            ["id": "c", "registered": true, "day": "2027-01-17"], ["id": "d", "registered": true],
        ]
        #expect(try await host.call("study.tomorrow", ["exams": exams, "day": "2027-01-16"]).get() == ["a"])
        _ = try await host.call("study.tomorrow", ["exams": exams, "day": "2027-01-16"]).get()
        #expect(try await Self.titles(host, "study.exam.tomorrow") == ["tomorrow a"])
        await host.stop()
    }

    @Test func aSeatThatFreesIsToldAndRegisteredForWhenAsked() async throws {
        let host = try await TestHost.started(plugins: [StudyPlugin()], clock: TestClock(now: Self.now))
        let free: JSONValue = ["id": "x", "free": true]
        // Still full, or free but not full before: nothing.
        #expect(
            try await host.call("study.seat", ["exam": ["id": "x", "free": false], "was_full": true]).get() == ["freed": 2, "registered": false])
        #expect(try await host.call("study.seat", ["exam": free, "was_full": false]).get() == ["freed": 2, "registered": false])
        #expect(try await Self.titles(host, "study.exam.seat_freed").isEmpty)
        // Full before, free now: told, with the count; registering when asked, and its failure told.
        #expect(try await host.call("study.seat", ["exam": free, "was_full": true]).get() == ["freed": 3, "registered": false])
        #expect(
            try await host.call("study.seat", ["exam": ["id": "y", "free": true], "was_full": true, "register": "works"]).get() == [
                "freed": 3, "registered": true,
            ])
        #expect(
            try await host.call("study.seat", ["exam": ["id": "z", "free": true], "was_full": true, "register": "fails"]).get() == [
                "freed": 3, "registered": false,
            ])
        let notices = try await host.call("notifications.list", ["limit": 100, "topic": "study.exam.seat_freed"]).get().arrayValue ?? []
        let byTitle = Dictionary(notices.map { ($0["title"]?.stringValue ?? "", $0["body"]?.stringValue ?? "") }) { first, _ in first }
        #expect(byTitle == ["seat x #3": "not asked", "seat y #3": "registered", "seat z #3": "failed: the term is closed"])
        // Already registered: no seat to tell about.
        #expect(
            try await host.call("study.seat", ["exam": ["id": "w", "free": true, "registered": true], "was_full": true]).get() == [
                "freed": 2, "registered": true,
            ])
        await host.stop()
    }

    @Test func aSignupClosingWithinTheWindowIsToldOnSubjectsWithoutAnExamOfMine() async throws {
        let host = try await TestHost.started(plugins: [StudyPlugin()], clock: TestClock(now: Self.now))
        let exams: JSONValue = [
            ["id": "in-23h", "subject": "MA1", "free": true, "signup_by": .string(Self.local(23 * 3600))],
            ["id": "in-25h", "subject": "PA1", "free": true, "signup_by": .string(Self.local(25 * 3600))],
            ["id": "full", "subject": "OS", "free": false, "signup_by": .string(Self.local(3600))],
            ["id": "closed", "subject": "OS", "free": true, "signup_by": .string(Self.local(-60))],
            ["id": "no-deadline", "subject": "OS", "free": true],
            // UPA: I hold one exam of it, so another's sign-up closing is nothing to me.
            ["id": "mine", "subject": "UPA", "registered": true, "signup_by": .string(Self.local(3600))],
            ["id": "other-upa", "subject": "UPA", "free": true, "signup_by": .string(Self.local(3600))],
        ]
        #expect(try await host.call("study.signup", ["exams": exams]).get() == ["in-23h"])
        _ = try await host.call("study.signup", ["exams": exams]).get()
        #expect(try await Self.titles(host, "study.exam.signup_closing") == ["sign up in-23h"], "told once")
        await host.stop()

        // The window is the option; zero turns it off.
        let wide = try await TestHost.started(plugins: [StudyPlugin()], clock: TestClock(now: Self.now)) {
            $0.plugins["study"] = ["signup_warning_h": 48]
        }
        #expect(try await wide.call("study.signup", ["exams": exams]).get() == ["in-23h", "in-25h"])
        await wide.stop()
        let off = try await TestHost.started(plugins: [StudyPlugin()], clock: TestClock(now: Self.now)) {
            $0.plugins["study"] = ["signup_warning_h": 0]
        }
        #expect(try await off.call("study.signup", ["exams": exams]).get() == [])
        await off.stop()
    }

    static func lesson(_ key: String, startsIn minutes: Double, room: JSONValue = "US-217") -> JSONValue {
        [
            "key": .string(key), "start": .string(ISO8601.string(now.addingTimeInterval(minutes * 60))),
            "end": .string(ISO8601.string(now.addingTimeInterval((minutes + 100) * 60))), "title": .string("KMA/MA1 \(key)"), "room": room,
        ]
    }

    @Test func aClassIsRemindedItsLeadBeforeAndAGoneClassIsNot() async throws {
        let clock = TestClock(now: Self.now)
        let host = try await TestHost.started(plugins: [StudyPlugin()], clock: clock) { $0.plugins["study"] = ["class_reminder_min": 15] }
        // 09:00 Prague now: lecture at 10:20, lab at 11:00, one begun already, one beyond the horizon.
        let classes: JSONValue = [
            Self.lesson("lecture", startsIn: 80), Self.lesson("lab", startsIn: 120, room: .null), Self.lesson("begun", startsIn: -5),
            Self.lesson("far", startsIn: 9 * 24 * 60),
        ]
        #expect(try await host.call("study.classes", ["classes": classes]).get() == ["lab", "lecture"])
        // A refresh without the lab cancels its reminder.
        #expect(try await host.call("study.classes", ["classes": [Self.lesson("lecture", startsIn: 80)]]).get() == ["lecture"])
        let remindAt = Self.now.addingTimeInterval(65 * 60)
        await clock.waitForSleeper { $0 == remindAt }
        clock.advance(to: remindAt)
        let line = try await withDeadline(10, "the class reminder") { await host.stdout.next { $0.contains("study.class.soon") } }
        #expect(line.contains("In 15 min: KMA/MA1 lecture"))
        clock.advance(to: Self.now.addingTimeInterval(125 * 60))
        let notices = try await host.call("notifications.list", ["limit": 10, "topic": "study.class.soon"]).get().arrayValue ?? []
        #expect(notices.map { $0["title"] } == ["In 15 min: KMA/MA1 lecture"], "the lab was cancelled")
        #expect(notices.first?["body"] == "10:20–12:00 in US-217", "Prague's wall clock")
        #expect(notices.first?["time"] == .string(ISO8601.string(remindAt)))
        #expect(try await host.call("study.armed").get() == [], "a fired reminder is no longer armed")
        await host.stop()
    }

    @Test func aRestartArmsTheRemindersAgainFromTheClassesReadLast() async throws {
        let clock = TestClock(now: Self.now)
        let directory = TemporaryDirectory()
        let configure: (inout HostConfiguration) -> Void = { $0.plugins["study"] = ["class_reminder_min": 10] }
        let first = try await TestHost.started(plugins: [StudyPlugin()], clock: clock, directory: directory, configure: configure)
        _ = try await first.call("study.classes", ["classes": [Self.lesson("a", startsIn: 30), Self.lesson("b", startsIn: 300)]]).get()
        _ = try await first.call("study.classes", ["classes": [Self.lesson("x", startsIn: 60)], "account": "other"]).get()
        await first.stop()

        // Down past a's reminder time (09:20) but before it begins (09:30): it is told at once.
        clock.advance(to: Self.now.addingTimeInterval(25 * 60))
        let second = try await TestHost.started(plugins: [StudyPlugin()], clock: clock, directory: directory, configure: configure)
        let line = try await withDeadline(10, "the late reminder") { await second.stdout.next { $0.contains("study.class.soon") } }
        #expect(line.contains("In 5 min: KMA/MA1 a"))
        #expect(try await second.call("study.armed").get() == ["b"])
        #expect(try await second.call("study.armed", ["account": "other"]).get() == ["x"])
        await second.stop()

        // Off: a restart arms nothing.
        let third = try await TestHost.started(plugins: [StudyPlugin()], clock: clock, directory: directory)
        #expect(try await third.call("study.armed").get() == [])
        await third.stop()
    }

    @Test func badClassesAreRefusedAndArmNothing() async throws {
        let host = try await TestHost.started(plugins: [StudyPlugin()], clock: TestClock(now: Self.now)) {
            $0.plugins["study"] = ["class_reminder_min": 15]
        }
        for bad in [["key": "k", "start": "tomorrow", "title": "t"], ["key": "k", "title": "no start"]] as [JSONValue] {
            guard case .failure = try await host.call("study.classes", ["classes": [bad]]) else {
                Issue.record("\(bad) accepted")
                continue
            }
        }
        #expect(try await host.call("study.armed").get() == [])
        await host.stop()
    }
}
