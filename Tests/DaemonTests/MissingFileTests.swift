import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// A file the daemon was told to use that is missing or unreadable is reported, never a crash.
@Suite(.stopsTestHosts, .serialized)
struct MissingFileTests {
    /// A data directory whose database a daemon has created and migrated, then stopped cleanly.
    static func migratedDataDirectory() async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let first = try await DaemonProcess.started(directory: directory)
        await first.signal(SIGTERM)
        #expect(try await first.exitStatus() == 0)
        return directory
    }

    /// A printer whose private CA file went away: the daemon starts and serves, the printer reports
    /// the file and the reason, and a call for it says so (-32002 naming the printer).
    @Test(.enabled(if: Peers.shouldRun(program: Peers.python)))
    func aPrinterWhoseCAFileIsGoneIsReportedAndTheDaemonServes() async throws {
        let directory = try await Self.migratedDataDirectory()
        // Stored as `octoprint.printers.add` stores it (a kit account), with a CA file that is then deleted.
        let ca = directory.write("ca.pem", "-----BEGIN CERTIFICATE-----\n")
        let database = directory.file("data/assistant/assistant.sqlite")
        let insert = try await runCommand(
            Peers.python,
            [
                "-c",
                "import json,sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO host_accounts(plugin,name,settings,is_default,creat"
                    + "ed_at) VALUES('octoprint','shop',?,1,'2026-01-01T00:00:00Z')\",(json.dumps({'url':'https://127.0.0.1:9','ca_file':sys.argv[2]}"
                    + "),)); c.commit()",
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
        #expect(printers.first?["problem"] == .string("its CA file \(ca) does not exist"))
        let call = try await connection.callResult("octoprint.status", params: ["printer": "shop"])
        guard case .failure(let error) = call else {
            Issue.record("a printer without its CA file answered: \(call)")
            return
        }
        #expect(error.code == RPCErrorCode.pluginNotReady)
        #expect(error.message.contains("Printer 'shop' cannot be used: its CA file \(ca) does not exist"))
        #expect(error.data?["account"] == "shop")
        // status shows the printer's account as failed, naming the file.
        let status = try await connection.call("status")
        let octoprint = status["plugins"]?.arrayValue?.first { $0["id"] == "octoprint" }
        #expect(octoprint?["state"] == "ready")
        #expect(octoprint?["accounts"] == [["name": "shop", "state": "failed", "detail": .string("its CA file \(ca) does not exist")]])
        // Everything else is served.
        #expect(try await connection.call("logbook.airports.search", params: ["query": "LKTB"])["airports"]?.arrayValue?.first?["icao"] == "LKTB")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    /// A database from before the plugin kit: its `octoprint_printers` rows become accounts, with
    /// the vault names they already had.
    @Test(.enabled(if: Peers.shouldRun(program: Peers.python)))
    func printersFromBeforeTheKitBecomeAccounts() async throws {
        let directory = try await Self.migratedDataDirectory()
        // Put the database back to octoprint/v1 with two printers, as an earlier version left it.
        let script = directory.write(
            "rewind.py",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.executescript(\"\"\"
            CREATE TABLE octoprint_printers (name TEXT PRIMARY KEY, url TEXT NOT NULL, ca_file TEXT, basic_user TEXT, \
            is_default INTEGER NOT NULL DEFAULT 0);
            INSERT INTO octoprint_printers VALUES ('mk3', 'http://octopi.local', NULL, NULL, 0), ('mini', 'https://mini.lan', '/etc/ca.pem', 'me', 1);
            DELETE FROM grdb_migrations WHERE identifier = 'octoprint/v2-accounts';
            \"\"\")
            c.commit()
            """)
        let rewind = try await runCommand(
            Peers.python, [script, directory.file("data/assistant/assistant.sqlite")], environment: ["PATH": "/usr/bin:/bin"])
        try #require(rewind.status == 0, "\(rewind.stderr)")
        let daemon = try await DaemonProcess.started(directory: directory)
        let connection = try await daemon.connect()
        let printers = try await connection.call("octoprint.printers.list")["printers"]?.arrayValue ?? []
        #expect(printers.map { $0["name"] } == ["mini", "mk3"])
        #expect(printers.first?["url"] == "https://mini.lan")
        #expect(printers.first?["ca_file"] == "/etc/ca.pem")
        #expect(printers.first?["basic_user"] == "me")
        #expect(printers.first?["default"] == true)
        #expect(printers.last?["default"] == false)
        #expect(printers.last?["ca_file"] == .null)
        await daemon.signal(SIGTERM)
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
        #expect(result.stderr.contains("\(missing): the file does not exist"), "\(result.stderr)")
        // A FIFO as the configuration is refused at once instead of waiting for a writer.
        let fifo = directory.file("config.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try await runCommand(Binaries.assistantd, ["--config", fifo], environment: DaemonProcess.environment(directory))
        #expect(piped.status == 78)
        #expect(piped.stderr.contains("the file is a FIFO (named pipe), not a regular file"), "\(piped.stderr)")
    }
}
