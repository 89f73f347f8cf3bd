import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// The Tasks part of `today`: the day's events and open to-dos, overdue to-dos from before on
/// today only; done and cancelled ones left out. Thursday 26 November 2026, 09:00 in Prague.
@Suite(.stopsTestHosts) struct DayPartTests {
    static let now = ISO8601.date("2026-11-26T08:00:00Z")!

    @Test func theDayHasItsEventsAndOpenToDosAndTodayTheOverdueOnes() async throws {
        let host = try await TestHost.started(plugins: [TasksPlugin()], clock: TestClock(now: Self.now)) {
            $0.timeZone = TimeZone(identifier: "Europe/Prague")!
        }
        func add(_ task: JSONValue) async throws -> JSONValue { try await host.call("tasks.add", task).get() }
        _ = try await add(["title": "Lecture", "kind": "event", "start": "2026-11-26 10:00", "duration_min": 90, "location": "US-217"])
        _ = try await add(["title": "Essay", "due": "2026-11-26 15:00", "category": "school"])
        _ = try await add(["title": "Pay rent", "due": "2026-11-24 12:00"])
        _ = try await add(["title": "Holiday", "kind": "event", "start": "2026-11-26", "end": "2026-11-27"])
        let done = try await add(["title": "Done already", "due": "2026-11-26 08:00"])
        _ = try await host.call("tasks.complete", ["id": done["id"] ?? .null]).get()
        _ = try await add(["title": "Tomorrow", "due": "2026-11-27 09:00"])

        let today = try await host.call("today").get()
        let items = today["items"]?.arrayValue ?? []
        #expect(items.map { $0["title"] } == ["Pay rent", "Holiday", "Lecture", "Essay"])
        #expect(items.allSatisfy { $0["plugin"] == "tasks" })
        #expect(items[0]["overdue"] == true)
        #expect(items[0]["start"] == "2026-11-24T11:00:00Z")
        #expect(items[1]["all_day"] == true)
        #expect(items[1]["kind"] == "event")
        #expect(
            items[2] == [
                "kind": "event", "plugin": "tasks", "title": "Lecture", "start": "2026-11-26T09:00:00Z", "end": "2026-11-26T10:30:00Z",
                "all_day": false, "place": "US-217", "detail": nil, "account": nil, "overdue": false,
            ])
        #expect(items[3]["kind"] == "task")
        #expect(items[3]["detail"] == "school")

        // Another day: its own items, no overdue list.
        let tomorrow = try await host.call("today", ["date": "2026-11-27"]).get()
        #expect(tomorrow["items"]?.arrayValue?.map { $0["title"] } == ["Tomorrow"])
        await host.stop()
    }
}
