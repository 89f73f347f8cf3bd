import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// Enrolments over pages, internal ones completed by one RSQL `/courses` query, external ones
/// counted, and a title missing in one language falling back to the other.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct CourseTests {
    @Test func coursesOfTheCurrentSemesterWithCredits() async throws {
        let bench = try await TokenTests.loggedIn()
        let current = try await bench.host.call("kos.courses").get()
        let rows = try #require(current["courses"]?.arrayValue)
        #expect(rows.map { $0["code"] } == ["BI-OPT", "BI-PA2", "BI-ZMA", .null], "the external enrolment last")
        #expect(
            rows[0] == [
                "code": "BI-OPT", "name": "Optimalizace", "credits": 5, "completion": "credit_exam", "completed": false, "assessment": true,
                "semester": "B251", "external": false,
            ])
        #expect(rows[3]["name"] == "Tělesná výchova")
        #expect(rows[3]["credits"] == 2)
        #expect(current["credits"] == 20)
        let queries = try await bench.requests().filter { $0["path"] == "/api/3/courses" }.compactMap { $0["query"]?.stringValue }
        #expect(queries.count == 2, "one query for the three courses, over two pages")
        #expect(queries.first?.removingPercentEncoding?.contains("code=='BI-OPT',code=='BI-PA2',code=='BI-ZMA'") == true, "\(queries)")
        await bench.stop()
    }

    @Test func aMissingEnglishTitleFallsBackToCzech() async throws {
        let english = try await TokenTests.loggedIn(configure: { $0.plugins["kos"] = ["language": "en"] })
        let rows = try await english.host.call("kos.courses").get()["courses"]?.arrayValue ?? []
        #expect(rows.first { $0["code"] == "BI-OPT" }?["name"] == "Optimization")
        #expect(rows.first { $0["code"] == "BI-PA2" }?["name"] == "Programování a algoritmizace 2", "no English title: the Czech one")
        await english.stop()
    }

    @Test func resultsPerSemesterAndInTotal() async throws {
        let bench = try await TokenTests.loggedIn()
        let results = try await bench.host.call("kos.results").get()
        // B242: PA1 7 (done), LIN 5. B251: OPT 5, PA2 7, ZMA 6 (done), external 2 (done).
        #expect(
            results["semesters"] == [
                ["semester": "B242", "credits_enrolled": 12, "credits_obtained": 7, "courses_enrolled": 2, "courses_completed": 1],
                ["semester": "B251", "credits_enrolled": 20, "credits_obtained": 8, "courses_enrolled": 4, "courses_completed": 2],
            ])
        #expect(results["total"] == ["credits_enrolled": 32, "credits_obtained": 15, "courses_enrolled": 6, "courses_completed": 3])
        await bench.stop()
    }
}

extension CourseTests {
    @Test func oneCourseWithItsDetailsAndBadCodes() async throws {
        let bench = try await AuthTests.start()
        try await bench.setUp()
        let course = try await bench.host.call("kos.course", ["code": "bi-opt"]).get()
        #expect(course["name"] == "Optimalizace")
        #expect(course["credits"] == 5)
        #expect(course["completion"] == "credit_exam")
        #expect(course["season"] == "winter")
        #expect(course["range"] == "2P+2C")
        #expect(course["annotation"] == "Úvod do optimalizace.")
        #expect(course["details"]?["lectures"] == "1. Lineární programování")
        #expect(course["details"]?["tutorials"] == .null)
        guard case .failure(let notOffered) = try await bench.host.call("kos.course", ["code": "BI-OPT", "sem": "B252"]) else {
            Issue.record("a course not offered was found")
            return
        }
        #expect(notOffered.code == -32010)
        let before = try await bench.requests().count
        for (params, param) in [([:] as JSONValue, "code"), (["code": "BI OPT"], "code"), (["code": "BI-OPT", "sem": "winter"], "sem")] {
            guard case .failure(let error) = try await bench.host.call("kos.course", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.data?["param"] == .string(param))
        }
        #expect(try await bench.requests().count == before, "nothing sent")
        await bench.stop()
    }
}
