import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// Issue 29: the generated reference pages are current and say what `help` says, the links
/// between pages resolve, and the examples of the hand-written pages run as documented.
@Suite(.stopsTestHosts, .timeLimit(.minutes(5))) struct DocumentationTests {
    static let docs = "\(Peers.packageRoot)/docs"

    func ctl(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> CommandResult {
        try await runCommand(Binaries.assistantctl, arguments, environment: DaemonProcess.environment(daemon.directory))
    }

    /// `UPDATE_DOCS=1` writes the pages instead (what scripts/docs does).
    @Test func theCommittedReferencePagesAreWhatTheDeclarationsWrite() async throws {
        let daemon = try await DaemonProcess.started()
        let update = ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1"
        let run = try await ctl(daemon, ["docs", "--output", Self.docs] + (update ? [] : ["--check"]))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("generated pages are current\n") || update, "\(run.stdout)")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    @Test func aPageEditedByHandMissingOrLeftOverIsCaughtAndRewritten() async throws {
        let daemon = try await DaemonProcess.started()
        let copy = daemon.directory.directory("docs-copy")
        try FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: Self.docs, toPath: copy)
        let tasksPage = "\(copy)/plugins/tasks.md"
        try (try String(contentsOfFile: tasksPage, encoding: .utf8) + "\nA line added by hand.\n").write(
            toFile: tasksPage, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: "\(copy)/host.md")
        try "# gone\n".write(toFile: "\(copy)/plugins/gone.md", atomically: true, encoding: .utf8)

        let check = try await ctl(daemon, ["docs", "--output", copy, "--check"])
        #expect(check.status == 1)
        #expect(
            check.stderr
                == "assistantctl: these generated pages differ from the declarations: \(copy)/host.md, \(copy)/plugins/tasks.md, "
                + "\(copy)/plugins/gone.md\nRun scripts/docs to write them.\n")
        let write = try await ctl(daemon, ["docs", "--output", copy])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout == "wrote host.md, plugins/tasks.md, plugins/gone.md\n")
        #expect(try String(contentsOfFile: tasksPage, encoding: .utf8) == String(contentsOfFile: "\(Self.docs)/plugins/tasks.md", encoding: .utf8))
        #expect(!FileManager.default.fileExists(atPath: "\(copy)/plugins/gone.md"))
        #expect(try await ctl(daemon, ["docs", "--output", copy, "--check"]).status == 0)
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// Every method's page shows exactly what `assistantctl help METHOD` prints.
    @Test func helpAndTheReferencePagesSayTheSame() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await daemon.connect()
        let methods = try #require(try await connection.call("help")["methods"]?.arrayValue)
        var pages: [String: String] = [:]
        var shown = 0
        for entry in methods {
            let name = try #require(entry["name"]?.stringValue)
            let plugin = try #require(entry["plugin"]?.stringValue)
            let path = plugin == "host" ? "\(Self.docs)/host.md" : "\(Self.docs)/plugins/\(plugin).md"
            if pages[path] == nil { pages[path] = try String(contentsOfFile: path, encoding: .utf8) }
            let help = MethodHelp.text(try await connection.call("help", params: ["method": .string(name)]))
            #expect(pages[path]!.contains("### `\(name)`\n\n```text\n\(help)\n```\n"), "\(path) shows \(name) as help does")
            shown += 1
        }
        await connection.close()
        #expect(shown == methods.count && shown > 200)
        // And the command itself prints that text (one method per page).
        for name in ["ping", "tasks.add", "logbook.flights.add", "stag.exams", "kos.timetable", "octoprint.bed.target"] {
            let printed = try await ctl(daemon, ["help", "--human", name])
            #expect(printed.status == 0)
            let page = try #require(pages.values.first { $0.contains("### `\(name)`\n") })
            #expect(page.contains("```text\n\(printed.stdout)```\n"), "\(name): help prints the page's text")
        }
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    @Test func linksBetweenPagesResolve() throws {
        #expect(DocLinks.broken() == [])
        #expect(DocLinks.pages().count >= 14, "README, CONTRIBUTING, Benchmarks and docs/ (\(DocLinks.pages()))")
        // The check can fail: a missing page and a missing heading are both caught.
        let scratch = TemporaryDirectory()
        _ = scratch.write("README.md", "See [the protocol](docs/protocol.md) and [limits](#limits), [web](https://example.org).\n\n## Limit\n")
        #expect(
            DocLinks.broken(root: scratch.path, pages: ["README.md"]) == [
                "README.md: docs/protocol.md (no file docs/protocol.md)", "README.md: #limits (no heading #limits in README.md)",
            ])
    }

    @Test func theExamplePatternMatchesWhatItDescribesOnly() {
        #expect(DocExamples.matches(["added … Buy milk"], ["added 3f2a9c Buy milk"]))
        #expect(!DocExamples.matches(["added … Buy milk"], ["added 3f2a9c Buy bread"]))
        #expect(DocExamples.matches(["ID  TITLE", "…"], ["ID  TITLE", "a", "b"]))
        #expect(DocExamples.matches(["ID  TITLE", "…", "end"], ["ID  TITLE", "end"]))
        #expect(!DocExamples.matches(["ID  TITLE"], ["ID  TITLE", "more"]))
        let parsed = DocExamples.parse("x\n```console\n$ assistantctl ping\npong\n\n$ assistantctl nope  # exit 1\n```\n", file: "f.md")
        #expect(parsed.map(\.command) == ["assistantctl ping", "assistantctl nope"])
        #expect(parsed.map(\.expected) == [["pong"], []])
        #expect(parsed.map(\.exitCode) == [0, 1])
        #expect(parsed.map(\.line) == [3, 6])
    }

    /// The console examples of the hand-written pages that need no remote service, each page on
    /// a daemon of its own, in order (a page's later examples build on its earlier ones).
    @Test func theHandWrittenExamplesRunAsDocumented() async throws {
        let examples = try DocExamples.examples(tagged: nil)
        #expect(examples.count >= 20, "README and docs/ show examples (\(examples.count))")
        var failures: [String] = []
        for file in Set(examples.map(\.file)).sorted() {
            let daemon = try await DaemonProcess.started(config: "timezone = \"Europe/Prague\"\n")
            let work = daemon.directory.directory("work")
            failures += try await DocExamples.run(
                examples.filter { $0.file == file }, environment: DaemonProcess.environment(daemon.directory), workingDirectory: work)
            await daemon.signal(SIGTERM)
            _ = try await daemon.exitStatus()
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// Every declared example (the generated pages show them) is accepted as written: run by the
    /// real assistantctl, none is a usage error (64) or a parameter the daemon refuses (-32602).
    /// The daemon has no accounts or printers, so most end at "no account" or "not found";
    /// what is checked is that a reader copying the example gets past the parameters.
    @Test func everyDeclaredExampleIsAcceptedAsWritten() async throws {
        let daemon = try await Self.daemonForExamples()
        let connection = try await daemon.connect()
        let methods = try #require(try await connection.call("help")["methods"]?.arrayValue)
        var examples: [(String, String)] = []
        for entry in methods {
            let name = try #require(entry["name"]?.stringValue)
            let help = try await connection.call("help", params: ["method": .string(name)])
            if let example = help["example"]?.stringValue { examples.append((name, example)) }
        }
        await connection.close()
        #expect(examples.count > 130, "the methods' examples (\(examples.count) of \(methods.count))")
        for (name, example) in examples { #expect(example.hasPrefix("assistantctl "), "\(name): \(example)") }
        // `assistantctl watch` streams until it is stopped; what it subscribes to is held by the
        // subscribe tests.
        let refused = try await Self.refusals(examples.map(\.1).filter { !$0.hasPrefix("assistantctl watch") }, daemon)
        #expect(refused == [])
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// The hand-written examples that need the reader's own accounts, printer or files
    /// (```` ```console accepted ````) are accepted as written, as the declared ones are.
    @Test func theExamplesThatNeedYourAccountsAreAcceptedAsWritten() async throws {
        let examples = try DocExamples.examples(tagged: "accepted")
        #expect(examples.count >= 40, "the plugins' tours (\(examples.count))")
        let daemon = try await Self.daemonForExamples()
        let refused = try await Self.refusals(examples.map(\.command), daemon)
        #expect(refused == [])
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// What the examples assume is set up: mail (to a program that takes it and does nothing),
    /// an ntfy sink (on the discard port), the files they name.
    static func daemonForExamples() async throws -> DaemonProcess {
        let daemon = try await DaemonProcess.started(
            config: """
                [notify.mail]
                enabled = true
                sendmail_path = "/bin/true"
                to = ["me@example.org"]
                [notify.ntfy]
                server = "http://127.0.0.1:9"
                topic = "doc-examples"
                """)
        _ = daemon.directory.directory("examples")
        _ = daemon.directory.write("examples/benchy.gcode", "G28\n")
        _ = daemon.directory.directory("examples/frames")
        return daemon
    }

    /// Each command run through bash in the examples folder (a secret on standard input): the
    /// ones refused as written.
    static func refusals(_ commands: [String], _ daemon: DaemonProcess) async throws -> [String] {
        var environment = DaemonProcess.environment(daemon.directory)
        environment["PATH"] = "\(Binaries.directory):/usr/bin:/bin"
        var refused: [String] = []
        for written in commands {
            // Nothing a test starts may reach beyond this machine: every address an example
            // names (a printer, a CalDAV server, a university) becomes the discard port here.
            let command = written.replacingOccurrences(
                of: #"(url|base_url|server)=https?://[^ ']+"#, with: "$1=http://127.0.0.1:9/", options: .regularExpression)
            // A command that waits (for a browser, a printer) past its parameters has been
            // accepted: after 5 s it is stopped (`timeout`'s exit 124) and counts as accepted.
            let run = try await runCommand(
                "/usr/bin/timeout", ["5", "/bin/bash", "-c", command], environment: environment, stdin: "example-secret\n",
                currentDirectory: daemon.directory.file("examples"))
            if run.status == 64 || run.stderr.contains("error -32601") || refusesItsOwnParameter(command, run.stderr) {
                refused.append("\(written): exit \(run.status) \(run.stderr)")
            }
        }
        return refused
    }

    /// A -32602 about a parameter the example gives: the example is wrong. One about a
    /// parameter it leaves out (`account` when no account is set up) is the daemon's set-up.
    static func refusesItsOwnParameter(_ example: String, _ stderr: String) -> Bool {
        guard let range = stderr.range(of: "error -32602: Invalid params: '") else { return false }
        let param = stderr[range.upperBound...].prefix { $0 != "'" }
        return example.contains(" \(param)=") || stderr.contains("'\(param)' is required")
    }
}
