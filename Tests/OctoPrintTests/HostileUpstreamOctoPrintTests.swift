import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import OctoPrint

/// A "printer" answering as a broken or hostile server would: adding it is refused with a clear
/// error naming it, nothing is saved, and the daemon answers on.
@Suite(.stopsTestHosts, .serialized, .timeLimit(.minutes(3))) struct HostileUpstreamOctoPrintTests {
    @Test func aPrinterAnsweringBadlyIsRefusedAndNothingIsSaved() async throws {
        let host = try await TestHost.started(plugins: [OctoPrintPlugin()]) { $0.http.timeoutSeconds = 2 }
        let behaviours = HostileUpstream.everyJSONMisbehaviour(redirectTarget: "http://192.0.2.1/api/version")
            + [.answer(status: 200, contentType: "application/json", body: "{\"api\": 1}")]
        for behaviour in behaviours {
            try await HostileUpstream.with(behaviour) { server in
                let outcome = try await host.call("octoprint.printers.add", ["name": "mk3", "url": .string(server.url), "api_key": "0123456789ABCDEF"])
                guard case .failure(let error) = outcome else { Issue.record("\(behaviour) was accepted: \(outcome)"); return }
                #expect(error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names the printer's address: \(error.code) \(error.message)")
                #expect(!error.message.contains("0123456789ABCDEF"))
            }
            #expect(try await host.call("octoprint.printers.list").get()["printers"] == [], "\(behaviour): nothing saved")
        }
        await host.stop()
    }
}
