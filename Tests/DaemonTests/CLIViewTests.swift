import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// `assistantctl` shows a command's declared view to a person (`-H`, as at a terminal), fitted to
/// `COLUMNS`; `-o wide` keeps every field, `-o json` the JSON; a bad `-o` is a usage error.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)))
struct CLIViewTests {
    @Test func aListIsItsViewAtTheTerminalsWidthAndWideOrJSONOnRequest() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await AssistantConnection.connect(socketPath: daemon.socketPath)
        let added = try await connection.call("tasks.add", params: ["title": "Buy filament", "priority": 1, "tags": ["shop"]])
        _ = try await connection.call("tasks.add", params: ["title": "Call the workshop about the broken extruder", "due": "2030-01-02 10:00"])
        await connection.close()
        var environment = DaemonProcess.environment(daemon.directory)
        environment["COLUMNS"] = "60"

        let human = try await runCommand(Binaries.assistantctl, ["-H", "tasks.list", "when=all"], environment: environment, stdin: "")
        #expect(human.status == 0, "\(human.stderr)")
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID      P  TITLE") == true, "\(human.stdout)")
        #expect(lines.allSatisfy { $0.count <= 60 }, "fits 60 columns: \(human.stdout)")
        let id = try #require(added["id"]?.stringValue)
        #expect(lines.contains { $0.hasPrefix(String(id.prefix(6)) + "  1  Buy filament") }, "a short id and the priority: \(human.stdout)")
        #expect(lines.contains { $0.contains("Wed 2 Jan 2030") || $0.contains("2 Jan 2030") }, "a date people read: \(human.stdout)")

        let wide = try await runCommand(Binaries.assistantctl, ["-H", "tasks.list", "when=all", "-o", "wide"], environment: environment, stdin: "")
        #expect(wide.stdout.contains("ALL_DAY"), "every field: \(wide.stdout.prefix(300))")
        let json = try await runCommand(Binaries.assistantctl, ["-H", "tasks.list", "when=all", "-o", "json"], environment: environment, stdin: "")
        #expect(try JSONValue.decode(json.stdout)["count"] == 2)
        let bad = try await runCommand(Binaries.assistantctl, ["tasks.list", "-o", "pretty"], environment: environment, stdin: "")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("-o takes 'wide' or 'json'"))
        // On a pipe (no -H), the JSON as before.
        let piped = try await runCommand(Binaries.assistantctl, ["tasks.list", "when=all"], environment: environment, stdin: "")
        #expect(try JSONValue.decode(piped.stdout)["count"] == 2)
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
