import AssistantTesting
import Foundation
import HostCore
import Testing

/// The desktop sink against a real notification daemon: a session `dbus-daemon` started here,
/// `Xvfb` for a display, and Debian's `dunst` on both; `dunstctl history` reads back what dunst
/// received (summary, body, urgency, app name), once closed.
@Suite(
    .stopsTestHosts, .timeLimit(.minutes(2)),
    .enabled(
        if: ["/usr/bin/dbus-daemon", "/usr/bin/Xvfb", "/usr/bin/dunst", "/usr/bin/dunstctl", "/usr/bin/notify-send"].allSatisfy(
            Peers.shouldRun(program:))))
struct DesktopSinkTests {
    /// A session bus, a display and dunst, stopped when `body` ends.
    static func withDesktop<T>(_ body: ([String: String]) async throws -> T) async throws -> T {
        let directory = TemporaryDirectory()
        let address = "unix:path=\(directory.file("bus"))"
        var started: [Process] = []
        func launch(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            started.append(process)
            return (process, output)
        }
        defer { for process in started where process.isRunning { process.terminate() } }
        var environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": directory.path]
        _ = try launch("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"], environment: environment)
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        // Xvfb tells the display it took on the descriptor given (here its stdout).
        let (_, display) = try launch("/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp"], environment: environment)
        let number = try await withDeadline(20, "Xvfb to start") {
            String(decoding: display.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        environment["DISPLAY"] = ":\(number)"
        // dunst 1.9's history has no urgency field: each urgency's format writes it into the
        // message the history keeps.
        let config = directory.file("dunstrc")
        try """
        [global]
        format = "%s"
        [urgency_low]
        format = "low|%s|%b"
        [urgency_normal]
        format = "normal|%s|%b"
        [urgency_critical]
        format = "critical|%s|%b"
        timeout = 0
        """.write(toFile: config, atomically: true, encoding: .utf8)
        _ = try launch("/usr/bin/dunst", ["-config", config], environment: environment)
        // Waits (bounded) for dunst to take the notifications name on the bus.
        let ready = try await runCommand(
            "/usr/bin/gdbus", ["wait", "--session", "--timeout", "20", "org.freedesktop.Notifications"], environment: environment)
        #expect(ready.status == 0, "dunst on the bus: \(ready.stderr)")
        return try await body(environment)
    }

    /// dunst's history, by summary: (summary, body, urgency, app name).
    static func history(_ environment: [String: String]) async throws -> [(String, String, String, String)] {
        // Shown notifications enter the history when closed.
        _ = try await runCommand("/usr/bin/dunstctl", ["close-all"], environment: environment)
        let run = try await runCommand("/usr/bin/dunstctl", ["history"], environment: environment)
        let json = try JSONValue.decode(run.stdout)
        return (json["data"]?.arrayValue?.first?.arrayValue ?? []).map { item in
            func field(_ name: String) -> String { item[name]?["data"]?.stringValue ?? "" }
            return (field("summary"), field("body"), String(field("message").prefix { $0 != "|" }), field("appname"))
        }.sorted { $0.0 < $1.0 }
    }

    @Test func noticesReachTheDesktopWithTheirUrgencyAndPlugin() async throws {
        try await Self.withDesktop { environment in
            let sink = DesktopSink(path: "/usr/bin/notify-send", environment: environment)
            for (severity, title) in [(Severity.info, "Reminder"), (.warning, "Seat freed"), (.critical, "Print failed")] {
                let notice = Notice(
                    id: UUID().uuidString, topic: "t.x", plugin: severity == .critical ? "octoprint" : "tasks", title: title,
                    body: "\(title) body", severity: severity, time: ISO8601.string(Date()), dedupeKey: nil, attachments: [])
                try await sink.deliver(notice, attachments: [], directRecipient: nil, blindCopies: [])
            }
            let seen = try await Self.history(environment)
            #expect(seen.map(\.0) == ["Print failed", "Reminder", "Seat freed"], "\(seen)")
            #expect(seen.map(\.1) == ["Print failed body", "Reminder body", "Seat freed body"])
            #expect(seen.map(\.2) == ["critical", "low", "normal"], "urgency from the severity")
            #expect(seen.map(\.3) == ["octoprint", "tasks", "tasks"], "the plugin as the app name")

            // Through the daemon: configured, and tried with notifications.test.
            let host = try await TestHost.started(
                configure: { $0.notify.desktop.enabled = true }, adjust: { $0.environment = environment })
            let answer = try await host.call("notifications.test", ["sink": "desktop"]).get()
            #expect(answer["sinks"]?.arrayValue?.first?["ok"] == true, "\(answer)")
            #expect(try await Self.history(environment).contains { $0.0 == "Test notice from assistantd" && $0.3 == "host" })
            await host.stop()
        }
    }

    @Test func aMissingNotifySendIsAConfigurationErrorAndNoBusIsAFailedAnswer() async throws {
        do {
            _ = try TestHost(configure: {
                $0.notify.desktop.enabled = true
                $0.notify.desktop.notifySendPath = "/nonexistent/notify-send"
            })
            Issue.record("a missing notify-send is refused at start")
        } catch {
            #expect("\(error)".contains("notify.desktop.notify_send_path"), "\(error)")
        }
        let noBus = try await TestHost.started(
            configure: { $0.notify.desktop.enabled = true }, adjust: { $0.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"] })
        let answer = try await noBus.call("notifications.test", ["sink": "desktop"]).get()
        let desktop = try #require(answer["sinks"]?.arrayValue?.first)
        #expect(desktop["ok"] == false)
        #expect(desktop["error"]?.stringValue?.contains("notify-send") == true, "\(desktop)")
        await noBus.stop()
    }
}
