import AssistantTesting
import Foundation
import HostCore
import Testing

/// Against a real OctoPrint 1.11.8 with its virtual printer.
@Suite(.stopsTestHosts, .timeLimit(.minutes(5)))
struct OctoPrintRESTTests {
    static var enabled: Bool { Peers.shouldRun(program: OctoPrintPeer.executable) }

    @Test(.enabled(if: enabled)) func addingPrintersTellsEachFailureApart() async throws {
        try await OctoPrintHost.with(addPrinter: false) { op in
            let url = JSONValue.string(op.octoprint.url)
            #expect(try await op.failure("octoprint.status", [:]).code == 1002, "no printer yet")
            let badKey = try await op.failure("octoprint.printers.add", ["name": "mk3", "url": url, "api_key": "WRONGKEY"])
            #expect(badKey.code == 1004)
            let refused = try await op.failure(
                "octoprint.printers.add",
                [
                    "name": "mk3", "url": .string("http://127.0.0.1:\(try Peers.freePort())"), "api_key": .string(op.octoprint.apiKey),
                ])
            #expect(refused.code == -32004)
            #expect(refused.message.contains("connection refused"))
            // The daemon's own socket directory is not an HTTP server; a plain HTTP server that is
            // not OctoPrint: python's http.server.
            let plainPort = String(try Peers.freePort())
            let plain = try PeerProcess(Peers.python, ["-m", "http.server", "--bind", "127.0.0.1", plainPort])
            defer { plain.stop() }
            _ = try await plain.line(containing: "Serving HTTP", within: 20, "http.server")
            let notOctoPrint = try await op.failure(
                "octoprint.printers.add",
                [
                    "name": "mk3", "url": .string("http://127.0.0.1:\(plainPort)"), "api_key": .string(op.octoprint.apiKey),
                ])
            #expect(notOctoPrint.code == 1005)
            #expect(try await op.failure("octoprint.printers.add", ["name": "mk3", "url": "ftp://x", "api_key": "k"]).data?["param"] == "url")
            #expect(try await op.failure("octoprint.printers.add", ["name": "my printer", "url": url, "api_key": "k"]).data?["param"] == "name")
            #expect(try await op.failure("octoprint.printers.add", ["name": "mk3", "url": url]).data?["param"] == "api_key")
            #expect(try await op.call("octoprint.printers.list")["printers"]?.arrayValue?.isEmpty == true, "nothing was saved")

            let added = try await op.call("octoprint.printers.add", ["name": "mk3", "url": url, "api_key": .string(op.octoprint.apiKey)])
            #expect(added["octoprint"]?["server"] == "1.11.8")
            #expect(added["printer"]?["default"] == true)
            #expect(added.encodedString().contains(op.octoprint.apiKey) == false, "the key never comes back")
            #expect(
                try await op.failure("octoprint.printers.add", ["name": "mk3", "url": url, "api_key": .string(op.octoprint.apiKey)]).code == 1010)
            // A second name for the same OctoPrint, key read from the vault.
            try await op.call("vault.set", ["name": "octoprint/mini/api_key", "secret": .string(op.octoprint.apiKey)])
            try await op.call("octoprint.printers.add", ["name": "mini", "url": url])
            #expect(try await op.call("octoprint.server.version", ["printer": "mini"])["server"] == "1.11.8")
            #expect(try await op.failure("octoprint.server.version", ["printer": "nope"]).code == 1002)
            try await op.call("octoprint.printers.default", ["name": "mini"])
            let list = try await op.call("octoprint.printers.list")["printers"]?.arrayValue ?? []
            #expect(list.first { $0["name"] == "mini" }?["default"] == true)
            #expect(list.first { $0["name"] == "mk3" }?["default"] == false)
            #expect(try await op.failure("octoprint.printers.update", ["name": "mk3", "api_key": "WRONG"]).code == 1004)
            #expect(try await op.call("octoprint.server.version", ["printer": "mk3"])["server"] == "1.11.8", "a refused update kept the old key")
            try await op.call("octoprint.printers.remove", ["name": "mini"])
            #expect(try await op.call("vault.list").encodedString().contains("octoprint/mini") == false, "its key left the vault")
        }
    }

    /// A small cube's G-code (200 moves).
    static func cube(in dir: TemporaryDirectory) -> String {
        dir.write(
            "cube.gcode",
            (["G28", "G1 Z0.2 F1200"] + (0..<200).map { "G1 X\($0 % 50) Y\($0 % 40) E\(Double($0) * 0.05) F3000" } + ["M104 S0", "M140 S0"])
                .joined(separator: "\n") + "\n")
    }

    @Test(.enabled(if: enabled)) func aDisconnectedPrinterSaysHowToConnect() async throws {
        try await OctoPrintHost.with { op in
            // Not connected: printer commands say so, and how to fix it.
            let offline = try await op.failure("octoprint.tool.target", ["temperature": 200])
            #expect(offline.code == 1001)
            #expect(offline.message.contains("octoprint.connection.connect"))
            let disconnected = try await op.call("octoprint.status")
            #expect(disconnected["connected"] == false)

            try await op.call("octoprint.connection.connect", ["port": "VIRTUAL", "baudrate": 115200])
            _ = try await op.waitForStatus("connected") { $0["flags"]?["operational"] == true }
            #expect(try await op.call("octoprint.connection.state")["current"]?["port"] == "VIRTUAL")
            try await op.call("octoprint.connection.disconnect")
            _ = try await op.waitForStatus("disconnected") { $0["connected"] == false }
        }
    }

    @Test(.enabled(if: enabled)) func temperaturesMotionAndGcode() async throws {
        try await OctoPrintHost.with(connected: true) { op in
            // Temperatures, within and beyond the limits.
            try await op.call("octoprint.tool.target", ["temperature": 205])
            try await op.call("octoprint.bed.target", ["temperature": 60])
            let hot = try await op.waitForStatus("targets reported") { $0["temperatures"]?["tool0"]?["target"]?.doubleValue == 205 }
            #expect(hot["temperatures"]?["bed"]?["target"]?.doubleValue == 60)
            #expect(try await op.failure("octoprint.tool.target", ["temperature": 301]).data?["param"] == "temperature")
            #expect(try await op.failure("octoprint.tool.target", ["temperature": -5]).data?["param"] == "temperature")
            #expect(try await op.failure("octoprint.bed.target", ["temperature": 121]).data?["param"] == "temperature")
            #expect(try await op.failure("octoprint.chamber.target", ["temperature": 81]).data?["param"] == "temperature")
            #expect(try await op.failure("octoprint.tool.target", ["temperature": 200, "tool": "nozzle"]).data?["param"] == "tool")
            #expect(try await op.failure("octoprint.printhead.feedrate", ["factor": 201]).data?["param"] == "factor")
            #expect(try await op.failure("octoprint.tool.flowrate", ["factor": 74]).data?["param"] == "factor")
            #expect(try await op.failure("octoprint.printhead.jog", [:]).data?["param"] == "x")
            try await op.call("octoprint.printhead.feedrate", ["factor": 150])
            try await op.call("octoprint.tool.flowrate", ["factor": 110])
            try await op.call("octoprint.printhead.home", [:])
            try await op.call("octoprint.printhead.jog", ["x": 10, "y": -5, "speed": 3000])
            try await op.call("octoprint.tool.extrude", ["amount": 5])
            try await op.call("octoprint.tool.offset", ["offset": 2])
            try await op.call("octoprint.bed.offset", ["offset": -1])
            try await op.call("octoprint.gcode", ["commands": ["M115", "G91"]])
            #expect(try await op.failure("octoprint.gcode", ["commands": []]).data?["param"] == "commands")
            #expect(try await op.call("octoprint.tool.state")["tool0"]?["target"]?.doubleValue == 205)
            #expect(try await op.call("octoprint.bed.state")["bed"]?["target"]?.doubleValue == 60)
        }
    }

    @Test(.enabled(if: enabled)) func sdCard() async throws {
        try await OctoPrintHost.with(connected: true) { op in
            // SD card.
            try await op.call("octoprint.sd.init")
            try await op.call("octoprint.sd.refresh")
            #expect(try await op.call("octoprint.sd.state")["ready"] == true, "the virtual printer's SD card is ready after init")
        }
    }

    @Test(.enabled(if: enabled)) func uploadAndPrintToCompletion() async throws {
        try await OctoPrintHost.with(connected: true) { op in
            let dir = TemporaryDirectory()
            let gcode = Self.cube(in: dir)
            let up = try await op.call("octoprint.files.upload", ["file": .string(gcode), "print": true])
            #expect(up["done"] == true)
            #expect(up["files"]?["local"]?["name"] == "cube.gcode")
            _ = try await op.waitForStatus("printing") { $0["flags"]?["printing"] == true || $0["progress"]?["completion"]?.doubleValue == 100 }
            let done = try await op.waitForStatus("print done", seconds: 120) {
                $0["flags"]?["printing"] == false && $0["progress"]?["completion"]?.doubleValue == 100
            }
            #expect(done["job"]?["file"]?["name"] == "cube.gcode")
        }
    }

    @Test(.enabled(if: enabled)) func fileOperations() async throws {
        try await OctoPrintHost.with { op in
            let dir = TemporaryDirectory()
            let gcode = Self.cube(in: dir)
            try await op.call("octoprint.files.upload", ["file": .string(gcode)])
            // Files: folder, copy, move, info, download, delete; a missing file is a clear error.
            try await op.call("octoprint.files.mkdir", ["name": "parts"])
            try await op.call("octoprint.files.copy", ["path": "cube.gcode", "destination": "parts"])
            try await op.call("octoprint.files.move", ["path": "parts/cube.gcode", "destination": "parts/cube2.gcode"])
            #expect(try await op.call("octoprint.files.info", ["path": "parts/cube2.gcode"])["name"] == "cube2.gcode")
            let saved = try await op.call("octoprint.files.download", ["path": "parts/cube2.gcode", "out": .string(dir.file("back.gcode"))])
            #expect(saved["bytes"]?.intValue == Int64((try Data(contentsOf: URL(fileURLWithPath: gcode))).count))
            let listed = try await op.call("octoprint.files.list").encodedString()
            #expect(listed.contains("cube2.gcode"))
            try await op.call("octoprint.files.delete", ["path": "parts/cube2.gcode"])
            #expect(try await op.failure("octoprint.files.info", ["path": "parts/cube2.gcode"]).code == -32010)
            #expect(try await op.failure("octoprint.files.upload", ["file": .string(dir.file("missing.gcode"))]).data?["param"] == "file")
            let text = dir.write("notes.txt", "not gcode")
            #expect(try await op.failure("octoprint.files.upload", ["file": .string(text)]).code == 1007)
        }
    }

    @Test(.enabled(if: enabled)) func pauseResumeAndCancelALongPrint() async throws {
        try await OctoPrintHost.with(connected: true) { op in
            let dir = TemporaryDirectory()
            // Pause, resume, cancel on a longer print.
            let long = dir.write("long.gcode", (["G28"] + (0..<20000).map { "G1 X\($0 % 100) Y\($0 % 90) F6000" }).joined(separator: "\n") + "\n")
            try await op.call("octoprint.files.upload", ["file": .string(long), "print": true])
            _ = try await op.waitForStatus("long print started") { $0["flags"]?["printing"] == true }
            try await op.call("octoprint.job.pause")
            _ = try await op.waitForStatus("paused") { $0["flags"]?["paused"] == true }
            #expect(try await op.failure("octoprint.files.delete", ["path": "long.gcode"]).code == 1006, "the printing file is in use")
            try await op.call("octoprint.job.resume")
            _ = try await op.waitForStatus("resumed") { $0["flags"]?["printing"] == true }
            try await op.call("octoprint.job.cancel")
            _ = try await op.waitForStatus("cancelled") { $0["flags"]?["printing"] == false && $0["flags"]?["cancelling"] == false }
            #expect(try await op.call("octoprint.job.status")["job"]?["file"]?["name"] == "long.gcode")
        }
    }

    @Test(.enabled(if: enabled)) func administrationAreas() async throws {
        try await OctoPrintHost.with { op in
            let profiles = try await op.call("octoprint.profiles.list")
            #expect(profiles["profiles"]?["_default"]?["id"] == "_default")
            try await op.call(
                "octoprint.profiles.add",
                ["data": ["id": "mini", "name": "Mini", "model": "Test", "volume": ["width": 180, "depth": 180, "height": 180]]])
            #expect(try await op.call("octoprint.profiles.get", ["id": "mini"])["name"] == "Mini")
            try await op.call("octoprint.profiles.update", ["id": "mini", "data": ["name": "Mini+"]])
            #expect(try await op.call("octoprint.profiles.get", ["id": "mini"])["name"] == "Mini+")
            try await op.call("octoprint.profiles.delete", ["id": "mini"])
            #expect(try await op.failure("octoprint.profiles.get", ["id": "mini"]).code == -32010)
            #expect(try await op.failure("octoprint.profiles.add", ["data": "x"]).data?["param"] == "data")

            let settings = try await op.call("octoprint.settings.get")
            #expect(settings["appearance"]?["name"] == "", "a fresh OctoPrint has no printer name")
            #expect(settings.encodedString().contains(op.octoprint.apiKey) == false, "keys OctoPrint returns are redacted")
            try await op.call("octoprint.settings.patch", ["settings": ["appearance": ["name": "Workshop"]]])
            #expect(try await op.call("octoprint.settings.get")["appearance"]?["name"] == "Workshop")

            let systemCommands = try await op.call("octoprint.system.list")
            #expect(systemCommands == ["core": [], "custom": [], "plugin": []], "no system command is configured")
            #expect(try await op.failure("octoprint.system.run", ["source": "custom", "action": "nope"]).code == -32010)
            let slicers = try await op.call("octoprint.slicing.slicers")
            let slicerList = try #require(slicers.objectValue, "slicing.slicers answers an object")
            #expect(slicerList.isEmpty, "OctoPrint 1.11 bundles no slicer plugin, and none is installed here: \(slicerList.keys.sorted())")
            // No slicer is installable here: slicing says so clearly.
            let dir0 = TemporaryDirectory()
            try await op.call("octoprint.files.upload", ["file": .string(dir0.write("part.gcode", "G28\n"))])
            let slice = try await op.failure("octoprint.files.slice", ["path": "part.gcode", "slicer": "curalegacy"])
            #expect(slice.code == 1009, "\(slice.message)")
            #expect(slice.message.contains("curalegacy"))
            let profile = try await op.failure("octoprint.slicing.profiles.list", ["slicer": "curalegacy"])
            #expect(profile.code == 1009, "\(profile.message)")
            // OctoPrint answers a delete of a timelapse that is not there with the (unchanged) list.
            #expect(try await op.call("octoprint.timelapse.delete", ["name": "none.mp4"])["files"]?.arrayValue?.isEmpty == true)
            let timelapse = try await op.call("octoprint.timelapse.list")
            #expect(timelapse["files"] == [])
            // Without ffmpeg and a snapshot URL OctoPrint keeps timelapses off, but takes the request.
            let config = try await op.call("octoprint.timelapse.config", ["type": "timed", "interval": 10, "fps": 25])
            #expect(config["config"]?["type"] == "off")
            #expect(try await op.failure("octoprint.timelapse.config", ["type": "sometimes"]).data?["param"] == "type")
            #expect(try await op.call("octoprint.logs.list")["files"]?.arrayValue?.isEmpty == false)
            let log = try await op.call("octoprint.logs.list")["files"]?.arrayValue?.first?["name"]?.stringValue ?? "octoprint.log"
            let dir = TemporaryDirectory()
            #expect(
                (try await op.call("octoprint.logs.download", ["name": .string(log), "out": .string(dir.file("o.log"))])["bytes"]?.intValue ?? 0) > 0)
            let users = try await op.call("octoprint.access.users.list")
            #expect(users["users"]?.arrayValue?.contains { $0["name"] == "admin" } == true)
            #expect(users.encodedString().contains(op.octoprint.apiKey) == false)
            #expect(try await op.call("octoprint.access.groups.list")["groups"]?.arrayValue?.isEmpty == false)
            try await op.call("octoprint.access.users.password", ["name": "admin", "password": "a-new-password", "current_password": "test"])
            #expect(try await op.failure("octoprint.access.users.password", ["name": "admin", "password": "x"]).data?["param"] == "password")
            #expect(try await op.call("octoprint.connection.fake_ack")["ok"] == true)
            // OctoPrint answers 204 whether or not there were frames to delete.
            #expect(try await op.call("octoprint.timelapse.delete_unrendered", ["name": "none"]) == ["ok": true, "status": 204])
            #expect(try await op.call("octoprint.access.permissions")["permissions"]?.arrayValue?.isEmpty == false)
            #expect(try await op.call("octoprint.languages.list")["language_packs"]?["_core"]?["identifier"] == "_core")
            #expect(
                try await op.call("octoprint.util.test", ["command": "path", "options": ["path": "/tmp", "check_type": "dir"]])["result"] == true)
            #expect(try await op.call("octoprint.server.info")["version"] == "1.11.8")
            #expect(try await op.call("octoprint.controls.list")["controls"] == [], "no custom control is configured")
        }
    }
}
