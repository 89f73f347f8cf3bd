import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// The canteen service (anonymous, outside STAG) answering as a broken or hostile server would:
/// a clear error naming it each time, and the daemon answers on.
@Suite(.stopsTestHosts, .serialized, .timeLimit(.minutes(3))) struct HostileUpstreamStagTests {
    @Test func theCanteenAnsweringBadlyIsAClearError() async throws {
        let behaviours = HostileUpstream.everyJSONMisbehaviour(redirectTarget: "http://192.0.2.1/canteen/B")
            + [.answer(status: 200, contentType: "application/json", body: "[1, 2, 3]")]
        for behaviour in behaviours {
            try await HostileUpstream.with(behaviour) { server in
                let clock = TestClock(now: ISO8601.date("2026-11-24T08:00:00Z")!)
                let host = try await TestHost.started(plugins: [StagPlugin()], clock: clock) {
                    $0.http.timeoutSeconds = 2
                    $0.plugins["stag"] = ["canteen_url": .string(server.url + "/rest/canteen")]
                }
                let outcome = try await clock.whileAdvancing { try await host.call("stag.canteen", ["canteen": "B"]) }
                guard case .failure(let error) = outcome else { Issue.record("\(behaviour) was accepted: \(outcome)"); return }
                #expect([-32004, -32005, 1309].contains(error.code), "\(behaviour): \(error.code) \(error.message)")
                #expect(error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names the server: \(error.message)")
                #expect(try await host.call("stag.status").get()["accounts"] != nil, "\(behaviour): the daemon answers on")
                await host.stop()
            }
        }
    }
}
