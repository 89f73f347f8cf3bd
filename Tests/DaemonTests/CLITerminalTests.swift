import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// `assistantctl` under a real pseudo-terminal (util-linux `script`), its width set with `stty`
/// as a terminal window sets it (no `COLUMNS`): the exact text of the views at 80 and 160
/// columns, with colour off (`--no-color`) and on (a terminal wants it).
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
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
