import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// The command contract through the real host (socket, manifest validation, store).
@Suite(.stopsTestHosts) struct TaskCommandTests {
    static func host(at now: String = "2026-11-24T08:00:00Z", configure: @escaping (inout HostConfiguration) -> Void = { _ in })
        async throws -> (TestHost, TestClock)
    {
        let clock = TestClock(now: ISO8601.date(now)!)
        let host = try await TestHost.started(plugins: [TasksPlugin()], clock: clock) {
            $0.timeZone = TimeZone(identifier: "Europe/Prague")!
            configure(&$0)
        }
        return (host, clock)
    }

    @Test func addReturnsTheWholeTaskInUTCAndWallClock() async throws {
        let (host, _) = try await Self.host()
        let t = try await host.call(
            "tasks.add",
            [
                "title": "Exam prep", "start": "2026-12-01 09:00", "reminders": [["before_min": 15, "of": "start"]],
                "category": "school", "tags": ["math", "exam"], "priority": "high", "location": "Room 1, Building A",
            ]
        ).get()
        #expect(t["title"] == "Exam prep")
        #expect(t["kind"] == "todo")
        #expect(t["start"] == "2026-12-01T08:00:00Z")
        #expect(t["start_local"] == "2026-12-01T09:00:00")
        #expect(t["tz"] == "Europe/Prague")
        #expect(t["priority"] == 1)
        #expect(t["all_day"] == false)
        #expect(t["overdue"] == false)
        #expect(t["status"] == "needs-action")
        #expect(t["reminders"] == [["before_min": 15, "of": "start"]])
        #expect(t["channels"] == ["stdout"])
        let id = try #require(t["id"]?.stringValue)
        #expect(UUID(uuidString: id) != nil)
        #expect(try await host.call("tasks.get", ["id": .string(id)]).get() == t)
        await host.stop()
    }

    @Test func eventsTodosAndAllDayItems() async throws {
        let (host, _) = try await Self.host()
        let meeting = try await host.call(
            "tasks.add",
            [
                "title": "Standup", "kind": "event", "start": "2026-11-25T10:00:00+01:00", "duration_min": 30, "tz": "America/New_York",
            ]
        ).get()
        #expect(meeting["start"] == "2026-11-25T09:00:00Z")
        #expect(meeting["start_local"] == "2026-11-25T04:00:00")
        #expect(meeting["end"] == "2026-11-25T09:30:00Z")
        let trip = try await host.call("tasks.add", ["title": "Trip", "kind": "event", "start": "2026-12-24", "end": "2026-12-27"]).get()
        #expect(trip["all_day"] == true)
        #expect(trip["start"] == "2026-12-24")
        #expect(trip["end"] == "2026-12-27")
        let due = try await host.call("tasks.add", ["title": "Pay rent", "due": "2026-11-20 18:00"]).get()
        #expect(due["overdue"] == true, "due four days before the clock's now")
        let event = try await host.call("tasks.add", ["title": "Past talk", "kind": "event", "start": "2026-11-01 10:00"]).get()
        #expect(event["overdue"] == false, "an event is never overdue")
        await host.stop()
    }

    @Test func agendaExpandsRepeatsAcrossDaylightSaving() async throws {
        let (host, _) = try await Self.host(at: "2026-03-20T08:00:00Z")
        let t = try await host.call(
            "tasks.add",
            [
                "title": "Lecture", "kind": "event", "start": "2026-03-23 09:00", "duration_min": 90, "rrule": "FREQ=WEEKLY;BYDAY=MO;COUNT=3",
            ]
        ).get()
        let agenda = try await host.call("tasks.agenda", ["from": "2026-03-01", "to": "2026-05-01"]).get()
        let starts = agenda["occurrences"]?.arrayValue?.map { $0["start"] }
        // Prague changes to summer time on 29 March: 09:00 stays 09:00 on the wall clock.
        #expect(starts == ["2026-03-23T08:00:00Z", "2026-03-30T07:00:00Z", "2026-04-06T07:00:00Z"])
        #expect(
            agenda["occurrences"]?.arrayValue?.map { $0["start_local"] } == ["2026-03-23T09:00:00", "2026-03-30T09:00:00", "2026-04-06T09:00:00"])
        #expect(agenda["occurrences"]?.arrayValue?[0]["end"] == "2026-03-23T09:30:00Z")
        #expect(agenda["occurrences"]?.arrayValue?[0]["source"] == "local")
        #expect(agenda["occurrences"]?.arrayValue?[0]["id"] == t["id"])
        await host.stop()
    }

    @Test func oneOccurrenceChangesOrGoesOnItsOwn() async throws {
        let (host, _) = try await Self.host()
        let t = try await host.call(
            "tasks.add",
            [
                "title": "Gym", "kind": "event", "start": "2026-12-01 18:00", "duration_min": 60, "rrule": "FREQ=DAILY;COUNT=4", "category": "sport",
            ]
        ).get()
        let id = try #require(t["id"])
        _ = try await host.call("tasks.update", ["id": id, "occurrence": "2026-12-02 18:00", "start": "2026-12-02 20:00", "title": "Late gym"]).get()
        _ = try await host.call("tasks.delete", ["id": id, "occurrence": "2026-12-03T17:00:00Z"]).get()
        let agenda = try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2026-12-10"]).get()
        let rows = try #require(agenda["occurrences"]?.arrayValue)
        #expect(rows.map { $0["start_local"] } == ["2026-12-01T18:00:00", "2026-12-02T20:00:00", "2026-12-04T18:00:00"])
        #expect(rows.map { $0["title"] } == ["Gym", "Late gym", "Gym"])
        #expect(rows[1]["end_local"] == "2026-12-02T21:00:00")
        guard case .failure(let e) = try await host.call("tasks.update", ["id": id, "occurrence": "2026-12-02 19:00", "title": "x"]) else {
            Issue.record("a time that is no occurrence was accepted")
            return
        }
        #expect(e.data?["param"] == "occurrence")
        await host.stop()
    }

    @Test func completingARepeatingTodoMovesItToTheNextOccurrence() async throws {
        let (host, clock) = try await Self.host()
        let t = try await host.call("tasks.add", ["title": "Water plants", "due": "2026-11-24 18:00", "rrule": "FREQ=DAILY;INTERVAL=3;COUNT=3"]).get()
        let id = try #require(t["id"])
        var done = try await host.call("tasks.complete", ["id": id]).get()
        #expect(done["due_local"] == "2026-11-27T18:00:00")
        #expect(done["status"] == "needs-action")
        #expect(done["rrule"] == "FREQ=DAILY;INTERVAL=3;COUNT=2")
        done = try await host.call("tasks.complete", ["id": id]).get()
        #expect(done["due_local"] == "2026-11-30T18:00:00")
        done = try await host.call("tasks.complete", ["id": id]).get()
        #expect(done["status"] == "completed", "the last occurrence completes the task")

        clock.advance(to: ISO8601.date("2026-11-26T09:00:00Z")!)
        let fromDone = try await host.call(
            "tasks.add",
            [
                "title": "Descale", "due": "2026-11-20 08:00", "rrule": "FREQ=WEEKLY;INTERVAL=2", "repeat_from": "completion",
            ]
        ).get()
        let next = try await host.call("tasks.complete", ["id": fromDone["id"]!]).get()
        #expect(next["due_local"] == "2026-12-10T08:00:00", "two weeks from the completion day, at the same time")
        #expect(next["repeat_from"] == "completion")
        await host.stop()
    }

    @Test func deleteRestoreAndSubtasks() async throws {
        let (host, _) = try await Self.host()
        let parent = try await host.call("tasks.add", ["title": "Thesis"]).get()
        let child = try await host.call("tasks.add", ["title": "Chapter 1", "parent": parent["id"]!]).get()
        let deleted = try await host.call("tasks.delete", ["id": parent["id"]!]).get()
        #expect(deleted["with_subtasks"] == [child["id"]!])
        guard case .failure(let gone) = try await host.call("tasks.get", ["id": child["id"]!]) else {
            Issue.record("still there")
            return
        }
        #expect(gone.code == -32010)
        _ = try await host.call("tasks.restore", ["id": parent["id"]!]).get()
        #expect(try await host.call("tasks.get", ["id": child["id"]!]).get()["title"] == "Chapter 1")
        let subtasks = try await host.call("tasks.list", ["parent": parent["id"]!]).get()
        #expect(subtasks["tasks"]?.arrayValue?.map { $0["title"] } == ["Chapter 1"])
        await host.stop()
    }

    @Test func listFiltersAndSortsByNextTimeThenPriority() async throws {
        let (host, _) = try await Self.host()
        _ = try await host.call("tasks.add", ["title": "Later today", "due": "2026-11-24 17:00", "priority": 5]).get()
        _ = try await host.call("tasks.add", ["title": "Urgent today", "due": "2026-11-24 17:00", "priority": "high"]).get()
        _ = try await host.call("tasks.add", ["title": "Overdue", "due": "2026-11-23 10:00", "tags": ["bills", "home"]]).get()
        _ = try await host.call("tasks.add", ["title": "Long overdue", "due": "2026-10-02 10:00"]).get()
        let done = try await host.call("tasks.add", ["title": "Long done", "due": "2026-10-01 10:00"]).get()
        _ = try await host.call("tasks.complete", ["id": done["id"]!]).get()
        _ = try await host.call("tasks.add", ["title": "Next week", "due": "2026-11-28 10:00"]).get()
        _ = try await host.call("tasks.add", ["title": "Far", "due": "2027-02-01 10:00", "category": "work"]).get()
        let today = try await host.call("tasks.list", ["when": "today"]).get()
        #expect(today["tasks"]?.arrayValue?.map { $0["title"] } == ["Long overdue", "Overdue", "Urgent today", "Later today"])
        let overdue = try await host.call("tasks.list", ["when": "overdue"]).get()
        #expect(overdue["tasks"]?.arrayValue?.map { $0["title"] } == ["Long overdue", "Overdue"])
        let upcoming = try await host.call("tasks.list", ["when": "upcoming", "days": 7]).get()
        #expect(upcoming["tasks"]?.arrayValue?.map { $0["title"] } == ["Urgent today", "Later today", "Next week"])
        #expect(try await host.call("tasks.list", ["tag": "home"]).get()["tasks"]?.arrayValue?.map { $0["title"] } == ["Overdue"])
        #expect(try await host.call("tasks.list", ["category": "work"]).get()["tasks"]?.arrayValue?.map { $0["title"] } == ["Far"])
        #expect(try await host.call("tasks.list", ["text": "URGENT"]).get()["tasks"]?.arrayValue?.map { $0["title"] } == ["Urgent today"])
        await host.stop()
    }

    @Test func categoriesPersistAndInUseCannotBeRemoved() async throws {
        let (host, _) = try await Self.host()
        _ = try await host.call("tasks.categories.add", ["name": "Band"]).get()
        _ = try await host.call("tasks.add", ["title": "Rehearsal", "category": "band"]).get()
        guard case .failure(let inUse) = try await host.call("tasks.categories.remove", ["name": "band"]) else {
            Issue.record("removed")
            return
        }
        #expect(inUse.code == 1201)
        guard case .failure(let builtin) = try await host.call("tasks.categories.remove", ["name": "school"]) else {
            Issue.record("removed")
            return
        }
        #expect(builtin.code == 1206)
        let names = try await host.call("tasks.categories.list").get()["categories"]?.arrayValue?.map { $0["name"] }
        #expect(names?.contains("band") == true)
        #expect(names?.count == 8)
        await host.stop()
    }

    @Test func badInputIsRefusedNamingTheFieldAndWritesNothing() async throws {
        let (host, _) = try await Self.host()
        let cases: [(String, JSONValue, String, String)] = [
            ("tasks.add", ["title": "x", "tz": "Mars/Olympus"], "tz", "IANA"),
            ("tasks.add", ["title": "x", "rrule": "FREQ=DAILY;BYDAY=XX"], "rrule", "BYDAY"),
            ("tasks.add", ["title": "x", "start": "2026-12-02 10:00", "due": "2026-12-01 10:00"], "due", "before start"),
            ("tasks.add", ["title": "x", "priority": 12], "priority", "0–9"),
            ("tasks.add", ["title": "x", "category": "astrology"], "category", "tasks.categories.add"),
            ("tasks.add", ["title": "x", "reminders": [["before_min": 5]]], "reminders[0].of", "no start"),
            ("tasks.add", ["title": "x", "reminders": [["of": "start"]]], "reminders[0]", "no anchor"),
            ("tasks.add", ["title": "x", "start": "2026-12-01 10:00", "due": "2026-12-01 11:00", "duration_min": 5], "duration_min", "RFC 5545"),
            ("tasks.add", ["title": "x", "start": "tomorrow"], "start", "YYYY-MM-DD"),
            ("tasks.add", ["title": "x", "start": "2026-02-30 10:00"], "start", "YYYY-MM-DD"),
            ("tasks.add", ["title": "x", "kind": "event"], "start", "needs a start"),
            ("tasks.add", ["title": "   "], "title", "empty"),
            ("tasks.add", ["title": "x", "channels": ["pager"]], "channels", "pager"),
            ("tasks.add", ["title": "x", "parent": "nope"], "parent", "no task"),
            ("tasks.add", ["title": "x", "url": "not a url"], "url", "not a URL"),
            ("tasks.agenda", ["from": "2026-12-02", "to": "2026-12-01"], "to", "after from"),
            ("tasks.list", ["priority": "urgent"], "priority", "0–9"),
            ("tasks.snooze", ["id": "x", "minutes": 0], "minutes", ""),
        ]
        for (method, params, param, text) in cases {
            guard case .failure(let error) = try await host.call(method, params) else {
                Issue.record("\(method) \(params) was accepted")
                continue
            }
            #expect(error.code == -32602, "\(method) \(params): \(error.message)")
            #expect(error.data?["param"] == .string(param), "\(method) \(params): \(error.message)")
            #expect(text.isEmpty || error.message.contains(text), "\(method) \(params): \(error.message)")
        }
        #expect(try await host.call("tasks.list").get()["tasks"] == [], "nothing was written")
        guard case .failure(let missing) = try await host.call("tasks.complete", ["id": "nope"]) else {
            Issue.record("completed nothing")
            return
        }
        #expect(missing.code == -32010)
        let t = try await host.call("tasks.add", ["title": "Keep", "due": "2026-12-01 10:00", "location": "Home"]).get()
        for (params, param) in [
            (["id": t["id"]!, "clear": ["title"]] as JSONValue, "clear"),
            (["id": t["id"]!, "location": "Office", "due": "2026-11-01 10:00", "start": "2026-11-02 10:00"], "due"),
        ] {
            guard case .failure(let e) = try await host.call("tasks.update", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(e.data?["param"] == .string(param))
        }
        #expect(try await host.call("tasks.get", ["id": t["id"]!]).get() == t, "a refused update changes nothing")
        await host.stop()
    }
}

@Suite(.stopsTestHosts) struct TaskBadInputTests {
    @Test func everyOtherCommandRefusesBadInputClearly() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let live = try await host.call("tasks.add", ["title": "Live"]).get()
        let event = try await host.call("tasks.add", ["title": "Talk", "kind": "event", "start": "2026-12-01 10:00"]).get()
        let cases: [(String, JSONValue, Int, String?)] = [
            ("tasks.restore", ["id": live["id"]!], 1204, nil),
            ("tasks.restore", ["id": "nope"], -32010, nil),
            ("tasks.reopen", ["id": "nope"], -32010, nil),
            ("tasks.get", [:], -32602, "id"),
            ("tasks.complete", ["id": event["id"]!], 1203, nil),
            ("tasks.snooze", ["id": live["id"]!, "minutes": 5], 1207, nil),
            ("tasks.update", ["id": live["id"]!, "occurrence": "2026-12-01 10:00", "title": "x"], -32602, "occurrence"),
            ("tasks.delete", ["id": live["id"]!, "occurrence": "2026-12-01"], -32602, "occurrence"),
            ("tasks.categories.add", ["name": "no spaces"], -32602, "name"),
            ("tasks.categories.add", ["name": "school"], 1205, nil),
            ("tasks.categories.remove", ["name": "nope"], -32010, nil),
            ("tasks.export.ics", ["path": "/tmp/x.ics", "status": "done"], -32602, "status"),
            ("tasks.export.ics", ["path": "/tmp/x.ics", "from": "yesterday"], -32602, "from"),
            ("tasks.feeds.remove", ["name": "nope"], -32010, nil),
            ("tasks.feeds.refresh", ["name": "nope"], -32010, nil),
            ("tasks.caldav.remove", ["name": "nope"], -32602, "name"),
            ("tasks.agenda", ["from": "2026-01-01", "to": "2025-01-01"], -32602, "to"),
            ("tasks.list", ["when": "someday"], -32602, "when"),
        ]
        for (method, params, code, param) in cases {
            guard case .failure(let e) = try await host.call(method, params) else {
                Issue.record("\(method) \(params) accepted")
                continue
            }
            #expect(e.code == code, "\(method) \(params): \(e.code) \(e.message)")
            if let param { #expect(e.data?["param"] == .string(param), "\(method) \(params): \(e.message)") }
        }
        // Nothing changed.
        #expect(try await host.call("tasks.get", ["id": live["id"]!]).get() == live)
        #expect(try await host.call("tasks.get", ["id": event["id"]!]).get() == event)
        await host.stop()
    }
}

/// The occurrence index (written when a series is saved) answers a window exactly as expanding
/// the series does. Anchored on the real clock, so the index covers the window.
@Suite(.stopsTestHosts) struct OccurrenceIndexTests {
    @Test func theIndexAnswersAsTheExpansionDoes() async throws {
        let today = Zone.utc.wall(Date()).asDate
        let (host, _) = try await TaskCommandTests.host(at: ISO8601.string(Date()))
        let zone = try #require(Zone(identifier: "Europe/Prague"))
        let cases: [[String: JSONValue]] = [
            ["rrule": "FREQ=DAILY", "start": .string(today.adding(days: -10).text + " 07:30")],
            [
                "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR", "start": .string(today.adding(days: -3).text + " 18:00"),
                "exdates": .array([.string(today.adding(days: 4).text + " 18:00")]),
            ],
            ["rrule": "FREQ=MONTHLY;BYDAY=-1FR", "start": .string(today.text + " 09:15")],
            ["rrule": "FREQ=DAILY;INTERVAL=2", "start": .string(today.adding(days: -1).text), "all_day": true],
        ]
        for (i, fields) in cases.enumerated() {
            var params: [String: JSONValue] = ["title": .string("Series \(i)"), "kind": "event", "duration_min": 45, "tz": "Europe/Prague"]
            for (k, v) in fields { params[k] = v }
            if fields["all_day"] != nil { params["duration_min"] = nil }
            let t = try await host.call("tasks.add", .object(params)).get()
            let id = try #require(t["id"]?.stringValue)
            let series = Series(
                anchor: try #require(WallTime(fields["start"]!.stringValue!)), rule: try RecurrenceRule(fields["rrule"]!.stringValue!),
                exdates: Set((fields["exdates"]?.arrayValue ?? []).compactMap { WallTime($0.stringValue!) }), zone: zone)
            let from = zone.instant(today.adding(days: 1))
            let to = zone.instant(today.adding(days: 40))
            let expected = series.occurrences(from: zone.wall(from).adding(days: -1), before: zone.wall(to).adding(days: 1))
                .filter { zone.instant($0) >= from && zone.instant($0) < to }
            let agenda = try await host.call("tasks.agenda", ["from": .string(ISO8601.string(from)), "to": .string(ISO8601.string(to))]).get()
            let got = agenda["occurrences"]?.arrayValue?.filter { $0["id"] == .string(id) }.compactMap { $0["start_local"]?.stringValue } ?? []
            #expect(got == expected.map(\.text), "\(fields): \(got.prefix(3)) vs \(expected.prefix(3).map(\.text))")
            #expect(!got.isEmpty)
        }
        await host.stop()
    }
}
