import AssistantTesting
import Foundation
import HostCore
import Testing

/// `kos.semester`'s schedule: KOSapi gives a semester only its code, name, start and end, so the
/// teaching weeks, exam period and holidays come from `[plugins.kos.calendar.<code>]`, said so,
/// and the timetable follows them; without it, KOS's start with the defaults.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json")))
struct SemesterScheduleTests {
    static let calendar: JSONValue = [
        "B251": [
            "teaching_start": "2025-09-29", "teaching_weeks": 12, "first_week_parity": "even", "exams_start": "2026-01-05",
            "exams_end": "2026-02-15",
            "holidays": [
                ["name": "Den vzniku samostatného československého státu", "from": "2025-10-28"],
                ["name": "Vánoční prázdniny", "from": "2025-12-22", "to": "2026-01-04"],
            ],
        ]
    ]

    @Test func withoutACalendarKOSsStartAndTheDefaults() async throws {
        let bench = try await AuthTests.start()
        try await bench.setUp()
        let semester = try await bench.call("kos.semester")
        #expect(semester["code"] == "B251" && semester["start"] == "2025-09-22")
        #expect(
            semester["schedule"] == [
                "source": "defaults", "teaching_start": "2025-09-22", "teaching_end": "2025-12-21", "teaching_weeks": 13,
                "first_week_parity": "odd", "exams_start": nil, "exams_end": nil, "holidays": [],
            ], "\(semester)")
        await bench.stop()
    }

    @Test func theConfiguredCalendarIsShownAndTheTimetableFollowsIt() async throws {
        let bench = try await TokenTests.loggedIn(configure: { $0.plugins["kos"] = ["calendar": Self.calendar] })
        let semester = try await bench.call("kos.semester")
        #expect(
            semester["schedule"] == [
                "source": "config", "teaching_start": "2025-09-29", "teaching_end": "2025-12-21", "teaching_weeks": 12,
                "first_week_parity": "even", "exams_start": "2026-01-05", "exams_end": "2026-02-15",
                "holidays": [
                    ["name": "Den vzniku samostatného československého státu", "from": "2025-10-28", "to": "2025-10-28"],
                    ["name": "Vánoční prázdniny", "from": "2025-12-22", "to": "2026-01-04"],
                ],
            ], "\(semester)")
        // KOS's first week is before teaching here: no number, no classes.
        let before = try await bench.call("kos.timetable.week", ["week": "2025-09-24"])
        #expect(before["teaching_week"] == .null && before["classes"] == [], "\(before)")
        // Week 1 is even: the lab comes, the odd tutorials do not.
        let first = try await bench.call("kos.timetable.week", ["week": "2025-09-29"])
        #expect(first["teaching_week"] == 1 && first["parity"] == "even")
        #expect(first["classes"]?.arrayValue?.count == 4)
        #expect(first["classes"]?.arrayValue?.contains { $0["title"]?.stringValue?.hasPrefix("BI-PA2") == true } == true)
        // Week 5 holds 28 October, a holiday: Tuesday's lecture is not held.
        let fifth = try await bench.call("kos.timetable.week", ["week": "2025-10-27"])
        #expect(fifth["teaching_week"] == 5 && fifth["parity"] == "even", "\(fifth)")
        let dates = fifth["classes"]?.arrayValue?.compactMap { $0["date"]?.stringValue } ?? []
        #expect(dates.sorted() == ["2025-10-27", "2025-10-29", "2025-10-31"], "\(dates)")
        let today = try await bench.host.call("today", ["date": "2025-10-28"]).get()
        #expect(today["weeks"] == [["plugin": "kos", "semester": "B251", "teaching_week": 5, "parity": "even"]])
        // The calendar file follows the same schedule: 12 weeks, no class on a holiday.
        let directory = TemporaryDirectory()
        let written = try await bench.call("kos.export.ics", ["path": .string(directory.file("b251.ics"))])
        #expect(written["teaching_weeks"] == 12 && written["first_week_parity"] == "even")
        let ics = try String(contentsOfFile: directory.file("b251.ics"), encoding: .utf8)
        #expect(!ics.contains("DTSTART:20251028") && !ics.contains("TZID=Europe/Prague:20251028"), "no class on 28 October")
        #expect(ics.contains("20251027"), "the Monday of that week has its classes")
        #expect(!ics.contains("20250922") && !ics.contains("20250926"), "nothing before teaching starts")
        await bench.stop()
    }

    /// The TOML of docs/intro/kos.md, read by the daemon's own config loader.
    @Test func theDocumentedTOMLIsRead() async throws {
        let toml = """
            [plugins.kos.calendar.B251]
            teaching_start = "2025-09-22"
            teaching_weeks = 13
            first_week_parity = "odd"
            exams_start = "2026-01-05"
            exams_end = "2026-02-15"
            holidays = [{ name = "Den vzniku samostatného československého státu", from = "2025-10-28" },
                        { name = "Vánoční prázdniny", from = "2025-12-22", to = "2026-01-04" }]
            """
        let loaded = try ConfigLoader.parse(toml, file: "config.toml")
        let bench = try await AuthTests.start(configure: { $0.plugins["kos"] = loaded.configuration.plugins["kos"] })
        try await bench.setUp()
        let schedule = try await bench.call("kos.semester")["schedule"]
        #expect(schedule?["source"] == "config" && schedule?["exams_end"] == "2026-02-15", "\(schedule ?? .null)")
        #expect(schedule?["holidays"]?.arrayValue?.map { $0["to"] } == ["2025-10-28", "2026-01-04"])
        await bench.stop()
    }

    @Test func aCalendarThatCannotBeReadIsSaidNotGuessed() async throws {
        for (calendar, words) in [
            (["B251": ["teaching_start": "29.9.2025"]] as JSONValue, "B251.teaching_start is not a date (YYYY-MM-DD)"),
            (["B251": ["teaching_weeks": 40]], "B251.teaching_weeks is not a number from 1 to 26"),
            (["B251": ["first_week_parity": "sudy"]], "B251.first_week_parity is not odd or even"),
            (["B251": ["exams_start": "2026-02-01", "exams_end": "2026-01-05"]], "B251.exams_end is before exams_start"),
            (
                ["B251": ["holidays": [["name": "Vánoce", "from": "2025-12-24", "to": "2025-12-20"]]]],
                "B251.holidays[1].to is not a date on or after"
            ),
            (["B251": ["holidays": [["from": "2025-12-24"]]]], "B251.holidays[1] needs a name and a from date"),
            (["B251": ["exam_start": "2026-01-05"]], "B251.exam_start is not a calendar key"),
            (["B-251!": [:]], "'B-251!' is not a semester code"),
        ] {
            let bench = try await AuthTests.start(configure: { $0.plugins["kos"] = ["calendar": calendar] })
            let error = try await bench.failure("kos.semester")
            #expect(error?.message.contains(words) == true, "\(calendar): \(error?.message ?? "")")
            await bench.stop()
        }
    }
}
