import AssistantClient
import Foundation
import Testing

/// Results as people see them through a command's declared view: the exact text at a given
/// width, in a given zone, at a given moment.
struct ViewRendererTests {
    static let zone = TimeZone(identifier: "Europe/Prague")!
    /// Thursday 26 November 2026, 13:00 in Prague.
    static let now = ISO8601.date("2026-11-26T12:00:00Z")!

    static let list = ResultView(
        rows: "tasks",
        columns: [
            .init("id", "ID", .shortID), .init("priority", "P", .priority), .init("title", "TITLE"), .init("due", "DUE", .when),
            .init("start", "START", .when, optional: true), .init("tags", "TAGS", .list, optional: true),
        ])

    static let tasks: JSONValue = [
        "tasks": [
            [
                "id": "e6f8fc7d-cb31", "priority": 1, "title": "Buy filament for the printer and spare nozzles", "due": "2026-11-26T17:00:00Z",
                "start": .null, "tags": ["shop", "printer"],
            ],
            ["id": "e6f8fd00-0000", "priority": 0, "title": "Meeting", "due": .null, "start": "2026-11-27T09:00:00Z", "tags": []],
            ["id": "3ccbcf1a-9113", "priority": 0, "title": "Pay rent", "due": "2026-12-01", "start": .null, "tags": []],
            ["id": "bf673edd-044f", "priority": 9, "title": "Water\nthe plants", "due": "2026-11-26T10:30:00Z", "start": .null, "tags": []],
        ],
        "count": 4,
    ]

    func render(_ view: ResultView, _ value: JSONValue, width: Int) -> String? {
        ViewRenderer(view: view, width: width, zone: Self.zone, now: Self.now).render(value)
    }

    @Test func aListFitsAWideTerminalWithTimesPeopleRead() {
        let text = render(Self.list, Self.tasks, width: 120) ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == "ID      P  TITLE                                           DUE          START           TAGS")
        #expect(lines[1] == "e6f8fc  1  Buy filament for the printer and spare nozzles  today 18:00                  shop, printer")
        #expect(lines[2] == "e6f8fd     Meeting                                                      tomorrow 10:00")
        #expect(lines[3] == "3ccbcf     Pay rent                                        Tue 1 Dec")
        #expect(lines[4] == "bf673e  9  Water the plants                                1 h ago", "11:30 in Prague, an hour and a half ago")
    }

    @Test func aNarrowTerminalShortensTheTitleThenDropsOptionalColumns() {
        let medium = (render(Self.list, Self.tasks, width: 80) ?? "").split(separator: "\n").map(String.init)
        #expect(medium.allSatisfy { $0.count <= 80 }, "\(medium)")
        #expect(medium[1] == "e6f8fc  1  Buy filament for the pri…  today 18:00                  shop, printer")
        #expect(medium[0].hasSuffix("TAGS"))
        let narrow = (render(Self.list, Self.tasks, width: 40) ?? "").split(separator: "\n").map(String.init)
        #expect(narrow[0] == "ID      P  TITLE             DUE")
        #expect(narrow.allSatisfy { $0.count <= 40 }, "\(narrow)")
        let tiny = (render(Self.list, Self.tasks, width: 20) ?? "").split(separator: "\n").map(String.init)
        #expect(tiny.allSatisfy { $0.count <= 20 }, "no row wraps: \(tiny)")
    }

    @Test func anAgendaIsGroupedByDayWithTimeRanges() {
        let view = ResultView(
            rows: "occurrences", columns: [.init("start", "TIME", .time, until: "end"), .init("title", "TITLE")], groupByDay: "start")
        let agenda: JSONValue = [
            "occurrences": [
                ["start": "2026-11-26T15:00:00Z", "end": "2026-11-26T16:30:00Z", "title": "Lab"],
                ["start": "2026-11-27", "end": "2026-11-28", "title": "Trip"],
                ["start": "2026-11-27T07:00:00Z", "end": .null, "title": "Run"],
                ["start": "2026-11-30T08:00:00Z", "end": "2026-11-30T08:00:00Z", "title": "Call"],
            ]
        ]
        #expect(
            render(view, agenda, width: 80) == """
                TIME         TITLE
                Thu 26 Nov (today)
                16:00–17:30  Lab

                Fri 27 Nov (tomorrow)
                all day      Trip
                08:00        Run

                Mon 30 Nov
                09:00        Call
                """)
    }

    @Test func shortIDsAreUniqueAmongTheRowsAndAtLeastSix() {
        #expect(ViewRenderer.shortestUnique("abcdef12", among: ["abcdef99", "ffffff"]) == "abcdef1")
        #expect(ViewRenderer.shortestUnique("abcdef12", among: []) == "abcdef")
        #expect(ViewRenderer.shortestUnique("abc", among: ["abd"]) == "abc", "never longer than the id")
    }

    @Test func aResultWithoutTheRowsIsLeftToTheGenericRendering() {
        #expect(render(Self.list, ["something": "else"], width: 80) == nil)
        #expect(render(Self.list, ["tasks": [1, 2]], width: 80) == nil)
        #expect(render(Self.list, ["tasks": []], width: 80) == "(none)")
    }

    @Test func highlightedRowsAreColouredOnlyWhenAsked() {
        var view = Self.list
        view.highlights = [.init("priority", is: 9, .red), .init("priority", is: 1, .bold)]
        let plain = (render(view, Self.tasks, width: 120) ?? "").split(separator: "\n").map(String.init)
        #expect(!plain.joined().contains("\u{1B}["), "no colour unless the terminal wants it")
        let coloured = (ViewRenderer(view: view, width: 120, zone: Self.zone, now: Self.now, colour: true).render(Self.tasks) ?? "")
            .split(separator: "\n").map(String.init)
        #expect(coloured[1] == "\u{1B}[1m" + plain[1] + "\u{1B}[0m", "priority 1: bold")
        #expect(coloured[4] == "\u{1B}[31m" + plain[4] + "\u{1B}[0m", "the first highlight that matches")
        #expect(coloured[2] == plain[2], "no highlight, no colour")
        // NO_COLOR (any non-empty value) and --no-color turn it off, whatever the terminal.
        #expect(!ViewRenderer.wantsColour(noColorFlag: false, environment: ["NO_COLOR": "1"]))
        #expect(!ViewRenderer.wantsColour(noColorFlag: true, environment: [:]))
        #expect(!ViewRenderer.wantsColour(noColorFlag: false, environment: ["TERM": "dumb"]))
    }

    @Test func aStaleAnswerSaysSoUnderTheRows() {
        let view = ResultView(rows: "terms", columns: [.init("name", "NAME")])
        let stale: JSONValue = ["terms": [["name": "Algebra"]], "stale": true, "fetched_at": "2026-11-26T09:00:00Z"]
        #expect(
            render(view, stale, width: 80) == "NAME\nAlgebra\n(stale: the service could not be reached; fetched 3 h ago)")
        let fresh: JSONValue = ["terms": [["name": "Algebra"]], "stale": false, "fetched_at": "2026-11-26T11:59:00Z"]
        #expect(render(view, fresh, width: 80) == "NAME\nAlgebra")
    }

    @Test func theViewTravelsAsJSON() {
        var view = Self.list
        view.highlights = [.init("overdue", is: true, .red)]
        #expect(ResultView(json: view.json) == view)
        #expect(ResultView(json: Self.list.json) == Self.list)
        #expect(ResultView(json: ["rows": "x"]) == nil)
    }
}
