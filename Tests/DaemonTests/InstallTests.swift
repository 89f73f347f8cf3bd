import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// `scripts/install` and `scripts/uninstall` as a user runs them, and the installed daemon running
/// with nothing from the build tree. The tests install the binaries this suite built
/// (`--binaries`): the release build that `scripts/install` makes by default is the same code.
@Suite(.stopsTestHosts, .serialized)
struct InstallTests {
    static let root = Peers.packageRoot

    /// The environment of a user whose home is `directory`.
    static func userEnvironment(_ directory: TemporaryDirectory) -> [String: String] {
        [
            "HOME": directory.path, "XDG_CONFIG_HOME": directory.file("config"), "XDG_DATA_HOME": directory.file("data"),
            "PATH": "/usr/local/bin:/usr/bin:/bin", "USER": "tester",
        ]
    }

    static func install(_ directory: TemporaryDirectory, _ arguments: [String]) async throws -> CommandResult {
        try await runCommand(
            "/bin/bash", ["\(root)/scripts/install", "--binaries", Binaries.directory] + arguments,
            environment: userEnvironment(directory))
    }

    @Test func installPutsEveryFileInPlaceAndUninstallRemovesExactlyThose() async throws {
        let home = TemporaryDirectory()
        let prefix = home.file("prefix")
        let installed = try await Self.install(home, ["--prefix", prefix])
        #expect(installed.status == 0, "\(installed.stderr)")
        let expected = [
            "\(prefix)/bin/assistantd", "\(prefix)/bin/assistantctl", "\(prefix)/share/man/man1/assistantd.1",
            "\(prefix)/share/man/man1/assistantctl.1", "\(prefix)/share/bash-completion/completions/assistantctl",
            "\(prefix)/share/zsh/site-functions/_assistantctl", "\(prefix)/share/fish/vendor_completions.d/assistantctl.fish",
            "\(home.path)/config/systemd/user/assistantd.service", "\(home.path)/config/systemd/user/assistantd.socket",
        ]
        let manifest = try String(contentsOfFile: "\(prefix)/share/assistantd/installed-files", encoding: .utf8)
        #expect(manifest.split(separator: "\n").map(String.init).sorted() == expected.sorted())
        for file in expected {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) was not installed")
            #expect(installed.stdout.contains("  \(file)\n"), "the summary does not list \(file)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/assistantd"))
        // The unit runs the installed binary, not the template's placeholder.
        let service = try String(contentsOfFile: "\(home.path)/config/systemd/user/assistantd.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\(prefix)/bin/assistantd\n"))
        #expect(!service.contains("@BINDIR@"))
        // Completions come from assistantctl itself: each names its own shell's entry points.
        let bash = try String(contentsOfFile: "\(prefix)/share/bash-completion/completions/assistantctl", encoding: .utf8)
        #expect(bash.contains("complete -o filenames -F _assistantctl assistantctl"))
        let zsh = try String(contentsOfFile: "\(prefix)/share/zsh/site-functions/_assistantctl", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef assistantctl"))
        let fish = try String(contentsOfFile: "\(prefix)/share/fish/vendor_completions.d/assistantctl.fish", encoding: .utf8)
        #expect(fish.contains("\ncomplete -c 'assistantctl' -f\n"))
        // The next two commands.
        #expect(installed.stdout.contains("systemctl --user daemon-reload && systemctl --user enable --now assistantd.socket\n"))
        #expect(installed.stdout.contains("\(prefix)/bin/assistantctl status\n"))

        // The user's data and config are not the installer's to remove.
        let data = home.directory("data/assistant")
        home.directory("config/assistant")
        let keep = home.write("data/assistant/assistant.sqlite", "data")
        let config = home.write("config/assistant/config.toml", "timezone = \"UTC\"\n")
        let removed = try await runCommand(
            "/bin/bash", ["\(Self.root)/scripts/uninstall", "--prefix", prefix], environment: Self.userEnvironment(home))
        #expect(removed.status == 0, "\(removed.stderr)")
        for file in expected { #expect(!FileManager.default.fileExists(atPath: file), "\(file) is still there") }
        #expect(!FileManager.default.fileExists(atPath: "\(prefix)/share/assistantd/installed-files"))
        #expect(FileManager.default.fileExists(atPath: keep) && FileManager.default.fileExists(atPath: config))
        #expect(FileManager.default.fileExists(atPath: data))
        // A second uninstall says there is nothing to remove.
        let again = try await runCommand(
            "/bin/bash", ["\(Self.root)/scripts/uninstall", "--prefix", prefix], environment: Self.userEnvironment(home))
        #expect(again.status == 66)
        #expect(again.stderr.contains("nothing installed under \(prefix)"))
    }

    @Test func installRefusesAnUnknownOptionAndMissingBinaries() async throws {
        let home = TemporaryDirectory()
        let unknown = try await Self.install(home, ["--prefix", home.file("p"), "--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option '--frobnicate'"))
        let missing = try await runCommand(
            "/bin/bash", ["\(Self.root)/scripts/install", "--binaries", home.directory("empty"), "--prefix", home.file("p")],
            environment: Self.userEnvironment(home))
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("\(home.file("empty"))/assistantd is missing"))
        #expect(!FileManager.default.fileExists(atPath: home.file("p/bin")), "nothing is installed when a binary is missing")
    }

    /// What `scripts/install` built and installed, when scripts/test ran it before the suite
    /// (`ASSISTANT_INSTALLED_PREFIX`): the release build with the Swift runtime linked in. CI
    /// always has it; elsewhere the suite's own binaries are installed instead.
    static let installedPrefix: String? = ProcessInfo.processInfo.environment["ASSISTANT_INSTALLED_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }

    /// The prefix that holds the installed programs: scripts/test's, or one this test installs now.
    static func installedPrograms(_ home: TemporaryDirectory) async throws -> String {
        if let prefix = installedPrefix { return prefix }
        try #require(!Peers.isCI, "CI runs scripts/test, which installs with scripts/install first (ASSISTANT_INSTALLED_PREFIX)")
        let prefix = home.file("prefix")
        let installed = try await install(home, ["--prefix", prefix])
        try #require(installed.status == 0, "\(installed.stderr)")
        return prefix
    }

    /// The installed programs depend on no library of the Swift toolchain: only on the system's
    /// (libcurl among them, for assistantctl; see Package.swift).
    @Test(.enabled(if: installedPrefix != nil || Peers.isCI))
    func theInstalledProgramsNeedNoSwiftToolchain() async throws {
        let home = TemporaryDirectory()
        let prefix = try await Self.installedPrograms(home)
        for program in ["assistantd", "assistantctl"] {
            let linked = try await runCommand("/usr/bin/ldd", ["\(prefix)/bin/\(program)"], environment: nil)
            #expect(linked.status == 0, "\(linked.stderr)")
            let libraries = linked.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(libraries.count > 2, "ldd listed nothing for \(program): \(linked.stdout)")
            #expect(libraries.filter { $0.contains("libswift") || $0.contains("libFoundation") || $0.contains("/opt/swift") } == [])
            #expect(libraries.filter { $0.contains("not found") } == [])
        }
        let ctl = try await runCommand("/usr/bin/ldd", ["\(prefix)/bin/assistantctl"], environment: nil)
        #expect(ctl.stdout.contains("libcurl.so.4 => "), "assistantctl links the system's libcurl: \(ctl.stdout)")
    }

    /// The installed copy, run as another user, answers `ping` and a logbook command that needs
    /// the airport table, and the installed `assistantctl mcp`, run as that user too, completes
    /// an MCP `initialize` with it. Both run from copies in that user's own folder: nothing is
    /// read from where they were built (a fresh clone in a 0700 folder, where that user cannot
    /// reach the build tree, passes too).
    @Test(.enabled(if: getuid() == 0 || Peers.isCI))
    func theInstalledDaemonRunsAsAnotherUserWithoutTheBuildTree() async throws {
        try #require(getuid() == 0, "this test needs root to start the daemon under another uid")
        let home = TemporaryDirectory()
        let prefix = try await Self.installedPrograms(home)
        // No resource bundle is looked up any more (SwiftPM's accessor names it in the binary).
        let binary = try Data(contentsOf: URL(fileURLWithPath: "\(prefix)/bin/assistantd"))
        #expect(binary.range(of: Data("_Logbook.resources".utf8)) == nil)

        let directory = TemporaryDirectory()
        let ctl = directory.file("bin/assistantctl")
        try FileManager.default.createDirectory(atPath: directory.file("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(prefix)/bin/assistantctl", toPath: ctl)
        let nobody: uid_t = 65534
        let daemon = try await DaemonProcess.started(
            directory: directory, config: "[socket]\nallow_uids = [0]\nmode = \"0666\"\n", runAs: nobody,
            executable: "\(prefix)/bin/assistantd")
        let connection = try await daemon.connect()
        #expect(try await connection.call("ping") == "pong")
        let found = try await connection.call("logbook.airports.search", params: ["query": "LKPR"])
        #expect(found["airports"]?.arrayValue?.first?["icao"] == "LKPR")
        #expect(found["airports"]?.arrayValue?.first?["tz"] == "Europe/Prague")
        let byIATA = try await connection.call("logbook.airports.search", params: ["query": "PRG"])
        #expect(byIATA["airports"]?.arrayValue?.first?["icao"] == "LKPR")
        let status = try await connection.call("status")
        let logbook = status["plugins"]?.arrayValue?.first { $0["id"] == "logbook" }
        #expect(logbook?["state"] == "ready")

        let initialize =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","ver"#
            + #"sion":"1"}}}"#
        let mcp = try await runCommand(
            "/usr/bin/setpriv", ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", ctl, "mcp", "--socket", daemon.socketPath],
            environment: DaemonProcess.environment(directory), stdin: initialize + "\n")
        #expect(mcp.status == 0, "\(mcp.stderr)")
        let answer = try JSONValue.decode(String(mcp.stdout.split(separator: "\n").first ?? ""))
        #expect(answer["id"] == 1)
        #expect(answer["result"]?["serverInfo"]?["name"] == "assistantd", "\(mcp.stdout)")
        #expect(answer["result"]?["protocolVersion"] == "2025-06-18")
        #expect(answer["result"]?["capabilities"]?["tools"] != nil)
        await connection.close()
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    @Test(.enabled(if: Peers.shouldRun(program: "/usr/bin/systemd-analyze")))
    func systemdAnalyzeVerifyPassesOnEveryInstalledUnit() async throws {
        let home = TemporaryDirectory()
        let prefix = home.file("prefix")
        let installed = try await Self.install(home, ["--prefix", prefix])
        try #require(installed.status == 0, "\(installed.stderr)")
        let units = ["\(home.path)/config/systemd/user/assistantd.service", "\(home.path)/config/systemd/user/assistantd.socket"]
        let user = try await runCommand(
            "/usr/bin/systemd-analyze", ["verify", "--man=no"] + units, environment: Self.userEnvironment(home))
        #expect(user.status == 0, "\(user.stdout)\(user.stderr)")
        #expect(user.stderr == "", "systemd-analyze warned: \(user.stderr)")

        // The system unit, with the same substitution `--system` makes (that mode also creates a
        // system user, which a test must not do to the machine).
        let template = try String(contentsOfFile: "\(Self.root)/contrib/systemd/system/assistantd.service", encoding: .utf8)
        let system = home.write("assistantd.service", template.replacingOccurrences(of: "@BINDIR@", with: "\(prefix)/bin"))
        let verified = try await runCommand(
            "/usr/bin/systemd-analyze", ["verify", "--man=no", system], environment: Self.userEnvironment(home))
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        let unexpected = verified.stderr.split(separator: "\n").filter {
            !$0.contains("Failed to resolve user 'assistant'") && !$0.contains("Failed to resolve group 'assistant'")
        }
        #expect(unexpected == [], "systemd-analyze warned: \(verified.stderr)")
    }

    /// `MemoryDenyWriteExecute=yes` in the system unit: the kernel's own form of that rule
    /// (prctl PR_SET_MDWE, kept across exec) applied to the daemon, which then serves calls that
    /// touch Foundation, SQLite, the vault and the airport table.
    @Test func theDaemonRunsWithWriteExecuteMemoryDenied() async throws {
        let directory = TemporaryDirectory()
        let wrapper = directory.write(
            "mdwe.py",
            """
            import ctypes, os, sys
            PR_SET_MDWE, PR_GET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 66, 1
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
                sys.exit("prctl(PR_SET_MDWE) failed: errno %d" % ctypes.get_errno())
            assert libc.prctl(PR_GET_MDWE, 0, 0, 0, 0) == PR_MDWE_REFUSE_EXEC_GAIN
            os.execv(sys.argv[1], sys.argv[1:])
            """)
        let daemon = try await DaemonProcess.started(directory: directory, wrapper: [Peers.python, wrapper])
        let connection = try await daemon.connect()
        #expect(try await connection.call("ping") == "pong")
        let found = try await connection.call("logbook.airports.search", params: ["query": "EGLL"])
        #expect(found["airports"]?.arrayValue?.first?["icao"] == "EGLL")
        _ = try await connection.call(
            "logbook.aircraft.add", params: ["registration": "OK-ABC", "make": "Cessna", "model": "172", "type_designator": "C172"])
        #expect(try await connection.call("logbook.aircraft.list")["aircraft"]?.arrayValue?.first?["registration"] == "OK-ABC")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }
}
