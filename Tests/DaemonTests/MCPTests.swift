import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// `assistantctl mcp` driven by the official Python MCP SDK over stdio, against the shipped
/// daemon: the handshake, the tools with valid 2020-12 schemas and their safety hints, calls
/// whose structured content holds to the output schema, tool errors naming the parameter, what
/// is never offered, and destructive tools hidden unless allowed.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)), .enabled(if: Peers.shouldRun(pythonModule: "mcp")))
struct MCPTests {
    static func session(_ daemon: DaemonProcess, allowDestructive: Bool = false) async throws -> JSONValue {
        let data = try await Peers.outputOrError(
            Peers.python,
            [Peers.script("mcp_client.py"), Binaries.assistantctl, daemon.socketPath] + (allowDestructive ? ["--allow-destructive"] : [])
        ).get()
        return try JSONValue.decode(String(decoding: data, as: UTF8.self))
    }

    @Test func aPythonClientSeesEveryToolWithItsSchemasAndCallsThem() async throws {
        let daemon = try await DaemonProcess.started()
        let seen = try await Self.session(daemon)
        #expect(seen["server"]?["name"] == "assistantd")
        #expect(seen["server"]?["protocol"] == "2025-11-25")
        // The instructions name each plugin by its manifest's summary.
        let instructions = seen["server"]?["instructions"]?.stringValue ?? ""
        #expect(instructions.contains("tasks (Tasks and events: recurrence") && instructions.contains("octoprint (3D printers behind OctoPrint"))
        let tools = try #require(seen["tools"]?.objectValue)
        #expect(tools.count > 140, "\(tools.count) tools")
        #expect(seen["bad_schemas"] == [], "every schema is valid JSON Schema 2020-12")
        // Names are the methods; the hints come from each method's declared effect.
        #expect(tools["tasks.list"]?["readOnly"] == true)
        #expect(tools["tasks.add"]?["readOnly"] == false)
        #expect(tools["tasks.add"]?["required"] == ["title"])
        #expect(tools["tasks.add"]?["additionalProperties"] == false)
        // What reaches beyond this machine is declared in the manifests: a whole plugin, or one command.
        #expect(tools["stag.timetable"]?["openWorld"] == true)
        #expect(tools["octoprint.status"]?["openWorld"] == true)
        #expect(tools["tasks.feeds.refresh"]?["openWorld"] == true && tools["tasks.caldav.sync"]?["openWorld"] == true)
        #expect(tools["notifications.send"]?["openWorld"] == true)
        #expect(tools["tasks.list"]?["openWorld"] == false && tools["logbook.totals"]?["openWorld"] == false)
        // Never offered: secrets, the vault, the notice stream, the database copy; destructive ones by default.
        for name in [
            "vault.set", "vault.list", "kos.setup", "stag.login.password", "tasks.caldav.add", "subscribe", "backup", "tasks.delete",
            "octoprint.job.cancel",
        ] {
            #expect(tools[name] == nil, "\(name) is offered")
        }
        // A teacher's mail lists the class as a dry run; dry_run=false, which sends, asks first.
        #expect(tools["stag.students.mail"]?["readOnly"] == false)
        #expect(tools["stag.students.mail"]?["destructive"] == true)

        let calls = try #require(seen["calls"]?.objectValue)
        #expect(calls["ping"]?["structured"] == ["result": "pong"], "a result that is not an object is wrapped")
        #expect(calls["ping"]?["valid"] == true)
        #expect(calls["add"]?["isError"] == false)
        #expect(calls["add"]?["structured"]?["title"] == "Buy filament")
        #expect(calls["add"]?["valid"] == true)
        #expect(calls["list"]?["structured"]?["tasks"]?.arrayValue?.map { $0["title"] } == ["Buy filament"])
        #expect(calls["list"]?["valid"] == true)
        #expect(try JSONValue.decode(calls["list"]?["text"]?.stringValue ?? "") == calls["list"]?["structured"], "the text is the same JSON")
        for name in ["stag.status", "kos.status", "logbook.totals", "octoprint.printers.list", "today"] {
            #expect(calls[name]?["isError"] == false, "\(name): \(calls[name] ?? .null)")
            #expect(calls[name]?["valid"] == true, "\(name)'s structured content fits its output schema: \(calls[name] ?? .null)")
        }
        // A daemon error is a tool error the model can read and correct.
        #expect(calls["missing"]?["isError"] == true)
        #expect(calls["missing"]?["text"]?.stringValue?.contains("'title'") == true)
        #expect(calls["missing"]?["structured"]?["data"]?["param"] == "title")
        #expect(calls["wrong_type"]?["structured"]?["data"]?["param"] == "limit")
        #expect(calls["unknown_argument"]?["isError"] == true)
        #expect(calls["unknown_argument"]?["structured"]?["data"]?["param"] == "bogus")
        #expect(calls["delete"]?["isError"] == true)
        #expect(calls["delete"]?["text"]?.stringValue?.contains("--allow-destructive") == true)
        #expect(calls["vault"]?["text"]?.stringValue?.contains("not offered to assistants") == true)
        #expect(calls["unknown"]?.stringValue?.hasPrefix("McpError") == true, "an unknown tool is a protocol error")
        // A 10 MB argument is refused with its id, quickly, and the session goes on.
        #expect(calls["huge"]?.stringValue?.contains("Request too large") == true, "\(calls["huge"] ?? .null)")
        #expect(calls["after_huge"]?["structured"] == ["result": "pong"])
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    @Test func destructiveToolsAreOfferedWhenAllowedAndSaySo() async throws {
        let daemon = try await DaemonProcess.started()
        let seen = try await Self.session(daemon, allowDestructive: true)
        let tools = try #require(seen["tools"]?.objectValue)
        #expect(tools["tasks.delete"]?["destructive"] == true)
        #expect(tools["octoprint.job.cancel"]?["destructive"] == true)
        #expect(tools["tasks.list"]?["destructive"] == false)
        #expect(tools["vault.delete"] == nil, "the vault stays a person's")
        // Offered, the call goes to the daemon: the id is refused there, not by the policy.
        #expect(seen["calls"]?["delete"]?["structured"]?["code"] == -32010)
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// `[mcp]` in the daemon's config: only the listed tools, destructive ones allowed.
    @Test func theConfigsMCPSectionChoosesTheToolsAndAllowsDestructiveOnes() async throws {
        let daemon = try await DaemonProcess.started(config: "[mcp]\ntools = [\"tasks.*\", \"ping\"]\nallow_destructive = true\n")
        let seen = try await Self.session(daemon)
        let tools = try #require(seen["tools"]?.objectValue)
        #expect(tools.keys.allSatisfy { $0 == "ping" || $0.hasPrefix("tasks.") }, "\(tools.keys.sorted())")
        #expect(tools["tasks.delete"]?["destructive"] == true)
        #expect(tools["tasks.caldav.add"] == nil, "a secret-taking method stays out whatever the patterns")
        #expect(tools["stag.timetable"] == nil)
        #expect(seen["calls"]?["delete"]?["structured"]?["code"] == -32010, "offered: the daemon refuses the id")
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// Garbage is a protocol error and the session goes on; the end of input ends it with 0.
    @Test func garbageOnStdinIsAnErrorAndTheEndOfInputEndsTheSession() async throws {
        let daemon = try await DaemonProcess.started()
        let initialize =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","ver"#
            + #"sion":"1"}}}"#
        let result = try await runCommand(
            Binaries.assistantctl, ["mcp"], environment: DaemonProcess.environment(daemon.directory),
            stdin: "this is not json\n\u{0}\u{1}{{{\n" + initialize + "\n")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map { (try? JSONValue.decode(String($0))) ?? .null }
        #expect(lines.first?["error"]?["code"] == -32700, "\(result.stdout)")
        #expect(lines.last?["result"]?["serverInfo"]?["name"] == "assistantd", "initialize still answered after the garbage")
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// A calendar of `count` to-dos (the import reports progress every 10 000).
    static func todos(_ count: Int) -> String {
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        ics.reserveCapacity(count * 120)
        for i in 0..<count {
            ics += "BEGIN:VTODO\r\nUID:todo-\(i)@test\r\nDTSTAMP:20261101T000000Z\r\nSUMMARY:To-do \(i)\r\nEND:VTODO\r\n"
        }
        return ics + "END:VCALENDAR\r\n"
    }

    /// The rest of a session, with the Python SDK: progress on an import, a cancelled import
    /// (the daemon's calls in flight empty, nothing is added), the resources and a template, a
    /// resource read, the prompts with the views they embed, a subscription told of a change,
    /// and notices as log messages.
    @Test(.timeLimit(.minutes(3)))
    func progressCancellationResourcesPromptsAndNotices() async throws {
        let daemon = try await DaemonProcess.started()
        let small = daemon.directory.write("small.ics", Self.todos(10_001))
        let big = daemon.directory.write("big.ics", Self.todos(30_000))
        let data = try await Peers.outputOrError(
            Peers.python, [Peers.script("mcp_client.py"), Binaries.assistantctl, daemon.socketPath, "--session", small, big]
        ).get()
        let seen = try JSONValue.decode(String(decoding: data, as: UTF8.self))

        // Progress: the daemon's report at 10 000 items, with its bytes read of the file's.
        #expect(seen["import"]?["isError"] == false)
        #expect(seen["import"]?["structured"]?["todos"] == 10_001)
        let progress = try #require(seen["import"]?["progress"]?.arrayValue)
        #expect(progress.first?["message"] == "read 10000 tasks and events", "\(progress)")
        let done = progress.first?["progress"]?.doubleValue ?? 0
        #expect(done > 0 && done <= (progress.first?["total"]?.doubleValue ?? 0), "bytes read of the file's size: \(progress)")

        // Cancelled at its first report: the daemon let go of it, and nothing was added.
        #expect(seen["cancel"]?["reported"] == true)
        #expect(seen["cancel"]?["finished"] == nil, "the call was not answered after its cancellation")
        #expect(seen["cancel"]?["in_flight"] == 1, "only the status call itself")
        #expect(seen["cancel"]?["tasks_after"] == 0)

        // Resources of the plugins set up (Tasks and the logbook here; no Stag or KOS account, no printer).
        #expect(
            seen["resources"] == [
                "assistant://logbook/currency", "assistant://tasks/agenda/today", "assistant://tasks/agenda/week", "assistant://tasks/overdue",
            ])
        #expect(seen["templates"] == [], "a printer's views are offered once a printer is added")
        #expect(seen["today"]?["occurrences"] == [], "an empty agenda, read through tasks.agenda")
        #expect(seen["today_mime"] == "application/json")
        #expect(seen["unknown_resource"]?.stringValue?.contains("Unknown resource") == true)
        #expect(seen["prompts"] == ["daily_briefing", "plan_week"])
        #expect(
            seen["briefing"] == ["text", "assistant://logbook/currency", "assistant://tasks/agenda/today", "assistant://tasks/overdue"],
            "the prompt, then the views that name it, of the plugins set up, in plugins.list's order")

        // A reminder's notice: a log message at its level, and the watched agenda updated.
        #expect(seen["reminder_added"] == true)
        let logs = try #require(seen["logs"]?.arrayValue)
        let reminder = logs.first { $0["data"]?["topic"] == "tasks.reminder" }
        #expect(reminder?["level"] == "info", "\(logs)")
        #expect(reminder?["logger"] == "tasks")
        #expect(reminder?["data"]?["title"]?.stringValue?.contains("Check the print") == true)
        #expect(seen["updated"]?.arrayValue?.contains("assistant://tasks/agenda/today") == true)
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// Standard input closed while a call runs: the daemon call is cancelled (its connection is
    /// hung up), and the process exits with 0.
    @Test func theEndOfInputMidCallCancelsTheCallAndExitsZero() async throws {
        let daemon = try await DaemonProcess.started()
        // A client that declares no roots may name files in [mcp] files_dir only.
        _ = daemon.directory.directory("data/assistant/files")
        let big = daemon.directory.write("data/assistant/files/big.ics", Self.todos(30_000))
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","ver"#
                + #"sion":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tasks.import.ics","arguments":{"path":"\#(big)"}}}"#,
        ]
        let result = try await runCommand(
            Binaries.assistantctl, ["mcp"], environment: DaemonProcess.environment(daemon.directory), stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        #expect(!result.stdout.contains(#""id":2"#), "the call was not answered: the session ended first")
        // The daemon hears the hang-up and lets the import go (it rolls back: nothing added).
        let connection = try await AssistantConnection.connect(socketPath: daemon.socketPath)
        try await waitForCallsInFlight(connection, atMost: 1)
        #expect(try await connection.call("tasks.list", params: ["when": "all"])["count"] == 0)
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// A printer's resources against a real OctoPrint with a webcam: its status as JSON and a
    /// snapshot as an `image/jpeg` blob; an unknown printer is an error that names it.
    @Test(.enabled(if: Peers.shouldRun(program: OctoPrintPeer.executable)))
    func aPrintersStatusAndWebcamAreResources() async throws {
        let octoprint = try await OctoPrintPeer()
        defer { octoprint.stop() }
        let cam = try await WebcamPeer()
        defer { cam.stop() }
        let daemon = try await DaemonProcess.started()
        let connection = try await AssistantConnection.connect(socketPath: daemon.socketPath)
        _ = try await connection.call(
            "octoprint.printers.add", params: ["name": "mk3", "url": .string(octoprint.url), "api_key": .string(octoprint.apiKey)])
        _ = try await connection.call(
            "octoprint.settings.patch", params: ["settings": ["plugins": ["classicwebcam": ["snapshot": .string(cam.snapshotURL)]]]])
        await connection.close()
        let data = try await Peers.outputOrError(
            Peers.python, [Peers.script("mcp_client.py"), Binaries.assistantctl, daemon.socketPath, "--printer", "mk3"]
        ).get()
        let seen = try JSONValue.decode(String(decoding: data, as: UTF8.self))
        #expect(seen["templates"] == ["assistant://octoprint/{printer}/status", "assistant://octoprint/{printer}/webcam"], "offered with a printer")
        #expect(seen["status_mime"] == "application/json")
        #expect(seen["status"]?["printer"] == "mk3", "\(seen["status"] ?? .null)")
        #expect(seen["webcam_mime"] == "image/jpeg")
        #expect(seen["webcam_is_jpeg"] == true)
        #expect(seen["unknown_printer"]?.stringValue?.contains("nosuch") == true, "\(seen["unknown_printer"] ?? .null)")
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// Returns once the daemon counts at most `count` calls in flight (this status call is one).
    /// The daemon has no event for it, so status is asked every 50 ms, for up to a minute.
    func waitForCallsInFlight(_ connection: AssistantConnection, atMost count: Int) async throws {
        for _ in 0..<1200 {
            if let total = try await connection.call("status")["calls_in_flight"]?["total"]?.intValue, total <= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the daemon still has calls in flight after a minute")
    }

    @Test func withoutADaemonItExitsWith69AndTheHint() async throws {
        let directory = TemporaryDirectory()
        let result = try await runCommand(
            Binaries.assistantctl, ["mcp", "--socket", directory.file("none.sock")], environment: DaemonProcess.environment(directory), stdin: "")
        #expect(result.status == 69)
        #expect(result.stderr.contains("Start the daemon with 'assistantd'"))
    }
}
