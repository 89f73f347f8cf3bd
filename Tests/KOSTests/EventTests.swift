import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// Course events of my courses (enrolment codes read with `fields=`), the office hours from the
/// config, and a configured teaching-hour grid.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct EventTests {
    @Test func theCourseEventsOfMyCourses() async throws {
        let bench = try await TokenTests.loggedIn()
        let events = try await bench.call("kos.events")
        #expect(
            events["events"] == [
                [
                    "id": "701", "course": "BI-OPT", "name": "Průběžný test 1", "start": "2026-11-30T16:15", "end": "2026-11-30T17:45",
                    "room": "T9:155", "capacity": 60, "occupied": 41, "note": "Bring a calculator; no notes allowed.",
                    "signin_deadline": "2026-11-30",
                ],
                [
                    "id": "702", "course": "BI-PA2", "name": "Programovací test", "start": "2026-12-07T18:00", "end": "2026-12-07T19:30",
                    "room": "T9:350", "capacity": 30, "occupied": 30, "signin_deadline": "2026-12-07",
                ],
            ])
        #expect(events["stale"] == false)
        let enrolments = try await bench.requests().filter { $0["path"] == "/api/3/students/novakjan/enrolledCourses" }
        #expect(
            enrolments.last?["query"]?.stringValue?.removingPercentEncoding?.contains("fields=entry(content(course))") == true,
            "only the course references are asked for")
        for params in [["sem": "W2025"] as JSONValue, ["sem": 251]] {
            #expect(try await bench.failure("kos.events", params)?.data?["param"] == "sem")
        }
        // One course's events: that course's feed alone, my enrolment not read again.
        let before = try await bench.requests().count
        let one = try await bench.call("kos.events", ["course": "BI-PA2"])["events"]?.arrayValue ?? []
        #expect(one.map { $0["id"] } == ["702"], "\(one)")
        let asked = try await bench.requests().dropFirst(before).compactMap { $0["path"]?.stringValue }
        #expect(asked == ["/api/3/courses/BI-PA2/events"], "\(asked)")
        for bad in ["BI PA2", "", String(repeating: "X", count: 40)] {
            #expect(try await bench.failure("kos.events", ["course": .string(bad)])?.data?["param"] == "course", "\(bad)")
        }
        #expect(try await bench.requests().count == before + 1, "a bad course asks nothing upstream")
        await bench.stop()
    }

    @Test func anEventNameMissingInEnglishFallsBackToCzech() async throws {
        let bench = try await TokenTests.loggedIn(configure: { $0.plugins["kos"] = ["language": "en"] })
        let names = try await bench.call("kos.events")["events"]?.arrayValue?.map { $0["name"] }
        #expect(names == ["Midterm test 1", "Programovací test"])
        await bench.stop()
    }

    @Test func officeHoursComeFromTheConfig() async throws {
        let bare = try await AuthTests.start()
        let none = try await bare.call("kos.office")
        #expect(none["configured"] == false)
        #expect(none["hours"] == [])
        #expect(none["message"]?.stringValue?.contains("office_hours") == true)
        await bare.stop()

        let bench = try await AuthTests.start(configure: {
            $0.plugins["kos"] = ["office_hours": ["Wed": "13:00–15:00", "monday": "9:00–11:00, 13:00–14:30"]]
        })
        #expect(
            try await bench.call("kos.office") == [
                "configured": true,
                "hours": [
                    ["day": "monday", "weekday": 1, "hours": "9:00–11:00, 13:00–14:30"],
                    ["day": "wednesday", "weekday": 3, "hours": "13:00–15:00"],
                ],
            ])
        await bench.stop()
    }

    @Test func aConfigThatCannotBeReadIsSaidNotGuessed() async throws {
        for (options, words) in [
            (["office_hours": ["funday": "9–11"]] as JSONValue, "'funday' is not a weekday"),
            (["office_hours": ["monday": 9]], "monday's hours are not text"),
            (["hour_grid": ["7:30", "08:15"]], "hour 1's start '7:30' is not HH:MM"),
            (["hour_grid": ["08:00", "08:30"]], "hour 2 (08:30) starts before hour 1 ends"),
        ] {
            let bench = try await AuthTests.start(configure: { $0.plugins["kos"] = options.objectValue ?? [:] })
            let error = try await bench.failure("kos.semester")
            #expect(error?.message.contains(words) == true, "\(options): \(error?.message ?? "")")
            await bench.stop()
        }
    }

    @Test func aConfiguredGridPlacesTheSlots() async throws {
        let grid = (0..<15).map { String(format: "%02d:%02d", 8 + ($0 * 60) / 60, 0) }  // 08:00, 09:00, … one hour apart
        let bench = try await TokenTests.loggedIn(configure: {
            $0.plugins["kos"] = ["hour_grid": .array(grid.map(JSONValue.string)), "hour_minutes": 50]
        })
        let slots = try await bench.call("kos.timetable")["slots"]?.arrayValue ?? []
        let lecture = try #require(slots.first { $0["course"] == "BI-OPT" && $0["day"] == 5 && $0["kind"] == "lecture" })
        #expect(lecture["start"] == "10:00", "hour 3 of the configured grid")
        #expect(lecture["end"] == "11:50", "hour 4 ends 50 minutes after it starts")
        #expect(slots.first { $0["course"] == "BI-ZMA" && $0["kind"] == "lecture" }?["start"] == "14:30", "explicit times still win")
        await bench.stop()
    }
}
