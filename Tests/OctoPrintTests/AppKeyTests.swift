import AssistantTesting
import Foundation
import HostCore
import Testing

/// The application-key flow: the test plays the person who approves (or denies) the request in
/// OctoPrint's web interface, through the same endpoints the interface uses.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct AppKeyTests {
    static var enabled: Bool { OctoPrintRESTTests.enabled && Peers.shouldRun(program: "/usr/bin/curl") }

    func decide(_ op: OctoPrintHost, _ decision: Bool) async throws {
        let key = "X-Api-Key: \(op.octoprint.apiKey)"
        let env = ProcessInfo.processInfo.environment
        let token: String = try await withDeadline(30, "the pending request") {
            while true {
                try Task.checkCancellation()
                let r = try await runCommand("/usr/bin/curl", ["-s", "-H", key, "\(op.octoprint.url)/api/plugin/appkeys"], environment: env)
                if let first = (try? JSONValue.decode(r.stdout))?["pending"]?.objectValue?.keys.first { return first }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        let r = try await runCommand(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", key, "-H", "Content-Type: application/json",
                "\(op.octoprint.url)/plugin/appkeys/decision/\(token)", "-d", "{\"decision\": \(decision)}",
            ], environment: env)
        #expect(r.stdout == "204")
    }

    @Test(.enabled(if: enabled)) func approvedAndDenied() async throws {
        try await OctoPrintHost.with(addPrinter: false) { op in
            let url = JSONValue.string(op.octoprint.url)
            let host = op.host
            async let granted = host.call("octoprint.printers.request_key", ["name": "mk3", "url": url, "user": "admin"])
            try await decide(op, true)
            let result = try await granted.get()
            #expect(result["granted"] == true)
            #expect(result.encodedString().contains("TESTKEY") == false)
            #expect(try await op.call("octoprint.server.version", ["printer": "mk3"])["server"] == "1.11.8", "the granted key works")

            async let denied = host.call("octoprint.printers.request_key", ["name": "mini", "url": url, "user": "admin"])
            try await decide(op, false)
            let refusal = try await denied
            guard case .failure(let error) = refusal else {
                Issue.record("a denied request added a printer")
                return
            }
            #expect(error.code == 1013)
            #expect(try await op.call("octoprint.printers.list")["printers"]?.arrayValue?.count == 1)
        }
    }
}
