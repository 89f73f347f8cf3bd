import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// Bad parameters for every KOS command are -32602 naming the parameter, and nothing is sent.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct BadInputTests {
    @Test func everyCommandRefusesBadParametersBeforeSendingAnything() async throws {
        let bench = try await TokenTests.loggedIn()
        let before = try await bench.requests().count
        let cases: [(String, JSONValue, String)] = [
            ("kos.semester", ["which": "last"], "which"),
            ("kos.semester", ["which": 1], "which"),
            ("kos.timetable", ["sem": "B2511"], "sem"),
            ("kos.timetable", ["sem": "C251"], "sem"),
            ("kos.timetable", ["sem": "B253"], "sem"),
            ("kos.timetable", ["parity": "weekly"], "parity"),
            ("kos.timetable", ["parity": true], "parity"),
            ("kos.courses", ["sem": "latest"], "sem"),
            ("kos.courses", ["sem": ""], "sem"),
            ("kos.course", [:], "code"),
            ("kos.course", ["code": "BI OPT"], "code"),
            ("kos.course", ["code": "BI-OPT/../x"], "code"),
            ("kos.course", ["code": "BI-OPT", "sem": "2025W1"], "sem"),
            ("kos.exams", ["course": "BI-OPT?x=1"], "course"),
            ("kos.exams", ["sem": "'; DROP"], "sem"),
            ("kos.events", ["sem": "B25 1"], "sem"),
            ("kos.people.search", ["q": "x"], "q"),
            ("kos.export.ics", ["path": 3], "path"),
            ("kos.exams.watch", ["exam_id": "1 OR 1"], "exam_id"),
            ("kos.exams.unwatch", ["exam_id": "-4"], "exam_id"),
            ("kos.login.wait", ["timeout_s": 0], "timeout_s"),
            ("kos.login.code", ["callback_url": "not a url"], "callback_url"),
            ("kos.timetable", ["sem": "current", "extra": 1], "extra"),
        ]
        for (method, params, param) in cases {
            let error = try await bench.failure(method, params)
            #expect(error?.code == -32602, "\(method) \(params): \(error?.message ?? "")")
            #expect(error?.data?["param"] == .string(param), "\(method) \(params): \(error?.message ?? "")")
        }
        #expect(try await bench.requests().count == before, "nothing was sent for bad input")
        // The daemon is still well.
        #expect(try await bench.call("kos.semester")["code"] == "B251")
        await bench.stop()
    }
}
