import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// The study plan check against the fake's plan 12345: the compulsory group misses BI-OPT and is
/// 5 credits short (PA1 7 + ZMA 6 of 18), the compulsory-elective group is 4 credits short (none
/// of PA2, LIN done); and what of the plan can be taken in a semester.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct StudyPlanTests {
    @Test func eachGroupWithWhatItAsksAndWhatIsDone() async throws {
        let bench = try await TokenTests.loggedIn()
        let plan = try await bench.call("kos.studyplan")
        #expect(plan["study_plan"] == ["code": "12345", "name": "Bakalářský 2024"])
        #expect(
            plan["groups"] == [
                [
                    "code": "BI-Z", "name": "Povinné předměty", "role": "compulsory", "credits_required": 18, "credits_obtained": 13,
                    "credits_short": 5, "courses_required": nil, "courses_completed": 2, "missing": ["BI-OPT"],
                ],
                [
                    "code": "BI-PV", "name": "Povinně volitelné předměty", "role": "elective", "credits_required": 4, "credits_obtained": 0,
                    "credits_short": 4, "courses_required": 1, "courses_completed": 0, "missing": [],
                ],
            ])
        #expect(plan["complete"] == false)
        await bench.stop()
    }

    @Test func theCoursesStillToTakeThatASemesterOffers() async throws {
        let bench = try await TokenTests.loggedIn()
        let current = try await bench.call("kos.courses.available", ["sem": "current"])
        #expect(current["courses"]?.arrayValue?.map { $0["code"] } == ["BI-OPT", "BI-PA2", "BI-LIN"], "PA1 and ZMA are done")
        #expect(
            current["courses"]?.arrayValue?.first == ["code": "BI-OPT", "name": "Optimalizace", "credits": 5, "group": "BI-Z", "role": "compulsory"])
        // Next semester only linear algebra is taught (the others answer 404 for it).
        let next = try await bench.call("kos.courses.available", ["sem": "B252"])
        #expect(next["courses"]?.arrayValue?.map { $0["code"] } == ["BI-LIN"])
        #expect(next["truncated"] == false)
        for (params, param) in [([:] as JSONValue, "sem"), (["sem": "none"], "sem"), (["sem": "B2x"], "sem")] {
            guard case .failure(let error) = try await bench.host.call("kos.courses.available", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == .string(param))
        }
        await bench.stop()
    }
}
