import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// The host's `today`: each ready plugin's part of the day merged in time order, a plugin that
/// fails or hangs named among the problems while the others are shown, one not set up left out.
@Suite(.stopsTestHosts)
struct TodayTests {
    // Thursday 26 November 2026, 09:00 in Prague.
    static let now = ISO8601.date("2026-11-26T08:00:00Z")!

    static func at(_ text: String) -> Date { ISO8601.date(text)! }

    static func start(_ plugins: [any AssistantPlugin], clock: TestClock = TestClock(now: now)) async throws -> TestHost {
        try await TestHost.started(plugins: plugins, clock: clock) { $0.timeZone = TimeZone(identifier: "Europe/Prague")! }
    }

    @Test func thePartsAreMergedInTimeOrderWithWarningsLast() async throws {
        let host = try await Self.start([
            DayPlugin(
                id: "alpha",
                .items([
                    DayItem(kind: .event, title: "Standup", start: Self.at("2026-11-26T09:00:00Z"), end: Self.at("2026-11-26T09:15:00Z")),
                    DayItem(kind: .warning, title: "Medical expires soon", detail: "valid until 2026-12-20"),
                    DayItem(kind: .task, title: "Pay rent", start: Self.at("2026-11-24T11:00:00Z"), overdue: true),
                ])),
            DayPlugin(
                id: "beta",
                .items([
                    DayItem(kind: .class, title: "KMA/MA1", start: Self.at("2026-11-26T08:20:00Z"), place: "US-217", detail: "query"),
                    DayItem(kind: .exam, title: "KIV/VSS", start: Self.at("2026-11-30T09:00:00Z"), account: "school"),
                ])),
            DayPlugin(id: "gamma", .items([DayItem(kind: .task, title: "never shown")]), configured: false),
        ])
        let day = try await host.call("today").get()
        #expect(day["date"] == "2026-11-26")
        #expect(day["time_zone"] == "Europe/Prague")
        let items = day["items"]?.arrayValue ?? []
        #expect(items.map { $0["title"] } == ["Pay rent", "KMA/MA1", "Standup", "KIV/VSS", "Medical expires soon"])
        #expect(items.map { $0["plugin"] } == ["alpha", "beta", "alpha", "beta", "alpha"], "named by the host, not the plugin")
        // The day's bounds are Prague's midnights.
        #expect(items[1]["detail"] == "2026-11-26 2026-11-25T23:00:00Z…2026-11-26T23:00:00Z")
        #expect(items[1]["start"] == "2026-11-26T08:20:00Z")
        #expect(items[4]["start"] == .null)
        #expect(day["problems"] == [])
        for item in items { #expect(DayItem.resultSchema.problems(in: item, strict: true).isEmpty, "\(item)") }

        // Another day: the plugins are asked about it.
        let other = try await host.call("today", ["date": "2026-12-24"]).get()
        #expect(other["items"]?.arrayValue?.first { $0["plugin"] == "beta" }?["detail"] == "2026-12-24 2026-12-23T23:00:00Z…2026-12-24T23:00:00Z")
        await host.stop()
    }

    @Test func aFailingOrHangingPluginIsNamedAndTheOthersAreShown() async throws {
        let clock = TestClock(now: Self.now)
        let host = try await Self.start(
            [
                DayPlugin(id: "alpha", .items([DayItem(kind: .task, title: "Call mum", start: Self.at("2026-11-26T16:00:00Z"))])),
                DayPlugin(id: "broken", .fails("Upstream unreachable: http://127.0.0.1:9 refused")), DayPlugin(id: "stuck", .hangs),
            ], clock: clock)
        let connection = try await host.connect()
        async let answer = connection.callResult("today")
        // The host waits 10 s for each plugin, on its clock.
        await clock.waitForSleeper { $0 == Self.now.addingTimeInterval(10) }
        clock.advance(by: 10)
        let day = try await answer.get()
        #expect(day["items"]?.arrayValue?.map { $0["title"] } == ["Call mum"])
        #expect(
            day["problems"] == [
                ["plugin": "broken", "message": "Upstream unreachable: http://127.0.0.1:9 refused"],
                ["plugin": "stuck", "message": "no answer within 10 s"],
            ])
        await connection.close()
        await host.stop()
    }

    @Test func aBadDateIsRefusedNamingIt() async throws {
        let host = try await Self.start([DayPlugin(id: "alpha", .items([]))])
        for bad in ["2026-02-30", "tomorrow", "26.11.2026", ""] as [JSONValue] + [5, true] {
            guard case .failure(let error) = try await host.call("today", ["date": bad]) else {
                Issue.record("\(bad) accepted")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == "date", "\(bad): \(error.message)")
        }
        guard case .failure(let unknown) = try await host.call("today", ["when": "now"]) else {
            Issue.record("an unknown parameter accepted")
            return
        }
        #expect(unknown.code == -32602)
        await host.stop()
    }

    @Test func theDayReadsAsADayOnATerminal() throws {
        let day: JSONValue = [
            "date": "2026-11-26", "time_zone": "Europe/Prague", "problems": [["plugin": "kos", "message": "KOSapi did not answer"]],
            "items": [
                [
                    "kind": "task", "plugin": "tasks", "title": "Pay rent", "start": "2026-11-24T11:00:00Z", "end": nil, "all_day": false,
                    "place": nil, "detail": nil, "account": nil, "overdue": true,
                ],
                [
                    "kind": "class", "plugin": "stag", "title": "KMA/MA1 (Přednáška)", "start": "2026-11-26T08:20:00Z",
                    "end": "2026-11-26T10:00:00Z", "all_day": false, "place": "US-217", "detail": nil, "account": nil, "overdue": false,
                ],
                [
                    "kind": "print", "plugin": "octoprint", "title": "mk3: benchy.gcode", "start": "2026-11-26T13:05:00Z", "end": nil,
                    "all_day": false, "place": "mk3", "detail": "Printing, 42 % done, 1:05 left", "account": nil, "overdue": false,
                ],
                [
                    "kind": "exam", "plugin": "stag", "title": "KIV/VSS", "start": "2026-11-30T09:00:00Z", "end": nil, "all_day": false,
                    "place": "UC-355", "detail": nil, "account": nil, "overdue": false,
                ],
                [
                    "kind": "warning", "plugin": "logbook", "title": "Medical: Class 2", "start": nil, "end": nil, "all_day": false, "place": nil,
                    "detail": "valid until 2026-12-20 (24 days)", "account": nil, "overdue": false,
                ],
            ],
        ]
        let text = DayView.render(day)
        #expect(
            text == """
                Thursday 26 November 2026
                  overdue since Tue 24 Nov  [ ] ! Pay rent                                              tasks
                  09:20–11:00               KMA/MA1 (Přednáška)                                 US-217  stag
                  done ~14:05               mk3: benchy.gcode (Printing, 42 % done, 1:05 left)  mk3     octoprint
                  Mon 30 Nov 10:00          Exam: KIV/VSS                                       UC-355  stag
                  ! Medical: Class 2: valid until 2026-12-20 (24 days)  (logbook)
                  ? kos could not be read: KOSapi did not answer
                """)
        #expect(DayView.render(["date": "2026-11-27", "time_zone": "Europe/Prague", "items": [], "problems": []]).hasSuffix("Nothing planned."))
    }
}
