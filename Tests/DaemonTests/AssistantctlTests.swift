import AssistantClient
import AssistantTesting
import Foundation
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct AssistantctlTests {
    func ctl(_ daemon: DaemonProcess, _ arguments: [String], stdin: String? = nil, cwd: String? = nil) async throws -> CommandResult {
        try await runCommand(
            Binaries.assistantctl, arguments, environment: DaemonProcess.environment(daemon.directory), stdin: stdin, currentDirectory: cwd)
    }

    /// Runs assistantctl on a pseudo-terminal (`script`), as a person at a terminal would.
    func ctlOnTerminal(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> CommandResult {
        let command = ([Binaries.assistantctl] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try await runCommand("/usr/bin/script", ["-qec", command, "/dev/null"], environment: DaemonProcess.environment(daemon.directory))
    }

    @Test func exitCodesZeroOneSixtyFourSixtyNine() async throws {
        let daemon = try await DaemonProcess.started()
        let ok = try await ctl(daemon, ["ping"])
        #expect(ok.status == 0)
        #expect(ok.stdout == "\"pong\"\n")
        let rpcError = try await ctl(daemon, ["no.such.method"])
        #expect(rpcError.status == 1)
        #expect(rpcError.stderr.contains("-32601"))
        let badParam = try await ctl(daemon, ["notifications.send", "title=x"])
        #expect(badParam.status == 1)
        #expect(badParam.stderr.contains("'body' is required"))
        let mixed = try await ctl(daemon, ["help", "x=1", "y"])
        #expect(mixed.status == 64 || mixed.status == 1)
        let mixedCall = try await ctl(daemon, ["notifications.send", "title=x", "oops"])
        #expect(mixedCall.status == 64)
        #expect(mixedCall.stderr.contains("key=value"))
        let secretInArgv = try await ctl(daemon, ["vault.set", "name=host/x", "secret=hunter2"])
        #expect(secretInArgv.status == 64)
        #expect(secretInArgv.stderr.contains("refusing"))
        let noMethod = try await ctl(daemon, [])
        #expect(noMethod.status == 64)
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        let unreachable = try await ctl(daemon, ["ping"])
        #expect(unreachable.status == 69)
        #expect(unreachable.stderr.contains("Start the daemon"))
    }

    @Test func jsonWhenPipedAndTextOnATerminal() async throws {
        let daemon = try await DaemonProcess.started()
        let piped = try await ctl(daemon, ["status"])
        #expect(piped.status == 0)
        let status = try JSONValue.decode(piped.stdout)
        #expect(status["api_version"] == "1.0")
        let terminal = try await ctlOnTerminal(daemon, ["status"])
        #expect(terminal.status == 0)
        // Its declared view: the daemon's fields, how many jobs (jobs.list has them whole), the plugins.
        #expect(terminal.stdout.hasPrefix("Version "), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("\nJobs "), "\(terminal.stdout)")
        #expect(!terminal.stdout.contains("CONSECUTIVE_FAILURES"), "\(terminal.stdout)")
        #expect((try? JSONValue.decode(terminal.stdout)) == nil, "a terminal gets text, not JSON")
        let forcedJSON = try await ctlOnTerminal(daemon, ["--json", "ping"])
        #expect(forcedJSON.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\"pong\"")
        let forcedHuman = try await ctl(daemon, ["ping", "--human"])
        #expect(forcedHuman.stdout == "pong\n")
        let help = try await ctlOnTerminal(daemon, ["help", "vault.set"])
        #expect(help.stdout.contains("usage: assistantctl vault.set name=<string> secret=<secret>"))
        #expect(help.stdout.contains("effect: write"))
        let dangerous = try await ctlOnTerminal(daemon, ["help", "vault.delete"])
        #expect(dangerous.stdout.contains("effect: destructive (it loses data or acts outside the daemon"))
        let list = try await ctlOnTerminal(daemon, ["help"])
        #expect(list.stdout.contains("notifications.send"))
        // `today` as a readable day (no plugin is set up here), and a bad date refused by name.
        let today = try await ctlOnTerminal(daemon, ["today"])
        #expect(today.stdout.contains("  Nothing planned."), "\(today.stdout)")
        let badDay = try await ctl(daemon, ["today", "2026-02-30"])
        #expect(badDay.status == 1)
        #expect(badDay.stderr.contains("'date'"))
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    @Test func vaultSetReadsTheSecretFromStdinAndPathsBecomeAbsolute() async throws {
        let daemon = try await DaemonProcess.started()
        let set = try await ctl(daemon, ["vault", "set", "host/smtp/password"], stdin: "s3cr3t-value\n")
        #expect(set.status == 0, "\(set.stderr)")
        // Piped, so JSON: what was stored, never the secret.
        #expect(try JSONValue.decode(set.stdout) == ["name": "host/smtp/password", "stored": true])
        let list = try JSONValue.decode(try await ctl(daemon, ["vault.list"]).stdout)
        #expect(list.arrayValue?.first?["name"] == "host/smtp/password")
        // A relative path is resolved against the caller's directory, not the daemon's.
        let work = daemon.directory.directory("work")
        let backup = try await ctl(daemon, ["backup", "path=copy.sqlite"], cwd: work)
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try JSONValue.decode(backup.stdout)["path"] == .string(work + "/copy.sqlite"))
        #expect(FileManager.default.fileExists(atPath: work + "/copy.sqlite"))
        // JSON literals pass as JSON; strings declared by the method stay strings.
        let literal = try await ctl(daemon, ["notifications.list", "limit=2"])
        #expect(literal.status == 0)
        let typed = try await ctl(daemon, ["notifications.send", "title=007", "body=true"])
        #expect(try JSONValue.decode(typed.stdout)["title"] == "007")
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// An optional secret the daemon finds nowhere (a printer's key not in the vault) is asked
    /// for once, as a required one is, never taken from argv; the call then goes on with it.
    @Test func anOptionalSecretTheDaemonNeedsIsAskedFor() async throws {
        let daemon = try await DaemonProcess.started()
        // Port 9 (discard) on loopback: with the key given, the printer is tried, and refuses.
        let withKey = try await ctl(daemon, ["octoprint.printers.add", "name=lab", "url=http://127.0.0.1:9"], stdin: "0123456789ABCDEF\n")
        #expect(withKey.status == 1)
        #expect(withKey.stderr.hasPrefix("assistantctl: error -32004: "), "\(withKey.stderr)")
        let noKey = try await ctl(daemon, ["octoprint.printers.add", "name=lab", "url=http://127.0.0.1:9"], stdin: "")
        #expect(noKey.status == 64)
        #expect(noKey.stderr == "assistantctl: no secret on standard input\n")
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    @Test func watchStreamsNoticesAsJSONLines() async throws {
        let daemon = try await DaemonProcess.started()
        let watcher = try PeerProcess(Binaries.assistantctl, ["watch", "demo.*"], environment: DaemonProcess.environment(daemon.directory))
        // watch says on stderr when its subscription is in place.
        _ = try await withDeadline(20, "watch subscribing") { await watcher.errors.next { $0.hasPrefix("# watching demo.*") } }
        let connection = try await daemon.connect()
        _ = try await connection.call("notifications.send", params: ["title": "skip", "body": "", "topic": "other.x"])
        _ = try await connection.call("notifications.send", params: ["title": "seen", "body": "b", "topic": "demo.x"])
        let line = try await withDeadline(20, "watch output") { await watcher.output.next { $0.contains("seen") } }
        let notice = try JSONValue.decode(line)
        #expect(notice["topic"] == "demo.x")
        #expect(!watcher.output.lines.contains { $0.contains("skip") })
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
        // The daemon went away: watch ends with 69.
        let status = try await withDeadline(20, "watch exit") { await watcher.exitStatus() }
        #expect(status == 69)
    }

    @Test func completionScriptsAreGenerated() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try await runCommand(Binaries.assistantctl, ["--generate-completion-script", shell], environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.status == 0)
            // Each shell's own form, naming the command and its subcommands.
            let marker = [
                "bash": "complete -o filenames -F _assistantctl assistantctl", "zsh": "#compdef assistantctl", "fish": "complete -c 'assistantctl'",
            ][shell]!
            #expect(result.stdout.contains(marker), "\(shell): \(result.stdout.prefix(200))")
            #expect(result.stdout.contains("watch"), "\(shell) completes the watch subcommand")
        }
    }
}
