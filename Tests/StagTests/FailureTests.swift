import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// STAG's failure shapes from the reference: XML when JSON is not asked for, 403 for a refused
/// role, 500 (served from the cache when a copy exists).
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct FailureTests {
    @Test func theFakeAnswersXMLUnlessJSONIsAsked() async throws {
        let bench = try await StudyTests.student()
        let ticket = try await bench.host.host.vault.get("stag/school/ticket")
        let body = try await Browser.open(
            bench.fake.base + "/ws/services/rest2/predmety/getPredmetyByStudent?osCislo=F20B0001P", headers: [("Cookie", "WSCOOKIE=\(ticket ?? "")")]
        ).body
        #expect(body.hasPrefix("<?xml"), "the reference's default format")
        await bench.stop()
    }

    @Test func xml403And500AreClearErrors() async throws {
        let bench = try await StudyTests.student()
        try await bench.fake.admin("state", ["failure": "xml"])
        guard case .failure(let xml) = try await bench.host.call("stag.grades") else {
            Issue.record("XML accepted")
            return
        }
        #expect(xml.code == 1306)
        #expect(xml.message.contains("not JSON (application/xml"), "\(xml.message)")

        try await bench.fake.admin("state", ["failure": "403"])
        guard case .failure(let refused) = try await bench.host.call("stag.grades") else {
            Issue.record("403 accepted")
            return
        }
        #expect(refused.code == 1304)
        #expect(refused.data?["account"] == "school")

        try await bench.fake.admin("state", ["failure": ""])
        let fresh = try await bench.host.call("stag.results").get()
        try await bench.fake.admin("state", ["failure": "500"])
        let clock = bench.clock
        let stale = try await clock.whileAdvancing { try await bench.host.call("stag.results").get() }
        #expect(stale["stale"] == true, "a 500 is STAG failing: the last copy is served")
        #expect(stale["total"] == fresh["total"])
        guard case .failure(let failed) = try await clock.whileAdvancing({ try await bench.host.call("stag.exams") }) else {
            Issue.record("a 500 without a copy succeeded")
            return
        }
        #expect(failed.code == -32004)
        #expect(failed.data?["status"] == 500)
        #expect(try await bench.host.call("stag.status").get()["accounts"]?.arrayValue?.first?["state"] == "ready", "a 500 is not a refused login")
        await bench.stop()
    }
}
