import AssistantClient
import AssistantTesting
import Foundation
import Testing

/// The student's tour (docs/intro/tasks.md), through the real assistantctl and the real daemon.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct TasksCLITests {
    func ctl(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> CommandResult {
        try await runCommand(Binaries.assistantctl, arguments, environment: DaemonProcess.environment(daemon.directory))
    }

    func json(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> JSONValue {
        let r = try await ctl(daemon, arguments)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return try JSONValue.decode(r.stdout)
    }

    @Test func theIssuesCommandLineWorks() async throws {
        let daemon = try await DaemonProcess.started()
        let t = try await json(
            daemon,
            [
                "tasks.add", "title=Exam prep", "start=2026-12-01 09:00", #"reminders=[{"before_min":15,"of":"start"}]"#, "priority=high",
                #"tags=["math","exam"]"#, "tz=Europe/Prague",
            ])
        #expect(t["start"] == "2026-12-01T08:00:00Z")
        #expect(t["reminders"] == [["before_min": 15, "of": "start"]])
        #expect(t["priority"] == 1)
        #expect(t["tags"] == ["math", "exam"])
        let id = try #require(t["id"]?.stringValue)
        let cleared = try await json(daemon, ["tasks.update", "id=\(id)", #"clear=["reminders","tags"]"#])
        #expect(cleared["reminders"] == [])
        #expect(cleared["tags"] == [])
        let bad = try await ctl(daemon, ["tasks.add", "title=x", "tz=Mars/Base"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("tz"), "\(bad.stderr)")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }
}
