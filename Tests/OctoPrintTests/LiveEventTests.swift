import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// Print notices from OctoPrint's push API, and from polling when the websocket is cut.
@Suite(.stopsTestHosts, .timeLimit(.minutes(5)))
struct LiveEventTests {
    /// Collects the notices a subscribed connection receives.
    final class NoticeLog: Sendable {
        let lines = LineCollector()
        let connection: AssistantConnection
        let reader: Task<Void, Never>

        init(_ host: TestHost) async throws {
            connection = try await host.connect()
            _ = try await connection.call("subscribe", params: ["topics": ["octoprint.*"]])
            let stream = connection.notifications
            let lines = self.lines
            reader = Task {
                for await n in stream where n.method == "notice" {
                    let attachments = n.params["attachments"]?.arrayValue?.count ?? 0
                    lines.append("\(n.params["topic"]?.stringValue ?? "") | \(n.params["title"]?.stringValue ?? "") | attachments=\(attachments)")
                }
            }
        }

        func wait(for topic: String, containing text: String = "") async throws -> String {
            let lines = self.lines
            return try await withDeadline(120, "notice \(topic) \(text)") { await lines.next { $0.hasPrefix(topic + " |") && $0.contains(text) } }
        }

        func count(_ topic: String, containing text: String = "") -> Int {
            lines.lines.filter { $0.hasPrefix(topic + " |") && $0.contains(text) }.count
        }

        func close() async {
            reader.cancel()
            await connection.close()
        }
    }

    static func gcode(_ dir: TemporaryDirectory, _ name: String, lines: Int) -> String {
        dir.write(name, (["G28", "G1 Z0.2 F1200"] + (0..<lines).map { "G1 X\($0 % 50) Y\($0 % 40) F3000" }).joined(separator: "\n") + "\n")
    }

    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func printNoticesFromThePushAPIAndThePollingFallback() async throws {
        try await OctoPrintHost.with(addPrinter: false) { op in
            let proxy = try await CountingProxy(target: "127.0.0.1:\(op.octoprint.port)")
            defer { proxy.stop() }
            let cam = try await WebcamPeer()
            defer { cam.stop() }
            let log = try await NoticeLog(op.host)
            try await op.call("octoprint.printers.add", ["name": "mk3", "url": .string(proxy.url), "api_key": .string(op.octoprint.apiKey)])
            try await op.call("octoprint.settings.patch", ["settings": ["plugins": ["classicwebcam": ["snapshot": .string(cam.snapshotURL)]]]])
            try await proxy.waitForRequests(containing: "/sockjs/websocket", count: 1)
            try await op.call("octoprint.connection.connect", ["port": "VIRTUAL", "baudrate": 115200])
            _ = try await op.waitForStatus("connected") { $0["flags"]?["operational"] == true }

            // One print over the websocket: started, 25/50/75 %, done with a snapshot, once each.
            let dir = TemporaryDirectory()
            try await op.call("octoprint.files.upload", ["file": .string(Self.gcode(dir, "first.gcode", lines: 200)), "print": true])
            let done = try await log.wait(for: "octoprint.print.done", containing: "first.gcode")
            #expect(done.hasSuffix("attachments=1"), "the done notice carries the webcam snapshot: \(done)")
            #expect(log.count("octoprint.print.started", containing: "first.gcode") == 1)
            for m in [25, 50, 75] { #expect(log.count("octoprint.print.progress", containing: "\(m)% of first.gcode") == 1, "\(m) %") }
            let stdoutLine = try await withDeadline(10, "stdout") { await op.host.stdout.next { $0.contains("[octoprint.print.done]") } }
            #expect(stdoutLine.contains("first.gcode"))

            // The second print: the websocket is cut after it starts; polling takes over.
            _ = try await op.waitForStatus("ready again") { $0["flags"]?["ready"] == true && $0["flags"]?["printing"] == false }
            #expect(log.count("octoprint.print.started", containing: "first.gcode") == 1, "a finished print is not started again by late state")
            let second = try await op.call("octoprint.files.upload", ["file": .string(Self.gcode(dir, "second.gcode", lines: 800)), "print": true])
            do {
                _ = try await log.wait(for: "octoprint.print.started", containing: "second.gcode")
            } catch {
                Issue.record(
                    "upload: \(second.encodedString())\nnotices: \(log.lines.lines)\nstatus: \(try await op.call("octoprint.status").encodedString())"
                )
                throw error
            }
            await proxy.cut()
            let h = op
            _ = try await withDeadline(180, "the polled print finishing") {
                while log.count("octoprint.print.done", containing: "second.gcode") == 0 {
                    try Task.checkCancellation()
                    _ = try await h.host.call("jobs.run", ["id": "octoprint.poll"])
                    try await Task.sleep(for: .milliseconds(300))
                }
                return true
            }
            #expect(log.count("octoprint.print.started", containing: "second.gcode") == 1, "no duplicate start after the switch")
            for m in [25, 50, 75] { #expect(log.count("octoprint.print.progress", containing: "\(m)% of second.gcode") == 1, "\(m) % once") }
            #expect(log.count("octoprint.print.done", containing: "second.gcode") == 1)
            await log.close()
        }
    }
}
