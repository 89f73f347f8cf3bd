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
        #expect(seen["server"]?["instructions"]?.stringValue?.contains("tasks and reminders") == true)
        let tools = try #require(seen["tools"]?.objectValue)
        #expect(tools.count > 150, "\(tools.count) tools")
        #expect(seen["bad_schemas"] == [], "every schema is valid JSON Schema 2020-12")
        // Names are the methods; the hints come from each method's declared effect.
        #expect(tools["tasks.list"]?["readOnly"] == true)
        #expect(tools["tasks.add"]?["readOnly"] == false)
        #expect(tools["tasks.add"]?["required"] == ["title"])
        #expect(tools["tasks.add"]?["additionalProperties"] == false)
        #expect(tools["stag.timetable"]?["openWorld"] == true)
        #expect(tools["tasks.list"]?["openWorld"] == false)
        // Never offered: secrets, the vault, the notice stream, the database copy; destructive ones by default.
        for name in [
            "vault.set", "vault.list", "kos.setup", "stag.login.password", "tasks.caldav.add", "subscribe", "backup", "tasks.delete",
            "octoprint.job.cancel", "stag.students.mail",
        ] {
            #expect(tools[name] == nil, "\(name) is offered")
        }

        let calls = try #require(seen["calls"]?.objectValue)
        #expect(calls["ping"]?["structured"] == ["result": "pong"], "a result that is not an object is wrapped")
        #expect(calls["ping"]?["valid"] == true)
        #expect(calls["add"]?["isError"] == false)
        #expect(calls["add"]?["structured"]?["title"] == "Buy filament")
        #expect(calls["add"]?["valid"] == true)
        #expect(calls["list"]?["structured"]?["tasks"]?.arrayValue?.map { $0["title"] } == ["Buy filament"])
        #expect(calls["list"]?["valid"] == true)
        #expect(try JSONValue.decode(calls["list"]?["text"]?.stringValue ?? "") == calls["list"]?["structured"], "the text is the same JSON")
        // A daemon error is a tool error the model can read and correct.
        #expect(calls["missing"]?["isError"] == true)
        #expect(calls["missing"]?["text"]?.stringValue?.contains("'title'") == true)
        #expect(calls["missing"]?["structured"]?["data"]?["param"] == "title")
        #expect(calls["wrong_type"]?["structured"]?["data"]?["param"] == "limit")
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
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
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

    @Test func withoutADaemonItExitsWith69AndTheHint() async throws {
        let directory = TemporaryDirectory()
        let result = try await runCommand(
            Binaries.assistantctl, ["mcp", "--socket", directory.file("none.sock")], environment: DaemonProcess.environment(directory), stdin: "")
        #expect(result.status == 69)
        #expect(result.stderr.contains("Start the daemon with 'assistantd'"))
    }
}
