import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import OctoPrint

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

/// `octoprint.terminal`: the serial log as the push connection reports it, against OctoPrint's
/// virtual printer: M115 sent, its firmware line received; M105 and its temperature line.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct TerminalTests {
    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func theTerminalShowsWhatWasSentAndWhatCameBack() async throws {
        try await OctoPrintHost.with(connected: true) { op in
            // The push connection is open once a status came through it; then the answers are waited for.
            _ = try await op.waitForStatus("the printer operational") { $0["flags"]?["operational"] == true }
            let sent = try await op.call("octoprint.gcode", ["commands": ["M115", "M105"], "wait_s": 15])
            let answers = sent["answers"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
            #expect(sent["complete"] == true, "\(sent)")
            #expect(answers.contains { $0.contains("FIRMWARE_NAME:") } && answers.contains { $0.hasPrefix("ok T:") }, "\(answers)")
            #expect(answers.filter { $0.hasPrefix("ok") }.count >= 2)
            // Not waited for: sent, no answers, not complete.
            let unwaited = try await op.call("octoprint.gcode", ["commands": ["M105"], "wait_s": 0])
            #expect(unwaited["complete"] == false && unwaited["answers"] == [])
            for (params, field) in [
                (["commands": ["M105"], "wait_s": 31] as JSONValue, "wait_s"), (["commands": []], "commands"),
                (["commands": ["M105\nM112"]], "commands"),
            ] {
                #expect(try await op.failure("octoprint.gcode", params).data?["param"] == .string(field), "\(params)")
            }
            let host = op.host
            // The push connection batches the log every half second: waited for, within a bound.
            let lines = try await withDeadline(30, "the firmware and temperature lines") {
                while true {
                    let lines = try await host.call("octoprint.terminal", ["lines": 1000]).get()["lines"]?.arrayValue ?? []
                    let received = lines.filter { $0["direction"] == "received" }.compactMap { $0["text"]?.stringValue }
                    if received.contains(where: { $0.contains("FIRMWARE_NAME:") }) && received.contains(where: { $0.hasPrefix("ok T:") }) {
                        return lines
                    }
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            let sentLines = lines.filter { $0["direction"] == "sent" }.compactMap { $0["text"]?.stringValue }
            #expect(sentLines.contains { $0.contains("M115") } && sentLines.contains { $0.contains("M105") }, "\(sentLines)")
            #expect(lines.allSatisfy { $0["time"]?.stringValue.flatMap(ISO8601.date) != nil })
            #expect(lines.allSatisfy { ($0["text"]?.stringValue?.hasPrefix("Send: ") ?? true) == false }, "the prefix is the direction")
            let two = try await op.call("octoprint.terminal", ["lines": 2])["lines"]?.arrayValue ?? []
            #expect(two.count == 2 && two.last == lines.last, "the newest, oldest first")
            for params in [["lines": 0] as JSONValue, ["lines": 1001]] {
                #expect(try await op.failure("octoprint.terminal", params).data?["param"] == "lines", "\(params)")
            }
            #expect(try await op.failure("octoprint.terminal", ["printer": "nope"]).message.contains("nope"), "an unknown printer is named")
        }
    }

    /// The log is a ring of the last 1 000 lines, each at most 512 characters, its direction read
    /// from OctoPrint's prefix.
    @Test func theLogKeepsTheLastThousandLines() {
        var log = TerminalLog()
        let start = Date(timeIntervalSince1970: 0)
        for i in 0..<1_500 { log.add(i % 2 == 0 ? "Send: N\(i) M105" : "Recv: ok \(i)", at: start.addingTimeInterval(Double(i))) }
        log.add("Recv: " + String(repeating: "x", count: 2_000), at: start)
        log.add("Changing monitoring state from \"Offline\" to \"Operational\"", at: start)
        #expect(log.count == TerminalLog.capacity)
        let last = log.last(3)
        #expect(last.map(\.direction) == [.received, .received, .other])
        #expect(last[0].text == "ok 1499" && last[1].text.count == TerminalLog.maxLineLength)
        #expect(log.last(5_000).first?.text == "N502 M105", "the 1 000 newest: 502 … 1 499 and the two above")
    }
}
