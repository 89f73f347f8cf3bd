import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct ExamTests {
    @Test func aCoursesExamsMineAndAllMyCourses() async throws {
        let bench = try await TokenTests.loggedIn()
        let course = try await bench.host.call("kos.exams", ["course": "BI-OPT"]).get()["exams"]?.arrayValue ?? []
        #expect(course.map { $0["id"] } == ["901", "902"])
        #expect(
            course.first == [
                "id": "901", "course": "BI-OPT", "start": "2027-01-10T09:00", "end": "2027-01-10T11:00", "room": "T9:105", "capacity": 20,
                "occupied": 20,
                "full": true, "kind": "exam", "examiners": ["Ing. Tomáš Dvořák Ph.D."], "signin_deadline": "2027-01-10",
                "cancel_deadline": "2027-01-10",
                "registered": false,
            ])
        #expect(course.last?["registered"] == true)
        #expect(try await bench.host.call("kos.exams", ["mine": true]).get()["exams"]?.arrayValue?.map { $0["id"] } == ["902"])
        let all = try await bench.host.call("kos.exams").get()["exams"]?.arrayValue ?? []
        #expect(all.map { $0["id"] } == ["901", "903", "902"], "every enrolled course's exams, by start")
        #expect(all.first { $0["id"] == "903" }?["kind"] == "assessment")
        for (params, param) in [(["course": "BI OPT"] as JSONValue, "course"), (["mine": "yes"], "mine"), (["sem": "B2511"], "sem")] {
            guard case .failure(let error) = try await bench.host.call("kos.exams", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.data?["param"] == .string(param))
        }
        await bench.stop()
    }

    @Test func aCoursesExamsNeedNoLogin() async throws {
        let bench = try await AuthTests.start()
        try await bench.setUp()
        #expect(try await bench.host.call("kos.exams", ["course": "BI-ZMA"]).get()["exams"]?.arrayValue?.map { $0["id"] } == ["903"])
        guard case .failure(let mine) = try await bench.host.call("kos.exams", ["mine": true]) else {
            Issue.record("mine without a login")
            return
        }
        #expect(mine.code == -32003)
        await bench.stop()
    }
}
