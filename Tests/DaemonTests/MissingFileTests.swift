import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// A file the daemon was told to use that is missing or unreadable is reported, never a crash.
@Suite(.serialized)
struct MissingFileTests {
    /// A printer whose private CA file went away: the daemon starts and serves, the printer reports
    /// the file and the reason, and a call for it says so (-32002 naming the printer).
    @Test(.enabled(if: Peers.shouldRun(program: "/usr/bin/python3")))
    func aPrinterWhoseCAFileIsGoneIsReportedAndTheDaemonServes() async throws {
        let directory = TemporaryDirectory()
        let first = try await DaemonProcess.started(directory: directory)
        first.signal(SIGTERM)
        #expect(try await first.exitStatus() == 0)
        // Stored as `octoprint.printers.add` stores it, with a CA file that is then deleted.
        let ca = directory.write("ca.pem", "-----BEGIN CERTIFICATE-----\n")
        let database = directory.file("data/assistant/assistant.sqlite")
        let insert = try await runCommand(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO octoprint_printers(name,url,ca_file,basic_user,is_default) VALUES('shop','https://127.0.0.1:9',?,NULL,1)\",(sys.argv[2],)); c.commit()",
                database, ca,
            ], environment: ["PATH": "/usr/bin:/bin"])
        try #require(insert.status == 0, "\(insert.stderr)")
        try FileManager.default.removeItem(atPath: ca)

        let daemon = try await DaemonProcess.started(directory: directory)
        let connection = try await daemon.connect()
        #expect(try await connection.call("ping") == "pong")
        let printers = try await connection.call("octoprint.printers.list")["printers"]?.arrayValue ?? []
        #expect(printers.count == 1)
        #expect(printers.first?["state"] == "failed")
        #expect(printers.first?["problem"] == .string("its CA file \(ca) cannot be read: No such file or directory"))
        let call = try await connection.callResult("octoprint.status", params: ["printer": "shop"])
        guard case .failure(let error) = call else { Issue.record("a printer without its CA file answered: \(call)"); return }
        #expect(error.code == RPCErrorCode.pluginNotReady)
        #expect(error.message.contains("Printer 'shop' cannot be used: its CA file \(ca) cannot be read: No such file or directory"))
        #expect(error.data?["account"] == "shop")
        // Everything else is served.
        #expect(try await connection.call("logbook.airports.search", params: ["query": "LKTB"])["airports"]?.arrayValue?.first?["icao"] == "LKTB")
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    /// A configuration file that cannot be read is a configuration error (exit 78) that names the
    /// file and the reason; the daemon has no include directive, so this is the one config file.
    @Test func anUnreadableConfigFileIsNamedWithItsReason() async throws {
        let directory = TemporaryDirectory()
        let missing = directory.file("nowhere/config.toml")
        let result = try await runCommand(Binaries.assistantd, ["--config", missing], environment: DaemonProcess.environment(directory))
        #expect(result.status == 78)
        #expect(result.stderr.contains(missing))
        #expect(result.stderr.contains("cannot read the file (missing or unreadable)"))
    }
}
