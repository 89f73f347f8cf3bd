import AssistantClient
import AssistantTesting
import Foundation
import GRDB
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct DaemonLifecycleTests {
    @Test func startsWithNoConfigServesAndStopsCleanlyOnSIGTERM() async throws {
        let daemon = try await DaemonProcess.started()
        var info = stat()
        #expect(stat(daemon.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat((daemon.socketPath as NSString).deletingLastPathComponent, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        let data = (DaemonProcess.environment(daemon.directory)["XDG_DATA_HOME"]! as NSString).appendingPathComponent("assistant/assistant.sqlite")
        #expect(FileManager.default.fileExists(atPath: data), "SQLite in the XDG data dir")
        let key = (DaemonProcess.environment(daemon.directory)["XDG_CONFIG_HOME"]! as NSString).appendingPathComponent("assistant/vault.key")
        #expect(stat(key, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let connection = try await daemon.connect()
        #expect(try await connection.call("ping") == "pong")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "the socket is removed")
    }

    /// Out of descriptors: under a hard limit of 64 the daemon (which raises its soft limit to
    /// the hard one and says so) cannot accept a flood of 100 connections at once. `accept` fails
    /// with EMFILE; the daemon pauses accepting, goes on serving the connections it has, and
    /// accepts the waiting ones as descriptors come free, so every client is answered in the end.
    @Test func runningOutOfDescriptorsPausesAcceptingAndKeepsServing() async throws {
        let daemon = try await DaemonProcess.started(wrapper: ["/usr/bin/prlimit", "--nofile=64:64", "--"])
        let limit = await daemon.stderr.next(1) { $0.contains("open files limit") }
        #expect(limit.contains("soft=64"), "\(limit)")
        let steady = try await daemon.connect()
        #expect(try await steady.call("ping") == "pong")

        var flood: [RawLineClient] = []
        for _ in 0..<100 { flood.append(try await RawLineClient(socketPath: daemon.socketPath)) }
        for (i, client) in flood.enumerated() { try await client.send(line: #"{"jsonrpc":"2.0","id":\#(i),"method":"ping"}"#) }
        // 100 connections wait and the daemon has fewer than 40 descriptors to spare (with the
        // database, the log and the event loops open): its table fills (64 open, checked by hand
        // through /proc) and accept fails with EMFILE.
        #expect(try await steady.call("ping") == "pong", "the connection it has is served while others wait")
        // Each client is answered once the ones before it hang up and free a descriptor.
        for (i, client) in flood.enumerated() {
            #expect(try await client.readLine(timeout: 30) == #"{"id":\#(i),"jsonrpc":"2.0","result":"pong"}"#)
            await client.close()
        }
        #expect(try await steady.call("ping") == "pong")
        await steady.close()
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    /// SIGTERM while a call waits (a browser login nobody completes): the daemon refuses new
    /// work, gives the call `shutdown_grace_s`, cancels it, and exits 0 with the socket removed.
    @Test func sigtermWithALongCallInFlightStopsAfterTheGrace() async throws {
        let daemon = try await DaemonProcess.started(config: "shutdown_grace_s = 1\n")
        let connection = try await daemon.connect()
        _ = try await connection.call("stag.login", params: ["base_url": "http://127.0.0.1:9", "account": "t"])
        async let waiting = connection.callResult("stag.login.wait", params: ["account": "t", "timeout_s": 600])
        // The wait is in flight once status counts it (round trips on the same connection, no sleep).
        var inFlight = false
        for _ in 0..<100 where !inFlight {
            inFlight = try await connection.call("status")["calls_in_flight"]?["plugins"]?["stag"] == 1
        }
        #expect(inFlight)
        let clock = ContinuousClock()
        let signalled = clock.now
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus(timeout: 20) == 0)
        let took = clock.now - signalled
        #expect(took >= .seconds(1) && took < .seconds(6), "the grace, then the call was cancelled: \(took)")
        let outcome = try? await waiting
        if case .success(let value)? = outcome { Issue.record("the wait answered as if it had finished: \(value)") }
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "the socket is removed")
        await connection.close()
    }

    @Test func aSecondDaemonOnTheSameSocketExits75() async throws {
        let first = try await DaemonProcess.started()
        let second = try DaemonProcess(directory: first.directory)
        #expect(try await second.exitStatus() == 75)
        // The exit can be seen before the last of stderr has been read from its pipe.
        let said = try await withDeadline(10, "the second daemon's message") { await second.stderr.next { $0.contains("already serving") } }
        #expect(said.contains("another assistantd is already serving \(first.socketPath)"))
        let connection = try await first.connect()
        #expect(try await connection.call("ping") == "pong")
        await first.signal(SIGTERM)
        #expect(try await first.exitStatus() == 0)
    }

    @Test func exitCodesForUsageConfigurationAndUncreatableSockets() async throws {
        let directory = TemporaryDirectory()
        let env = DaemonProcess.environment(directory)
        let usage = try await runCommand(Binaries.assistantd, ["--no-such-flag"], environment: env)
        #expect(usage.status == 64)
        let longPath = "/tmp/" + String(repeating: "x", count: 110) + "/d.sock"
        let tooLong = try await runCommand(Binaries.assistantd, ["--socket", longPath], environment: env)
        #expect(tooLong.status == 78)
        #expect(tooLong.stderr.contains("limit"))
        let blocker = directory.write("blocker", "a file where a directory should be")
        let cannot = try await runCommand(Binaries.assistantd, ["--socket", blocker + "/sub/d.sock"], environment: env)
        #expect(cannot.status == 73)
        let notSocket = directory.write("plain", "x")
        let wrongType = try await runCommand(Binaries.assistantd, ["--socket", notSocket], environment: env)
        #expect(wrongType.status == 73)
        let badConfig = directory.write("bad.toml", "timezone = \"Mars/Olympus\"\n")
        let config = try await runCommand(Binaries.assistantd, ["--config", badConfig], environment: env)
        #expect(config.status == 78)
        #expect(config.stderr.contains("bad.toml:1"))
    }

    @Test func checkConfigReportsFileLineAndReason() async throws {
        let directory = TemporaryDirectory()
        let env = DaemonProcess.environment(directory)
        let good = directory.write("good.toml", "timezone = \"Europe/Prague\"\n[notify.stdout]\nformat = \"json\"\nsurprise = 1\n")
        let ok = try await runCommand(Binaries.assistantd, ["--check-config", "--config", good], environment: env)
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("configuration OK"))
        #expect(ok.stderr.contains("good.toml:4: unknown key 'notify.stdout.surprise'"), "\(ok.stderr)")
        let syntax = directory.write("syntax.toml", "[socket]\nmode = \"0600\"\nmax_request_bytes = = 3\n")
        let broken = try await runCommand(Binaries.assistantd, ["--check-config", "--config", syntax], environment: env)
        #expect(broken.status == 78)
        #expect(broken.stderr.contains("syntax.toml:3"), "\(broken.stderr)")
        let type = directory.write("type.toml", "[socket]\n\nmax_request_bytes = \"big\"\n")
        let wrongType = try await runCommand(Binaries.assistantd, ["--check-config", "--config", type], environment: env)
        #expect(wrongType.status == 78)
        #expect(wrongType.stderr.contains("type.toml:3: 'socket.max_request_bytes' must be an integer"), "\(wrongType.stderr)")
        let missing = try await runCommand(Binaries.assistantd, ["--check-config", "--config", directory.file("none.toml")], environment: env)
        #expect(missing.status == 78)
        let defaults = try await runCommand(Binaries.assistantd, ["--check-config"], environment: env)
        #expect(defaults.status == 0)
        #expect(defaults.stdout.contains("embedded defaults"))
        // The push sinks' settings: an address that is not http(s), a topic ntfy would refuse.
        for (name, text, reason) in [
            ("server.toml", "[notify.ntfy]\ntopic = \"alerts\"\nserver = \"ntfy.example.org\"\n", "server.toml:3: 'notify.ntfy.server' must be"),
            ("topic.toml", "[notify.ntfy]\ntopic = \"my alerts\"\n", "topic.toml:2: 'notify.ntfy.topic' must be"),
            ("hook.toml", "[[notify.webhook]]\nname = \"home\"\nurl = \"ftp://x\"\n", "'notify.webhook[0].url' must be"),
        ] {
            let file = directory.write(name, text)
            let run = try await runCommand(Binaries.assistantd, ["--check-config", "--config", file], environment: env)
            #expect(run.status == 78, "\(name)")
            #expect(run.stderr.contains(reason), "\(run.stderr)")
        }
    }

    @Test func keyFileReadableByOthersExits78() async throws {
        let directory = TemporaryDirectory()
        let env = DaemonProcess.environment(directory)
        let key = (env["XDG_CONFIG_HOME"]! as NSString).appendingPathComponent("assistant/vault.key")
        try FileManager.default.createDirectory(atPath: (key as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: key, contents: Data(repeating: 1, count: 32), attributes: [.posixPermissions: 0o644])
        let result = try await runCommand(Binaries.assistantd, [], environment: env)
        #expect(result.status == 78)
        #expect(result.stderr.contains("chmod 600"))
    }

    /// The socket's folder is checked before anything is bound: a symbolic link, a folder others
    /// can write, or one another user owns (made first in /tmp) stops the start, naming it.
    @Test func aSocketFolderThatIsALinkOrWritableByOthersStopsTheStart() async throws {
        let directory = TemporaryDirectory()
        let env = DaemonProcess.environment(directory)
        let real = directory.directory("real")
        let link = directory.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let linked = try await runCommand(Binaries.assistantd, ["--socket", link + "/d.sock"], environment: env)
        #expect(linked.status == 73)
        #expect(linked.stderr.contains("the socket directory \(link) is a symbolic link"), "\(linked.stderr)")
        let shared = directory.directory("shared")
        chmod(shared, 0o777)
        let open = try await runCommand(Binaries.assistantd, ["--socket", shared + "/d.sock"], environment: env)
        #expect(open.status == 73)
        #expect(open.stderr.contains("the socket directory \(shared) can be written by its group or others (mode 777)"), "\(open.stderr)")
        #expect(!FileManager.default.fileExists(atPath: shared + "/d.sock"), "nothing was bound there")
        if getuid() == 0 {
            let theirs = directory.directory("theirs")
            chown(theirs, 65534, 65534)
            let foreign = try await runCommand(Binaries.assistantd, ["--socket", theirs + "/d.sock"], environment: env)
            #expect(foreign.status == 73)
            #expect(foreign.stderr.contains("the socket directory \(theirs) belongs to uid 65534"), "\(foreign.stderr)")
        }
    }

    /// assistantctl reads the server's uid before it sends anything: a daemon of another user
    /// (here one that would even admit root) gets no request, so no secret.
    @Test(.enabled(if: getuid() == 0 || Peers.isCI))
    func assistantctlRefusesAServerOfAnotherUser() async throws {
        try #require(getuid() == 0, "this test needs root to start the daemon under another uid")
        let daemon = try await DaemonProcess.started(config: "[socket]\nallow_uids = [0]\nmode = \"0666\"\n", runAs: 65534)
        var env = DaemonProcess.environment(TemporaryDirectory())
        env["ASSISTANT_SOCKET"] = daemon.socketPath
        let refused = try await runCommand(
            Binaries.assistantctl, ["vault", "set", "host/smtp/password"], environment: env, stdin: "hunter2-secret\n")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("runs as uid 65534, neither you (uid 0) nor root: nothing was sent to it"), "\(refused.stderr)")
        let direct = try await daemon.connect()
        #expect(try await direct.call("vault.list") == [], "the secret never reached the daemon")
        await direct.close()
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    @Test(.enabled(if: getuid() == 0 || Peers.isCI))
    func aPeerWithAnotherUIDIsRefusedWith32006() async throws {
        // The daemon runs as nobody; we connect as root. File permissions do not stop root, so
        // the refusal can only come from the SO_PEERCRED check.
        try #require(getuid() == 0, "this test needs root to start the daemon under another uid")
        let daemon = try await DaemonProcess.started(runAs: 65534)
        let client = try await RawLineClient(socketPath: daemon.socketPath)
        // The daemon may answer and hang up before our request is even written.
        try? await client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        let reply = try JSONValue.decode(try #require(try await client.readLine()))
        #expect(reply["error"]?["code"] == -32006)
        #expect(reply["id"] == .null)
        try await client.waitForClose()
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    @Test(.enabled(if: getuid() == 0 || Peers.isCI))
    func allowUIDsAdmitsAListedPeer() async throws {
        try #require(getuid() == 0)
        let daemon = try await DaemonProcess.started(config: "[socket]\nallow_uids = [0]\nmode = \"0666\"\n", runAs: 65534)
        let connection = try await daemon.connect()
        #expect(try await connection.call("ping") == "pong")
        // An allowed peer is not the owner: a file it names would be opened with the daemon's
        // rights, so its calls take no paths (an output, an import, an attachment).
        for (method, params, param): (String, JSONValue, String) in [
            ("logbook.export", ["path": "/tmp/peer-export.csv", "format": "csv"], "path"),
            ("tasks.import.ics", ["path": "/etc/hostname"], "path"),
            ("notifications.send", ["title": "x", "body": "y", "attachments": ["/etc/hostname"]], "attachments"),
        ] {
            guard case .failure(let error) = try await connection.callResult(method, params: params) else {
                Issue.record("\(method) took a path from an allowed peer")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == .string(param))
            #expect(error.message.contains("an allowed peer's calls take no paths"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/peer-export.csv"))
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    @Test(.enabled(if: getuid() == 0 || Peers.isCI))
    func allowGroupsAdmitsAMemberOfAListedGroup() async throws {
        try #require(getuid() == 0)
        // We connect as root, whose primary group is 0; the daemon runs as nobody.
        let daemon = try await DaemonProcess.started(config: "[socket]\nallow_groups = [\"0\"]\nmode = \"0660\"\n", runAs: 65534)
        let connection = try await daemon.connect()
        #expect(try await connection.call("ping") == "pong")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        // A group that does not exist is a configuration error, not a silent no-op.
        let directory = TemporaryDirectory()
        let config = directory.write("c.toml", "[socket]\nallow_groups = [\"no-such-group-xyz\"]\n")
        let unknown = try await runCommand(Binaries.assistantd, ["--config", config], environment: DaemonProcess.environment(directory))
        #expect(unknown.status == 78)
        #expect(unknown.stderr.contains("no-such-group-xyz"))
    }

    @Test func acknowledgedWritesSurviveKill9() async throws {
        let directory = TemporaryDirectory()
        let daemon = try await DaemonProcess.started(directory: directory)
        let connection = try await daemon.connect()
        let acknowledged = AcknowledgedWrites()
        let enough = AsyncStream<Void>.makeStream()
        let writer = Task {
            var i = 0
            defer { enough.continuation.finish() }
            while true {
                do {
                    _ = try await connection.call("vault.set", params: ["name": .string("host/w\(i)"), "secret": .string("v\(i)")])
                } catch {
                    return
                }
                await acknowledged.add("host/w\(i)")
                i += 1
                if i == 200 { enough.continuation.yield() }
            }
        }
        // Kill once 200 writes are acknowledged (or the writer stopped early, which fails below).
        let stream = enough.stream
        _ = try await withDeadline(60, "200 acknowledged writes") {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next() != nil
        }
        await daemon.signal(SIGKILL)
        await writer.value
        _ = try await daemon.exitStatus()
        let acked = await acknowledged.names
        #expect(acked.count >= 200)

        let restarted = try await DaemonProcess.started(directory: directory)
        let after = try await restarted.connect()
        let names = Set(try await after.call("vault.list", params: ["prefix": "host/w"]).arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
        #expect(acked.allSatisfy(names.contains), "every acknowledged write is present after kill -9")
        let database = (DaemonProcess.environment(directory)["XDG_DATA_HOME"]! as NSString).appendingPathComponent("assistant/assistant.sqlite")
        let check = try await DatabaseQueue(
            path: database,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }()
        ).read {
            try String.fetchOne($0, sql: "PRAGMA integrity_check")
        }
        #expect(check == "ok")
        await restarted.signal(SIGTERM)
        #expect(try await restarted.exitStatus() == 0)
    }

    @Test func sighupReloadsRoutingAndSinks() async throws {
        let directory = TemporaryDirectory()
        let daemon = try await DaemonProcess.started(directory: directory, config: "[notify.stdout]\nformat = \"text\"\n")
        let connection = try await daemon.connect()
        _ = try await connection.call("notifications.send", params: ["title": "before", "body": ""])
        let text = await daemon.stdout.next { $0.contains("before") }
        #expect(text.contains("INFO [host.manual] before"))
        let path = (DaemonProcess.environment(directory)["XDG_CONFIG_HOME"]! as NSString).appendingPathComponent("assistant/config.toml")
        try "[notify.stdout]\nformat = \"json\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        await daemon.signal(SIGHUP)
        _ = await daemon.stderr.next { $0.contains("configuration reloaded") }
        _ = try await connection.call("notifications.send", params: ["title": "after", "body": ""])
        let json = await daemon.stdout.next { $0.contains("after") }
        #expect(try JSONValue.decode(json)["title"] == "after")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    @Test func aCanarySecretNeverLeavesTheVault() async throws {
        let canary = "CANARY-\(UUID().uuidString)"
        let directory = TemporaryDirectory()
        let daemon = try await DaemonProcess.started(
            directory: directory, arguments: ["--log-level", "trace"], config: "[notify.stdout]\nformat = \"json\"\n")
        let connection = try await daemon.connect()
        var captured: [String] = []
        func keep(_ value: JSONValue) { captured.append(value.encodedString()) }
        keep(try await connection.call("vault.set", params: ["name": "host/canary", "secret": .string(canary)]))
        keep(try await connection.call("vault.list"))
        keep(try await connection.call("status"))
        // A caller that names the secret in its own text gets its text back as written (scrubbing
        // it would tell a guesser which guess was right), but no log or sink ever shows it.
        let sent = try await connection.call("notifications.send", params: ["title": .string("leak \(canary)?"), "body": .string(canary)])
        #expect(sent["title"] == .string("leak \(canary)?"))
        if case .failure(let error) = try await connection.callResult("help", params: ["method": .string(canary)]) {
            #expect(error.message.contains(canary), "its own text, as written")
        }
        let cli = try await runCommand(
            Binaries.assistantctl, ["vault", "set", "host/canary2"], environment: DaemonProcess.environment(directory), stdin: canary + "\n")
        #expect(cli.status == 0)
        _ = await daemon.stdout.next { $0.contains("leak") }
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        captured += daemon.stdout.lines + daemon.stderr.lines + [cli.stdout, cli.stderr]
        #expect(captured.count > 10)
        for text in captured { #expect(!text.contains(canary), "the canary leaked: \(text)") }
        #expect(daemon.stdout.lines.contains { $0.contains("leak «redacted»?") }, "the stdout sink scrubbed the notice")
    }
}

actor AcknowledgedWrites {
    var names: [String] = []
    var count: Int { names.count }
    func add(_ name: String) { names.append(name) }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(2))) struct DaemonKeySourceTests {
    @Test func aSystemdCredentialKeyIsUsedInsteadOfTheKeyFile() async throws {
        let directory = TemporaryDirectory()
        let credentials = directory.directory("credentials")
        _ = directory.write("credentials/vault.key", String(repeating: "ab", count: 32) + "\n", mode: 0o600)
        let daemon = try await DaemonProcess.started(directory: directory, extraEnvironment: ["CREDENTIALS_DIRECTORY": credentials])
        let connection = try await daemon.connect()
        _ = try await connection.call("vault.set", params: ["name": "host/a", "secret": "x"])
        let keyFile = (DaemonProcess.environment(directory)["XDG_CONFIG_HOME"]! as NSString).appendingPathComponent("assistant/vault.key")
        #expect(!FileManager.default.fileExists(atPath: keyFile), "no key file is created when systemd provides the key")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        // The same vault does not open with a different credential.
        _ = directory.write("credentials/vault.key", String(repeating: "cd", count: 32) + "\n", mode: 0o600)
        let env = DaemonProcess.environment(directory).merging(["CREDENTIALS_DIRECTORY": credentials]) { _, new in new }
        let mismatch = try await runCommand(Binaries.assistantd, [], environment: env)
        #expect(mismatch.status == 78)
        #expect(mismatch.stderr.contains("does not open this vault"))
    }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(2))) struct SocketActivationTests {
    @Test(.enabled(if: Peers.shouldRun(program: "/usr/bin/systemd-socket-activate")))
    func aSocketPassedBySystemdIsServedAndLeftInPlace() async throws {
        let directory = TemporaryDirectory()
        let socketPath = directory.file("activated.sock")
        let notify = try NotifyReceiverForTests(path: directory.file("notify"))
        var arguments = ["-l", socketPath]
        for (key, value) in DaemonProcess.environment(directory) { arguments += ["-E", "\(key)=\(value)"] }
        arguments += ["-E", "NOTIFY_SOCKET=\(notify.path)", Binaries.assistantd, "--socket", socketPath]
        let activator = try PeerProcess("/usr/bin/systemd-socket-activate", arguments)
        defer { activator.stop() }
        _ = try await withDeadline(20, "the activator listening") { await activator.errors.next { $0.contains("Listening on") } }
        // The first connection starts the daemon on the inherited socket.
        let connection = try await AssistantConnection.connect(socketPath: socketPath)
        #expect(try await connection.call("ping") == "pong")
        let status = try await connection.call("status")
        #expect(status["socket"] == .string(socketPath))
        _ = try await withDeadline(20, "readiness") { await notify.messages.next { $0 == "READY=1" } }
        await activator.signal(SIGTERM)
        #expect(try await withDeadline(20, "the activator's exit") { await activator.exitStatus() } == 0)
        #expect(FileManager.default.fileExists(atPath: socketPath), "an activated daemon leaves systemd's socket alone")
    }
}
