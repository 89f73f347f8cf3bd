import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// What a person reads at a terminal (a real pseudo-terminal, 80 and 100 columns): a change says
/// what it did in a line, one record is a card, `status` is its view, and a typo gets "did you
/// mean". `-o wide` and a pipe keep the whole record.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct CLIShortAnswerTests {
    static func onTerminal(_ arguments: [String], columns: Int, environment: [String: String], status: Int32 = 0) async throws -> String {
        var environment = environment
        environment["COLUMNS"] = nil
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm-256color"
        let quoted = ([Binaries.assistantctl, "--no-color"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let run = try await runCommand(
            "/usr/bin/script", ["-qec", "stty cols \(columns) rows 60; exec \(quoted)", "/dev/null"], environment: environment, stdin: "")
        #expect(run.status == status, "\(arguments): \(run.stdout) \(run.stderr)")
        return run.stdout.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .newlines)
    }

    @Test func aWriteSaysWhatItDidAndARecordIsACard() async throws {
        let daemon = try await DaemonProcess.started()
        let environment = DaemonProcess.environment(daemon.directory)
        for columns in [80, 100] {
            let added = try await Self.onTerminal(
                [
                    "tasks.add", "title=Linear algebra", "kind=event", "start=2035-01-08 10:00", "duration_min=90",
                    "rrule=FREQ=WEEKLY;BYDAY=MO",
                ], columns: columns, environment: environment)
            let said = try #require(added.wholeMatch(of: /Added ([0-9a-f]{6}) (.*)/), "one line: \(added)")
            #expect(said.output.2 == "“Linear algebra”: Mon 8 Jan 2035 10:00–11:30, every Monday", "\(added)")
            let id = String(said.output.1)
            // The card of what was added: the fields a person reads, bookkeeping left out.
            let connection = try await AssistantConnection.connect(socketPath: daemon.socketPath)
            let full = try await connection.call("tasks.list", params: ["when": "all"])
            await connection.close()
            let wholeID = try #require(full["tasks"]?.arrayValue?.compactMap { $0["id"]?.stringValue }.first { $0.hasPrefix(id) })
            let card = try await Self.onTerminal(["tasks.get", "id=\(wholeID)"], columns: columns, environment: environment)
            #expect(
                card == """
                    Title    Linear algebra
                    Id       \(wholeID)
                    Kind     event
                    Status   needs-action
                    Starts   8 Jan 2035 10:00
                    Ends     8 Jan 2035 11:30
                    Repeats  every Monday

                    Next
                    Starts   8 Jan 2035 10:00
                    """, "\(card)")
            #expect(!card.contains("created") && !card.contains("read_only") && !card.contains("_local"))
            // -o wide: the whole record as before.
            let wide = try await Self.onTerminal(["tasks.get", "id=\(wholeID)", "-o", "wide"], columns: columns, environment: environment)
            #expect(wide.contains("start_local") && wide.contains("modified"), "\(wide.prefix(400))")
            let deleted = try await Self.onTerminal(["tasks.delete", "id=\(wholeID)"], columns: columns, environment: environment)
            #expect(deleted == "Deleted \(id); tasks.restore brings it back within 30 days", "\(deleted)")
            // A repeating to-do completed moves on, and says where to.
            let thesis = try await Self.onTerminal(
                ["tasks.add", "title=Hand in the thesis", "due=2035-01-08", "rrule=FREQ=WEEKLY"], columns: columns, environment: environment)
            let thesisAdded = /Added ([0-9a-f]{6}) “Hand in the thesis”, due Mon 8 Jan 2035, weekly/
            let thesisID = try #require(thesis.wholeMatch(of: thesisAdded), "\(thesis)")
                .output.1
            let completed = try await Self.onTerminal(["tasks.complete", "id=\(thesisID)"], columns: columns, environment: environment)
            #expect(completed == "Completed \(thesisID) “Hand in the thesis” (next due Mon 15 Jan 2035)", "\(completed)")
        }
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    @Test func statusIsItsViewAndATypoGetsDidYouMean() async throws {
        let daemon = try await DaemonProcess.started()
        let environment = DaemonProcess.environment(daemon.directory)
        for columns in [80, 100] {
            let status = try await Self.onTerminal(["status"], columns: columns, environment: environment)
            let lines = status.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.allSatisfy { $0.count <= columns }, "fits \(columns) columns: \(status)")
            // The lines that change from run to run (the time up, the paths) by their label only.
            let steady = lines.map { line in
                ["Up ", "Socket ", "Database ", "Calls running "].first { line.hasPrefix($0) }.map { String($0.dropLast()) } ?? line
            }
            #expect(
                steady.joined(separator: "\n") == """
                    Version          0.1.0
                    Up
                    Time zone        Etc/UTC
                    Socket
                    Database
                    Vault locked     no
                    Connections      1
                    Calls running
                    Notices to       stdout
                    Outbox           0
                    Dropped notices  0
                    Jobs             13

                    PLUGIN     STATE
                    logbook    ready
                    octoprint  ready
                    tasks      ready
                    stag       ready
                    kos        ready
                    """, "\(status)")
            let typo = try await Self.onTerminal(["tasks.lst"], columns: columns, environment: environment, status: 1)
            #expect(
                typo == """
                    assistantctl: error -32601: Method not found: 'tasks.lst'; did you mean tasks.list?
                    run 'assistantctl help' for the list of methods
                    """, "\(typo)")
            let command = try await Self.onTerminal(["vualt"], columns: columns, environment: environment, status: 1)
            #expect(command == "assistantctl: no method or command 'vualt'; did you mean 'assistantctl vault'?")
            let choice = try await Self.onTerminal(["tasks.list", "when=tomorow"], columns: columns, environment: environment, status: 1)
            #expect(
                choice
                    == "assistantctl: error -32602: Invalid params: 'when' must be one of today, overdue, upcoming, all, got 'tomorow'; "
                    + "did you mean today?")
        }
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// One write of each other plugin, as a person types it: the line it says, nothing else.
    @Test func eachPluginsWriteSaysItInALine() async throws {
        let daemon = try await DaemonProcess.started()
        let environment = DaemonProcess.environment(daemon.directory)
        let aircraft = try await Self.onTerminal(
            [
                "logbook.aircraft.add", "registration=OK-SKA", "make=Cessna", "model=172", "variant=S", "type_designator=C172",
                "class_rating=SEP(land)",
            ],
            columns: 80, environment: environment)
        #expect(aircraft == "Added aircraft OK-SKA: Cessna 172 S (C172), rating SEP(land)", "\(aircraft)")
        for (columns, day) in [(80, "01"), (100, "02")] {
            let logged = try await Self.onTerminal(
                ["logbook.flights.add", "aircraft=OK-SKA", "dep=LKPR", "arr=LKTB", "out=2026-03-\(day)T08:00:00Z", "in=2026-03-\(day)T09:05:00Z"],
                columns: columns,
                environment: environment)
            let flight = day == "01" ? "1 on Sun 1" : "2 on Mon 2"
            #expect(logged == "Logged flight \(flight) Mar 2026: LKPR → LKTB in OK-SKA, 1:05 (PIC 1:05, night 0:00)", "\(logged)")
            // Port 9 (discard): nothing is contacted until the browser comes back; the address is whole.
            let login = try await Self.onTerminal(
                ["stag.login", "base_url=http://127.0.0.1:9", "account=lab"], columns: columns, environment: environment)
            let lines = login.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(login)")
            #expect(lines.first == "To log in to STAG as lab, open this address in a browser on this machine within 600 s:")
            #expect(lines.last?.wholeMatch(of: /http:\/\/127\.0\.0\.1:9\/ws\/login\?originalURL=\S+&longTicket=1/) != nil, "\(login)")
        }
        // KOS against its faithful fake (the secret typed on standard input, as a person pipes it).
        let fake = try PeerProcess(Peers.python, [Peers.script("kos_fake.py")])
        let port = try await fake.announcedPort("the fake OAuth server")
        var withColumns = environment
        withColumns["COLUMNS"] = "80"
        let setup = try await runCommand(
            Binaries.assistantctl,
            ["-H", "kos.setup", "client_id=assistant-app", "auth_url=http://127.0.0.1:\(port)", "api_url=http://127.0.0.1:\(port)/api/3"],
            environment: withColumns, stdin: "app-secret-123\n")
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(setup.stdout == "Checked and saved the KOS application assistant-app\n", "\(setup.stdout)")
        #expect(!setup.stdout.contains("app-secret-123"))
        fake.stop()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    @Test(.enabled(if: Peers.shouldRun(program: OctoPrintPeer.executable)))
    func addingAPrinterSaysWhatWasFound() async throws {
        let octoprint = try await OctoPrintPeer()
        defer { octoprint.stop() }
        let daemon = try await DaemonProcess.started()
        var environment = DaemonProcess.environment(daemon.directory)
        environment["COLUMNS"] = "100"
        let added = try await runCommand(
            Binaries.assistantctl, ["-H", "octoprint.printers.add", "name=mk4", "url=\(octoprint.url)"], environment: environment,
            stdin: octoprint.apiKey + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        let line = added.stdout.trimmingCharacters(in: .newlines)
        #expect(line.wholeMatch(of: /Added printer mk4: OctoPrint [0-9.]+\S* at http:\/\/127\.0\.0\.1:[0-9]+/) != nil, "\(line)")
        #expect(!added.stdout.contains(octoprint.apiKey))
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
