import AssistantTesting
import Foundation
import HostCore
import Testing

/// Bad input for every kind of command is refused before anything reaches OctoPrint: a counting
/// proxy in front of it sees no request between the last good call and the next one.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct OctoPrintBadInputTests {
    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func nothingIsSentForBadInput() async throws {
        try await OctoPrintHost.with(addPrinter: false) { op in
            let proxy = try await CountingProxy(target: "127.0.0.1:\(op.octoprint.port)")
            defer { proxy.stop() }
            try await op.call("octoprint.printers.add", ["name": "mk3", "url": .string(proxy.url), "api_key": .string(op.octoprint.apiKey)])
            // The live monitor's own traffic first: login, websocket, then its catch-up poll.
            try await proxy.waitForRequests("the monitor's catch-up poll", count: 1) { $0 == "REQUEST GET /api/printer" }
            try await op.call("octoprint.server.info")
            try await proxy.waitForRequests(containing: "/api/server", count: 1)
            let before = proxy.requests.count

            let dir = TemporaryDirectory()
            let cases: [(String, JSONValue, String)] = [
                ("octoprint.tool.target", ["temperature": 301], "temperature"),
                ("octoprint.tool.target", ["temperature": -1], "temperature"),
                ("octoprint.tool.target", ["temperature": "hot"], "temperature"),
                ("octoprint.tool.target", ["temperature": 200, "tool": "tool99"], "tool"),
                ("octoprint.bed.target", ["temperature": 130], "temperature"),
                ("octoprint.chamber.target", ["temperature": 90], "temperature"),
                ("octoprint.tool.offset", ["offset": 60], "offset"),
                ("octoprint.printhead.feedrate", ["factor": 49], "factor"),
                ("octoprint.printhead.feedrate", ["factor": 1.5], "factor"),
                ("octoprint.tool.flowrate", ["factor": 126], "factor"),
                ("octoprint.printhead.jog", ["speed": 100], "x"),
                ("octoprint.printhead.jog", ["x": 5000], "x"),
                ("octoprint.printhead.home", ["axes": ["w"]], "axes[0]"),
                ("octoprint.tool.extrude", ["amount": 0], "amount"),
                ("octoprint.gcode", ["commands": ["G28\nM112"]], "commands"),
                ("octoprint.gcode", ["commands": ["G28", " "]], "commands"),
                ("octoprint.gcode", ["commands": "G28"], "commands"),
                ("octoprint.connection.connect", ["baudrate": -1], "baudrate"),
                ("octoprint.files.upload", ["file": .string(dir.file("missing.gcode"))], "file"),
                ("octoprint.files.upload", ["file": "relative.gcode"], "file"),
                ("octoprint.files.info", [:], "path"),
                ("octoprint.files.info", ["path": "  "], "path"),
                ("octoprint.files.copy", ["path": "a.gcode"], "destination"),
                ("octoprint.files.list", ["location": "usb"], "location"),
                ("octoprint.files.mkdir", ["name": "a/b"], "name"),
                ("octoprint.files.download", ["path": "a.gcode", "out": .string(dir.file("no/such/dir/a.gcode"))], "out"),
                ("octoprint.timelapse.config", ["type": "sometimes"], "type"),
                ("octoprint.timelapse.config", ["type": "timed", "fps": 0], "fps"),
                ("octoprint.profiles.update", ["id": "x", "data": [1]], "data"),
                ("octoprint.settings.patch", ["settings": "x"], "settings"),
                ("octoprint.system.run", ["source": "kernel", "action": "x"], "source"),
                ("octoprint.util.test", ["command": "ping"], "command"),
                ("octoprint.job.start", ["colour": "red"], "colour"),
            ]
            for (method, params, field) in cases {
                let error = try await op.failure(method, params)
                #expect(error.code == -32602, "\(method) \(params.encodedString()): \(error.message)")
                #expect(error.data?["param"]?.stringValue == field, "\(method) \(params.encodedString()) names \(field): \(error.message)")
            }
            let unknown = try await op.failure("octoprint.job.start", ["printer": "nope"])
            #expect(unknown.code == 1002)

            // The barrier: one good call; it must be the only request since `before`.
            try await op.call("octoprint.server.info")
            try await proxy.waitForRequests(containing: "/api/server", count: 2)
            #expect(Array(proxy.requests.dropFirst(before)) == ["REQUEST GET /api/server"], "bad input sent nothing to OctoPrint")
        }
    }
}
