import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// The canteen service (anonymous, outside STAG) answering as a broken or hostile server would:
/// a clear error naming it each time, and the daemon answers on.
@Suite(.stopsTestHosts, .serialized, .timeLimit(.minutes(3))) struct HostileUpstreamStagTests {
    @Test func theCanteenAnsweringBadlyIsAClearError() async throws {
        let behaviours =
            HostileUpstream.everyJSONMisbehaviour(redirectTarget: "http://192.0.2.1/canteen/B")
            + [.answer(status: 200, contentType: "application/json", body: "[1, 2, 3]")]
        for behaviour in behaviours {
            try await HostileUpstream.with(behaviour) { server in
                let clock = TestClock(now: ISO8601.date("2026-11-24T08:00:00Z")!)
                let host = try await TestHost.started(plugins: [StagPlugin()], clock: clock) {
                    $0.http.timeoutSeconds = 2
                    $0.plugins["stag"] = ["canteen_url": .string(server.url + "/rest/canteen")]
                }
                let outcome = try await clock.whileAdvancing { try await host.call("stag.canteen", ["canteen": "B"]) }
                guard case .failure(let error) = outcome else {
                    Issue.record("\(behaviour) was accepted: \(outcome)")
                    return
                }
                #expect([-32004, -32005, 1309].contains(error.code), "\(behaviour): \(error.code) \(error.message)")
                #expect(error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names the server: \(error.message)")
                #expect(try await host.call("stag.status").get()["accounts"] != nil, "\(behaviour): the daemon answers on")
                await host.stop()
            }
        }
    }

    /// Logged-in reads (rest2 with the ticket): the student logs in against the fake, then the
    /// fake's address answers as a broken or hostile server would. A read with a copy serves it
    /// marked stale or fails clearly; one without fails clearly, naming the server; the account
    /// stays logged in, and the daemon answers on.
    @Test func loggedInReadsAnsweringBadlyAreClearErrorsOrTheLastCopy() async throws {
        let bench = try await StudyTests.student()
        let fresh = try await bench.host.call("stag.results").get()
        let port = bench.fake.port
        bench.fake.stop()
        _ = await bench.fake.process.exitStatus()
        let clock = bench.clock
        for behaviour in HostileUpstream.everyJSONMisbehaviour(redirectTarget: "http://192.0.2.1/ws/services/rest2/predmety") {
            // Past any backoff a failure before set, so that each behaviour is asked for.
            clock.advance(by: 3600)
            try await HostileUpstream.with(behaviour, port: port) { server in
                let results = try await clock.whileAdvancing { try await bench.host.call("stag.results") }
                switch results {
                case .success(let stale):
                    #expect(stale["stale"] == true, "\(behaviour): an answer it could not read was served as fresh")
                    #expect(stale["total"] == fresh["total"])
                case .failure(let error):
                    #expect([-32004, -32005, 1306].contains(error.code), "\(behaviour): \(error.code) \(error.message)")
                }
                let exams = try await clock.whileAdvancing { try await bench.host.call("stag.exams") }
                guard case .failure(let error) = exams else {
                    Issue.record("\(behaviour) was accepted: \(exams)")
                    return
                }
                #expect([-32004, -32005, 1306].contains(error.code), "\(behaviour): \(error.code) \(error.message)")
                #expect(error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names the server: \(error.message)")
                #expect(server.requestCount > 0, "\(behaviour): the hostile server was asked")
                let account = try await bench.host.call("stag.status").get()["accounts"]?.arrayValue?.first
                #expect(account?["state"] == "ready", "\(behaviour): a broken answer is not a refused login")
            }
        }
        await bench.host.stop()
    }
}
