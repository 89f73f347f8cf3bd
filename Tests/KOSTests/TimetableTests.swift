import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// `kos.timetable` over three pages of parallels: the grid, explicit times, parity filtering,
/// several slots per parallel, and `sem` checked before anything is sent.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct TimetableTests {
    @Test func slotsFromEveryPageByDayAndStart() async throws {
        let bench = try await TokenTests.loggedIn()
        let all = try await bench.host.call("kos.timetable").get()
        let slots = try #require(all["slots"]?.arrayValue)
        #expect(slots.count == 6, "five parallels over three pages, one with two slots")
        #expect(
            slots.map { [$0["day"], $0["start"], $0["course"]] } == [
                [1, "07:30", "BI-PA2"], [1, "07:30", "BI-ZMA"], [2, "12:45", "BI-OPT"], [3, "14:30", "BI-ZMA"], [5, "09:15", "BI-OPT"],
                [5, "11:00", "BI-OPT"],
            ])
        let lecture = try #require(slots.first { $0["day"] == 5 && $0["start"] == "09:15" })
        #expect(
            lecture == [
                "day": 5, "start": "09:15", "end": "10:45", "course": "BI-OPT", "course_name": "Optimalizace", "kind": "lecture", "parallel": "1",
                "parity": "both", "room": "KN:E-107", "teachers": ["Ing. Tomáš Dvořák Ph.D.", "Ing. Vojtěch Svoboda Ph.D."], "weeks": .null,
            ])
        let explicit = try #require(slots.first { $0["day"] == 3 })
        #expect(explicit["end"] == "16:45", "startTime/endTime win over the grid (hours 9–11 would end at 17:00)")
        #expect(explicit["parity"] == "both", "UNDEFINED is both")
        let lab = try #require(slots.first { $0["course"] == "BI-PA2" })
        #expect(lab["teachers"] == ["Ing. Jan Černý"], "a <teachers> wrapper")
        #expect(lab["weeks"] == "1-7,9")
        #expect(lab["kind"] == "lab")

        let odd = try await bench.host.call("kos.timetable", ["parity": "odd"]).get()["slots"]?.arrayValue ?? []
        #expect(odd.map { $0["parity"] } == ["odd", "both", "both", "both", "odd"], "odd weeks: odd and both")
        let even = try await bench.host.call("kos.timetable", ["parity": "even"]).get()["slots"]?.arrayValue ?? []
        #expect(even.map { $0["course"] } == ["BI-PA2", "BI-OPT", "BI-ZMA", "BI-OPT"])

        let pages = try await bench.requests().filter { ($0["path"]?.stringValue ?? "").hasSuffix("/parallels") }
        #expect(pages.count == 9, "three calls, three pages each (every read is live)")
        await bench.stop()
    }

    @Test func badTimetableInputSendsNothing() async throws {
        let bench = try await TokenTests.loggedIn()
        let before = try await bench.requests().count
        for (params, param) in [
            (["sem": "2025W"] as JSONValue, "sem"), (["sem": "B253"], "sem"), (["sem": "C251"], "sem"), (["parity": "weekly"], "parity"),
        ] {
            guard case .failure(let error) = try await bench.host.call("kos.timetable", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == .string(param), "\(params): \(error.message)")
        }
        #expect(try await bench.requests().count == before)
        await bench.stop()
    }
}
