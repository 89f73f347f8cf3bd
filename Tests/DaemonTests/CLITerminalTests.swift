import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// `assistantctl` under a real pseudo-terminal (util-linux `script`), its width set with `stty`
/// as a terminal window sets it (no `COLUMNS`): the exact text of the views at 80 and 160
/// columns (and 20, where every line is cut), with colour off (`--no-color`) and on (a terminal
/// wants it).
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct CLITerminalTests {
    /// What `assistantctl ARGS` prints on a terminal `columns` wide (lines without the pty's `\r`).
    static func onTerminal(_ arguments: [String], columns: Int, environment: [String: String]) async throws -> String {
        var environment = environment
        environment["COLUMNS"] = nil
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm-256color"
        let quoted = ([Binaries.assistantctl] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let run = try await runCommand(
            "/usr/bin/script", ["-qec", "stty cols \(columns) rows 60; exec \(quoted)", "/dev/null"], environment: environment, stdin: "")
        #expect(run.status == 0, "\(arguments): \(run.stdout) \(run.stderr)")
        return run.stdout.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .newlines)
    }

    @Test func viewsAtEightyAndOneHundredSixtyColumnsWithAndWithoutColour() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await AssistantConnection.connect(socketPath: daemon.socketPath)
        let urgent = try await connection.call(
            "tasks.add", params: ["title": "Buy filament for the printer and a set of spare nozzles", "priority": 1, "tags": ["shop", "printer"]])
        let later = try await connection.call(
            "tasks.add", params: ["title": "Renew the aircraft insurance", "due": "2035-06-01", "category": "personal"])
        _ = try await connection.call(
            "logbook.aircraft.add",
            params: [
                "registration": "OK-SKA", "make": "Cessna", "model": "172", "variant": "S", "type_designator": "C172", "class_rating": "SEP(land)",
            ])
        for (out, into) in [("2026-03-01T08:00:00Z", "2026-03-01T09:05:00Z"), ("2026-03-02T08:00:00Z", "2026-03-02T10:30:00Z")] {
            _ = try await connection.call(
                "logbook.flights.add", params: ["dep": "LKPR", "arr": "LKTB", "out": .string(out), "in": .string(into), "aircraft": "OK-SKA"])
        }
        await connection.close()
        let environment = DaemonProcess.environment(daemon.directory)
        let ids = try [urgent, later].map { try #require($0["id"]?.stringValue) }
        let short = ViewRenderer.shortestUnique(ids)
        let (a, b) = (short[ids[0]]!, short[ids[1]]!)
        let pad = String(repeating: " ", count: a.count - 6)

        let wide = try await Self.onTerminal(["--no-color", "tasks.list", "when=all"], columns: 160, environment: environment)
        #expect(
            wide == """
                ID      \(pad)P  TITLE                                                    DUE         CATEGORY  TAGS
                \(b)     Renew the aircraft insurance                             1 Jun 2035  personal
                \(a)  1  Buy filament for the printer and a set of spare nozzles                        shop, printer
                """, "START, empty in every row, is left out")
        // 80 columns: the title gives way first (no optional column has to go).
        let narrow = try await Self.onTerminal(["--no-color", "tasks.list", "when=all"], columns: 80, environment: environment)
        #expect(
            narrow == """
                ID      \(pad)P  TITLE                             DUE         CATEGORY  TAGS
                \(b)     Renew the aircraft insurance      1 Jun 2035  personal
                \(a)  1  Buy filament for the printer an…                        shop, printer
                """)
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 80 })
        // Colour on a terminal: the priority-1 row bold; nothing else changes.
        let coloured = try await Self.onTerminal(["tasks.list", "when=all"], columns: 80, environment: environment)
        let lines = narrow.split(separator: "\n").map(String.init)
        #expect(coloured == [lines[0], lines[1], "\u{1B}[1m\(lines[2])\u{1B}[0m"].joined(separator: "\n"))

        let totals = """
            This period
            Flights           2
            FSTD sessions     0
            Total time        3:35
            PIC               3:35
            Co-pilot          0:00
            Dual              0:00
            Night             0:00
            IFR               0:00
            FSTD time         0:00
            Landings (day)    2
            Landings (night)  0

            Grand total
            Flights           2
            FSTD sessions     0
            Total time        3:35
            PIC               3:35
            Co-pilot          0:00
            Dual              0:00
            Night             0:00
            IFR               0:00
            FSTD time         0:00
            Landings (day)    2
            Landings (night)  0
            """
        for columns in [80, 160] {
            #expect(try await Self.onTerminal(["--no-color", "logbook.totals"], columns: columns, environment: environment) == totals)
        }
        let colouredTotals = try await Self.onTerminal(["logbook.totals"], columns: 80, environment: environment)
        #expect(colouredTotals.hasPrefix("\u{1B}[1mThis period\u{1B}[0m\nFlights           2\n"), "headings bold")

        // The agenda by day, with time ranges (two events added now, after the lists above).
        let more = try await AssistantConnection.connect(socketPath: daemon.socketPath)
        let checkride = try await more.call(
            "tasks.add", params: ["title": "Checkride", "kind": "event", "start": "2035-06-01 09:00", "duration_min": 90, "location": "LKTB"])
        let debrief = try await more.call(
            "tasks.add", params: ["title": "Debrief", "kind": "event", "start": "2035-06-02 14:00", "duration_min": 30])
        await more.close()
        let agendaArguments = ["--no-color", "tasks.agenda", "from=2035-06-01", "to=2035-06-03"]
        let agenda = try await Self.onTerminal(agendaArguments, columns: 80, environment: environment)
        let shown = try [later, checkride, debrief].map { try #require($0["id"]?.stringValue) }
        let agendaIDs = ViewRenderer.shortestUnique(shown)
        let (renew, check, debriefID) = (agendaIDs[shown[0]]!, agendaIDs[shown[1]]!, agendaIDs[shown[2]]!)
        #expect(
            agenda == """
                TIME         TITLE                         WHERE  CATEGORY  ID
                Fri 1 Jun
                all day      Renew the aircraft insurance         personal  \(renew)
                09:00–10:30  Checkride                     LKTB             \(check)

                Sat 2 Jun
                14:00–14:30  Debrief                                        \(debriefID)
                """, "\(agenda)")
        // The logbook's flights and currency, the plugins: exact at both widths (the summaries
        // shortened at 80); lapsed currency red with colour.
        let flights = """
            DATE        AIRCRAFT  FROM  TO    TOTAL  NIGHT  IFR   PIC   ID
            2 Mar 2026  OK-SKA    LKPR  LKTB  2:30   0:00   0:00  2:30  2
            1 Mar 2026  OK-SKA    LKPR  LKTB  1:05   0:00   0:00  1:05  1
            """
        for columns in [80, 160] {
            #expect(try await Self.onTerminal(["--no-color", "logbook.flights.list"], columns: columns, environment: environment) == flights)
        }
        let currency = try await Self.onTerminal(["logbook.currency", "at=2026-03-10"], columns: 80, environment: environment)
        #expect(
            currency == """
                GROUP      RULE              STATUS  VALID UNTIL  DAYS  REFERENCE
                \u{1B}[31mSEP(land)  passengers        lapsed                     FCL.060(b)(1)\u{1B}[0m
                \u{1B}[31mSEP(land)  night_passengers  lapsed                     FCL.060(b)(2)\u{1B}[0m
                """, "two landings in 90 days: passengers need three")
        let plugins80 = try await Self.onTerminal(["--no-color", "plugins.list"], columns: 80, environment: environment)
        #expect(
            plugins80 == """
                PLUGIN     STATE  VERSION  SUMMARY
                logbook    ready  1.0.0    EASA pilot logbook: flights, FSTD sessions, totals, …
                octoprint  ready  0.1.0    3D printers behind OctoPrint: every REST function
                tasks      ready  1.0.0    Tasks and events: recurrence, reminders by stdout an…
                stag       ready  1.0.0    IS/STAG: timetable, exam terms and registration, gra…
                kos        ready  0.1.0    CTU KOSapi: timetable by week parity, courses, resul…
                """)
        let plugins160 = try await Self.onTerminal(["--no-color", "plugins.list"], columns: 160, environment: environment)
        #expect(plugins160.split(separator: "\n").map { $0.prefix(36) } == plugins80.split(separator: "\n").map { $0.prefix(36) })
        #expect(plugins160.contains("ICS feeds, two-way CalDAV sync"), "whole summaries at 160: \(plugins160)")
        #expect(try await Self.onTerminal(["--no-color", "vault.list"], columns: 80, environment: environment) == "(none)")
        // jobs.list's times move with the clock: its columns and rows, not its times.
        let jobs = try await Self.onTerminal(["--no-color", "jobs.list"], columns: 80, environment: environment).split(separator: "\n")
        #expect(jobs.first?.hasPrefix("JOB  ") == true && jobs.first?.contains("  NEXT") == true, "\(jobs)")
        #expect(jobs.dropFirst().map { String($0.prefix(19)).trimmingCharacters(in: .whitespaces) }.contains("logbook.reminders"))
        // 20 columns: every line cut to fit, none wraps.
        for arguments in [["--no-color", "tasks.list", "when=all"], ["--no-color", "logbook.totals"], agendaArguments] {
            let tiny = try await Self.onTerminal(arguments, columns: 20, environment: environment)
            #expect(tiny.split(separator: "\n").allSatisfy { $0.count <= 20 }, "\(arguments): \(tiny)")
        }
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
