import AssistantTesting
import Foundation
import HostCore
import Testing

/// The kit's study alerts on a small study system (`StudyPlugin`): which exams get a
/// last-chance, an evening and a seat-freed notice, and that each is sent once.
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
}
