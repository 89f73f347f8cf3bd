import AssistantTesting
import Foundation
import GRDB
import HostCore
import Testing

@testable import Tasks

/// `tasks.list` places items in SQL (the placement columns and the occurrence index) and cuts the
/// list there. Repeating items show today's occurrence, or, for a to-do without one, the overdue
/// occurrence it stands at. On the real date, so the occurrence index covers the windows; the
/// host's clock is 06:00 of today in Prague.
@Suite(.stopsTestHosts) struct ListPlacementTests {
    static let zone = Zone(identifier: "Europe/Prague")!
    static let today = zone.wall(Date()).asDate

    static func local(_ days: Int, _ time: String) -> JSONValue { .string(today.adding(days: days).text + " " + time) }

    /// A host on `directory`, stopped when `body` ends.
    static func withHost(directory: TemporaryDirectory = TemporaryDirectory(), _ body: (TestHost) async throws -> Void) async throws {
        let clock = TestClock(now: zone.instant(WallTime(year: today.year, month: today.month, day: today.day, hour: 6)))
        try await withTestHost(
            plugins: [TasksPlugin()], clock: clock, directory: directory,
            configure: {
                $0.timeZone = TimeZone(identifier: "Europe/Prague")!
            }, body)
    }

    /// Eight items: four repeating, four single.
    static func fill(_ host: TestHost) async throws {
        let items: [[String: JSONValue]] = [
            ["title": "Daily standup", "kind": "event", "start": local(-10, "09:00"), "duration_min": 15, "rrule": "FREQ=DAILY"],
            ["title": "Weekly report", "start": local(-3, "10:00"), "rrule": "FREQ=WEEKLY"],
            ["title": "Daily pills", "start": local(-2, "08:00"), "rrule": "FREQ=DAILY", "priority": 1],
            ["title": "Gym", "kind": "event", "start": local(-3, "18:00"), "duration_min": 60, "rrule": "FREQ=WEEKLY"],
            ["title": "Buy milk", "due": local(-1, "12:00")],
            ["title": "Lunch", "kind": "event", "start": local(0, "12:30"), "duration_min": 45],
            ["title": "Done", "due": local(0, "11:00")],
            ["title": "Future", "due": local(2, "10:00")],
        ]
        for item in items {
            let added = try await host.call("tasks.add", .object(item)).get()
            if item["title"] == "Done" { _ = try await host.call("tasks.complete", ["id": added["id"]!]).get() }
        }
    }

    static func titles(_ host: TestHost, _ params: [String: JSONValue]) async throws -> [String] {
        try await host.call("tasks.list", .object(params)).get()["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
    }

    @Test func repeatingItemsShowTodaysOccurrenceOrTheOverdueOneTheyStandAt() async throws {
        try await Self.withHost { host in
            try await Self.fill(host)
            let today = try await host.call("tasks.list", ["when": "today"]).get()
            let rows = try #require(today["tasks"]?.arrayValue)
            #expect(rows.compactMap { $0["title"]?.stringValue } == ["Weekly report", "Buy milk", "Daily pills", "Daily standup", "Lunch"])
            #expect(today["count"] == 5)
            #expect(today["truncated"] == false)
            // A repeating row's `next` is the occurrence it is listed at.
            let next = rows.map { $0["next"]?["start_local"]?.stringValue }
            #expect(next == [Self.today.adding(days: -3).text + "T10:00:00", nil, Self.today.text + "T08:00:00", Self.today.text + "T09:00:00", nil])
            #expect(rows.map { $0["overdue"] } == [true, true, true, false, false])

            #expect(try await Self.titles(host, ["when": "overdue"]) == ["Weekly report", "Daily pills", "Buy milk"])
            #expect(
                try await Self.titles(host, ["when": "upcoming", "days": 7]) == [
                    "Daily pills", "Daily standup", "Lunch", "Future", "Weekly report", "Gym",
                ])
            #expect(try await Self.titles(host, ["when": "today", "status": "completed"]) == ["Done"])
            #expect(try await Self.titles(host, ["when": "today", "priority": "high"]) == ["Daily pills"])
        }
    }

    @Test func theListIsCutAtTheLimitAndCountsEverything() async throws {
        try await Self.withHost { host in
            try await Self.fill(host)
            let cut = try await host.call("tasks.list", ["when": "today", "limit": 2]).get()
            #expect(cut["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Weekly report", "Buy milk"])
            #expect(cut["count"] == 5)
            #expect(cut["truncated"] == true)
            let all = try await host.call("tasks.list", ["when": "all", "limit": 3]).get()
            #expect(all["count"] == 8)
            #expect(all["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Weekly report", "Daily pills", "Buy milk"])
        }
    }

    /// A repeating item the index does not cover for the window (its range ended) is expanded,
    /// and lands where the index would have put it.
    @Test func aSeriesTheIndexDoesNotCoverIsExpandedInstead() async throws {
        let directory = TemporaryDirectory()
        try await Self.withHost(directory: directory) { host in try await Self.fill(host) }
        try await Self.database(directory).write { db in
            try db.execute(sql: "UPDATE tasks_items SET indexed_from = 0, indexed_until = 1 WHERE recurring = 1")
            try db.execute(sql: "DELETE FROM tasks_occurrences")
        }
        try await Self.withHost(directory: directory) { host async throws in
            #expect(try await Self.titles(host, ["when": "today"]) == ["Weekly report", "Buy milk", "Daily pills", "Daily standup", "Lunch"])
            #expect(
                try await Self.titles(host, ["when": "upcoming", "days": 7]) == [
                    "Daily pills", "Daily standup", "Lunch", "Future", "Weekly report", "Gym",
                ])
        }
    }

    /// A database from before the placement columns gets them filled when the daemon starts.
    @Test func anOlderDatabaseGetsItsPlacementColumnsFilled() async throws {
        let directory = TemporaryDirectory()
        try await Self.withHost(directory: directory) { host in try await Self.fill(host) }
        try await Self.database(directory).write { db in
            try db.execute(
                sql: """
                    DROP INDEX tasks_items_placement;
                    ALTER TABLE tasks_items DROP COLUMN sort_at;
                    ALTER TABLE tasks_items DROP COLUMN due_at;
                    ALTER TABLE tasks_items DROP COLUMN overdue_at;
                    DELETE FROM grdb_migrations WHERE identifier = 'tasks/v2-placement';
                    """)
        }
        try await Self.withHost(directory: directory) { host async throws in
            #expect(try await Self.titles(host, ["when": "today"]) == ["Weekly report", "Buy milk", "Daily pills", "Daily standup", "Lunch"])
            #expect(try await Self.titles(host, ["when": "overdue"]) == ["Weekly report", "Daily pills", "Buy milk"])
        }
    }

    /// An agenda of one category: repeating items from the occurrence index and single items,
    /// nothing of another category.
    @Test func anAgendaOfOneCategoryHasOnlyThatCategory() async throws {
        try await Self.withHost { host in
            try await Self.fill(host)
            _ = try await host.call(
                "tasks.add",
                [
                    "title": "Lecture", "kind": "event", "start": Self.local(-7, "08:00"), "duration_min": 90, "rrule": "FREQ=DAILY",
                    "category": "school",
                ]
            ).get()
            _ = try await host.call(
                "tasks.add", ["title": "Exam", "kind": "event", "start": Self.local(1, "13:00"), "duration_min": 90, "category": "school"]
            ).get()
            let from = JSONValue.string(Self.today.text)
            let to = JSONValue.string(Self.today.adding(days: 3).text)
            let school = try await host.call("tasks.agenda", ["from": from, "to": to, "category": "school"]).get()["occurrences"]?.arrayValue ?? []
            #expect(
                school.map { "\($0["title"]?.stringValue ?? "") \($0["start_local"]?.stringValue ?? "")" } == [
                    "Lecture \(Self.today.text)T08:00:00", "Lecture \(Self.today.adding(days: 1).text)T08:00:00",
                    "Exam \(Self.today.adding(days: 1).text)T13:00:00", "Lecture \(Self.today.adding(days: 2).text)T08:00:00",
                ])
            let all = try await host.call("tasks.agenda", ["from": from, "to": to]).get()["occurrences"]?.arrayValue ?? []
            // Without the filter, the other categories' items are there too: standup and pills on
            // each of the three days, lunch, the done to-do and the future one.
            let others = all.compactMap { $0["title"]?.stringValue }.filter { $0 != "Lecture" && $0 != "Exam" }
            #expect(
                others.sorted() == [
                    "Daily pills", "Daily pills", "Daily pills", "Daily standup", "Daily standup", "Daily standup", "Done", "Future", "Lunch",
                ])
        }
    }

    /// tasks-bench's sqlite3 floor is the list's own query: it gives the rows the list shows.
    @Test func theBenchmarksShellFloorIsTheListsOwnQuery() async throws {
        let directory = TemporaryDirectory()
        let now = Self.zone.instant(WallTime(year: Self.today.year, month: Self.today.month, day: Self.today.day, hour: 6))
        var listed: [String] = []
        try await Self.withHost(directory: directory) { host in
            try await Self.fill(host)
            listed = try await host.call("tasks.list", ["when": "today"]).get()["tasks"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        let sql = TasksListFloor.todaySQL(now: now, timeZone: TimeZone(identifier: "Europe/Prague")!)
        let ids = try await Self.database(directory).read { db in
            try String.fetchAll(db, sql: sql.replacingOccurrences(of: "SELECT t.*", with: "SELECT t.id"))
        }
        #expect(listed.count == 5)
        #expect(ids == listed)
    }

    static func database(_ directory: TemporaryDirectory) throws -> DatabaseQueue {
        try DatabaseQueue(path: directory.file("data") + "/assistant.sqlite")
    }
}
