import AssistantClient
import Foundation
import Testing

/// The views for objects (labelled fields: a printer's status, the daemon's) and for timetables
/// (a week grid by day and hour), as exact text at a given width, zone and moment.
struct ViewKindsTests {
    static let zone = TimeZone(identifier: "Europe/Prague")!
    /// Thursday 26 November 2026, 13:00 in Prague.
    static let now = ISO8601.date("2026-11-26T12:00:00Z")!

    func render(_ view: ResultView, _ value: JSONValue, width: Int, colour: Bool = false) -> String {
        ViewRenderer(view: view, width: width, zone: Self.zone, now: Self.now, colour: colour).render(value) ?? "(generic)"
    }

    static let printerView = ResultView(fields: [
        .init("printer", "Printer"), .init("state", "State"), .init("job.file.name", "File"), .init("progress.completion", "Progress", .bar),
        .init("progress.printTimeLeft", "Time left", .seconds), .init("progress.printTime", "Printing for", .seconds),
        .init("temperatures", "Temperatures", .temperatures), .init("connected", "Connected", .flag),
    ])

    static let printing: JSONValue = [
        "printer": "mk4", "state": "Printing", "connected": true, "job": ["file": ["name": "benchy_0.2mm_PLA.gcode"]],
        "progress": ["completion": 42.4, "printTimeLeft": 3_905, "printTime": 2_830],
        "temperatures": ["tool0": ["actual": 214.96, "target": 215.0, "offset": 0], "bed": ["actual": 60.0, "target": 60]],
    ]

    @Test func aPrintersStatusReadsAsLabelledFields() {
        #expect(
            render(Self.printerView, Self.printing, width: 80) == """
                Printer       mk4
                State         Printing
                File          benchy_0.2mm_PLA.gcode
                Progress      ████████░░░░░░░░░░░░  42 %
                Time left     1 h 05 min
                Printing for  47 min
                Temperatures  bed 60.0/60 °C, tool0 215.0/215 °C
                Connected     yes
                """)
        // Narrow: each line is cut, none wraps; an idle printer leaves out what it lacks.
        let idle: JSONValue = ["printer": "mk4", "state": "Operational", "connected": true, "job": .null, "progress": .null, "temperatures": .null]
        let narrow = render(Self.printerView, Self.printing, width: 30).split(separator: "\n")
        #expect(narrow.allSatisfy { $0.count <= 30 }, "\(narrow)")
        #expect(narrow[6] == "Temperatures  bed 60.0/60 °C,…")
        #expect(
            render(Self.printerView, idle, width: 80) == """
                Printer    mk4
                State      Operational
                Connected  yes
                """)
    }

    @Test func fieldsWithHeadingsThenRows() {
        let view = ResultView(
            rows: "plugins", columns: [.init("id", "PLUGIN"), .init("state", "STATE")],
            fields: [.init(heading: "Daemon"), .init("version", "Version"), .init("uptime_s", "Up", .seconds)],
            highlights: [.init("state", is: "failed", .red)])
        let status: JSONValue = [
            "version": "1.4.0", "uptime_s": 40, "plugins": [["id": "tasks", "state": "ready"], ["id": "kos", "state": "failed"]],
        ]
        #expect(
            render(view, status, width: 80) == """
                Daemon
                Version  1.4.0
                Up       40 s

                PLUGIN  STATE
                tasks   ready
                kos     failed
                """)
        let coloured = render(view, status, width: 80, colour: true)
        #expect(coloured.hasPrefix("\u{1B}[1mDaemon\u{1B}[0m\n"))
        #expect(coloured.hasSuffix("\u{1B}[31mkos     failed\u{1B}[0m"))
    }

    static let stagGrid = ResultView(
        rows: "events", grid: .init(day: "date", start: "start", end: "end", title: "subject", place: "room", mark: "type"))

    static func event(_ date: String, _ start: String, _ end: String, _ subject: String, _ type: String, _ room: String) -> JSONValue {
        [
            "date": .string(date), "start": .string(start), "end": .string(end), "subject": .string(subject), "type": .string(type),
            "room": .string(room),
        ]
    }

    @Test func aDatedTimetableIsAWeekGrid() {
        let week: JSONValue = [
            "events": [
                Self.event("2026-11-23", "08:00", "09:30", "KIV/PPA1", "Př", "UP-105"),
                Self.event("2026-11-25", "08:00", "09:30", "KMA/M1", "Cv", "UL-408"),
                Self.event("2026-11-23", "11:00", "12:30", "KIV/OS", "Cv", "UU-303"),
                Self.event("2026-11-27", "11:00", "12:30", "KIV/PIA", "Př", "EP-130"),
            ]
        ]
        #expect(
            render(Self.stagGrid, week, width: 100) == """
                       Mon 23 Nov     Tue 24 Nov     Wed 25 Nov     Thu 26 Nov     Fri 27 Nov
                08:00  KIV/PPA1 Př                   KMA/M1 Cv
                       UP-105 –09:30                 UL-408 –09:30
                11:00  KIV/OS Cv                                                   KIV/PIA Př
                       UU-303 –12:30                                               EP-130 –12:30
                """)
        let narrow = render(Self.stagGrid, week, width: 60).split(separator: "\n")
        #expect(narrow.allSatisfy { $0.count <= 60 }, "\(narrow)")
        #expect(narrow[1] == "08:00  KIV/PPA1…             KMA/M1 Cv", "each column 9 wide: the subject and type shortened")
        // Two weeks: a grid for each, under its heading; Saturday shows when something falls on it.
        let twoWeeks: JSONValue = [
            "events": [
                Self.event("2026-11-23", "08:00", "09:30", "KIV/PPA1", "Př", "UP-105"),
                Self.event("2026-12-05", "09:00", "12:00", "KIV/ZS", "Zk", "UN-301"),
            ]
        ]
        let lines = render(Self.stagGrid, twoWeeks, width: 120).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Week of Mon 23 Nov")
        #expect(lines.contains("Week of Mon 30 Nov"))
        #expect(lines.last?.hasSuffix("UN-301 –12:00") == true, "\(lines)")
        #expect(lines.contains { $0.contains("Sat 5 Dec") })
    }

    @Test func aWeekdayTimetableStacksSlotsThatShareAStart() {
        let view = ResultView(rows: "slots", grid: .init(day: "day", start: "start", end: "end", title: "course", place: "room", mark: "kind"))
        let slots: JSONValue = [
            "slots": [
                ["day": 1, "start": "09:15", "end": "10:45", "course": "BI-PA1", "kind": "P", "room": "T9:105"],
                ["day": 1, "start": "09:15", "end": "10:45", "course": "BI-AG1", "kind": "C", "room": "T9:301"],
                ["day": 3, "start": "12:45", "end": "14:15", "course": "BI-LIN", "kind": "P", "room": "T9:155"],
            ]
        ]
        #expect(
            render(view, slots, width: 100) == """
                       Mon            Tue            Wed            Thu            Fri
                09:15  BI-PA1 P
                       T9:105 –10:45
                       BI-AG1 C
                       T9:301 –10:45
                12:45                                BI-LIN P
                                                     T9:155 –14:15
                """)
    }
}
