import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// Every occurrence of 320+ generated rules must equal python-dateutil's (Tests/peers/rrule_oracle.py).
@Suite(.stopsTestHosts) struct RecurrenceOracleTests {
    struct Case: Decodable {
        let tz: String
        let all_day: Bool
        let rrule: String
        let dtstart: String
        let before: String
        let exdates: [String]
        let rdates: [String]
        let expected: [String]
    }

    /// Expands every case with the plugin and compares each occurrence with the oracle's.
    static func compare(_ cases: [Case]) throws -> (compared: Int, mismatches: [String]) {
        var mismatches: [String] = []
        var compared = 0
        for c in cases {
            let zone = try #require(Zone(identifier: c.tz))
            let anchor = try #require(WallTime(c.dtstart))
            let series = Series(
                anchor: anchor, rule: try RecurrenceRule(c.rrule), exdates: Set(c.exdates.compactMap { WallTime($0) }),
                rdates: c.rdates.compactMap { WallTime($0) }, zone: zone)
            let walls = series.occurrences(before: try #require(WallTime(c.before)))
            let got = walls.map { c.all_day ? $0.text : TimeInput.utcString(zone.instant($0)) }
            compared += got.count
            // A window from the middle (libical jumps there) equals the full expansion's tail.
            if walls.count > 4, let anchorWall = WallTime(c.dtstart) {
                let middle = walls[walls.count / 2].adding(seconds: anchorWall.isDate ? 0 : -1)
                let tail = series.occurrences(from: middle, before: try #require(WallTime(c.before)))
                if tail != walls.filter({ $0 >= middle }) {
                    mismatches.append(
                        "\(c.rrule) from \(c.dtstart): the window from \(middle.text) differs (\(tail.prefix(2).map(\.text)) vs "
                            + "\(walls.filter { $0 >= middle }.prefix(2).map(\.text)))"
                    )
                }
            }
            if got != c.expected {
                let firstDiff = (0..<min(got.count, c.expected.count)).first { got[$0] != c.expected[$0] } ?? min(got.count, c.expected.count)
                mismatches.append(
                    "\(c.rrule) from \(c.dtstart) \(c.tz): #\(firstDiff) got \(got.dropFirst(firstDiff).prefix(2)) want "
                        + "\(c.expected.dropFirst(firstDiff).prefix(2)) (\(got.count) vs \(c.expected.count))"
                )
            }
        }
        return (compared, mismatches)
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "dateutil")))
    func everyOccurrenceEqualsDateutil() async throws {
        let data = try #require(
            await Peers.output(Peers.python, [Peers.script("rrule_oracle.py"), ProcessInfo.processInfo.environment["TASKS_ORACLE_RULES"] ?? "600"]))
        let cases = try JSONDecoder().decode([Case].self, from: data)
        #expect(cases.count >= 300)
        let (compared, mismatches) = try Self.compare(cases)
        #expect(compared > 10_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) rules differ:\n\(mismatches.prefix(25).joined(separator: "\n"))")
    }

    /// DTSTART off its rule (a weekday BYDAY excludes, the 1st for BYMONTHDAY=-1, a Thursday for a
    /// last-Friday rule…), with COUNT, UNTIL or neither, on both expansion paths (libical's and
    /// DayGrid's): dateutil's matches with RFC 5545's DTSTART rule on top (`rfc5545_instances`
    /// in the oracle): DTSTART is instance 1 and COUNT counts it.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "dateutil")))
    func aDTSTARTOffItsRuleIsTheFirstInstanceAndCounts() async throws {
        let data = try #require(await Peers.output(Peers.python, [Peers.script("rrule_oracle.py"), "--off-rule", "240"]))
        let cases = try JSONDecoder().decode([Case].self, from: data)
        #expect(cases.count >= 200)
        #expect(cases.filter { $0.rrule.contains("COUNT=") }.count >= 80, "COUNT is where the paths disagreed")
        #expect(cases.contains { $0.rrule.contains("WKST=SU;INTERVAL=2") || $0.rrule.contains("INTERVAL=2;BYDAY") }, "DayGrid's path is in the set")
        let (compared, mismatches) = try Self.compare(cases)
        #expect(compared > 5_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) rules differ:\n\(mismatches.prefix(25).joined(separator: "\n"))")
    }

    /// The issue's two examples, as a user tried them (DTSTART on Thursday 1 January 2026).
    @Test func theIssuesExamplesGiveCountOccurrences() throws {
        let zone = try #require(Zone(identifier: "Europe/Prague"))
        func count(_ rule: String, from start: String) throws -> [WallTime] {
            try Series(anchor: #require(WallTime(start)), rule: RecurrenceRule(rule), exdates: [], rdates: [], zone: zone)
                .occurrences(before: #require(WallTime("2028-01-01T00:00:00")))
        }
        let monthEnds = try count("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=12", from: "2026-01-01T09:00:00")
        #expect(monthEnds.count == 12)
        #expect(monthEnds.first?.text == "2026-01-01T09:00:00", "DTSTART is the first instance")
        #expect(monthEnds.last?.text == "2026-11-30T09:00:00", "then 31 January to 30 November: 11 more")
        let weekends = try count("FREQ=DAILY;BYDAY=SA,SU;COUNT=10", from: "2026-01-05T09:00:00")
        #expect(weekends.count == 10)
        let grid = try count("FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU;WKST=SU;COUNT=10", from: "2026-01-05T09:00:00")
        #expect(grid.count == 10, "the hand-written path counts the same")
    }

    /// What a user sees reads the same series: the agenda lists twelve, and the next occurrence
    /// after the eleventh month-end is none.
    @Test func theAgendaShowsCountOccurrencesForAStartOffTheRule() async throws {
        let (host, _) = try await TaskCommandTests.host(at: "2025-12-20T08:00:00Z")
        let added = try await host.call(
            "tasks.add",
            [
                "title": "Month end report", "kind": "event", "start": "2026-01-01 09:00", "duration_min": 30,
                "rrule": "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=12",
            ]
        ).get()
        let agenda = try await host.call("tasks.agenda", ["from": "2026-01-01", "to": "2028-01-01"]).get()
        let starts = agenda["occurrences"]?.arrayValue?.filter { $0["id"] == added["id"] }.compactMap { $0["start_local"]?.stringValue } ?? []
        #expect(starts.count == 12)
        #expect(starts.first == "2026-01-01T09:00:00")
        #expect(starts.last == "2026-11-30T09:00:00")
        await host.stop()
    }

    /// The export means the same set to a reader that leaves an off-rule start out (dateutil,
    /// through `ics_expand.py`) as the plugin's agenda: such a series is written with UNTIL and an
    /// RDATE of its start. A series whose start is on its rule is written as it is.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "icalendar")))
    func theExportMeansTheSameSetToAnotherReader() async throws {
        let (host, _) = try await TaskCommandTests.host(at: "2025-12-20T08:00:00Z")
        let series: [JSONValue] = [
            ["title": "Month end", "kind": "event", "start": "2026-01-01 09:00", "duration_min": 30, "rrule": "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=12"],
            ["title": "Weekend", "kind": "event", "start": "2026-01-05 10:00", "duration_min": 60, "rrule": "FREQ=DAILY;BYDAY=SA,SU"],
            [
                "title": "Fortnight", "kind": "event", "start": "2026-01-05 10:00", "duration_min": 60,
                "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU;WKST=SU;COUNT=7",
            ],
            [
                "title": "On the rule", "kind": "event", "start": "2026-01-31 09:00", "duration_min": 30,
                "rrule": "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=5",
            ],
        ]
        var ids: [String] = []
        for s in series { ids.append(try #require(try await host.call("tasks.add", s).get()["id"]?.stringValue)) }
        let directory = TemporaryDirectory()
        let path = directory.file("series.ics")
        _ = try await host.call("tasks.export.ics", ["path": .string(path)]).get()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("RRULE:FREQ=MONTHLY;COUNT=5;BYMONTHDAY=-1"), "a start on its rule keeps COUNT")
        #expect(text.contains("RRULE:FREQ=MONTHLY;UNTIL=20261130T080000Z;BYMONTHDAY=-1"), "one off it: UNTIL, its last instance")
        let read = try JSONValue.decode(try #require(await Peers.output(Peers.python, [Peers.script("ics_expand.py"), path, "2026-07-01"])))
        let agenda = try await host.call("tasks.agenda", ["from": "2026-01-01", "to": "2026-07-01"]).get()
        for id in ids {
            let ours = agenda["occurrences"]?.arrayValue?.filter { $0["id"] == .string(id) }.compactMap { $0["start"]?.stringValue } ?? []
            let theirs = read[id]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(!ours.isEmpty)
            #expect(theirs == ours, "\(id): dateutil reads \(theirs.prefix(3))…, the agenda has \(ours.prefix(3))…")
        }
        await host.stop()
    }

    @Test func badRulesNameThePart() {
        let cases: [(String, String)] = [
            ("FREQ=FORTNIGHTLY", "FREQ"), ("FREQ=DAILY;BYDAY=XX", "BYDAY"), ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY"),
            ("FREQ=DAILY;COUNT=0", "COUNT"), ("FREQ=DAILY;COUNT=2;UNTIL=20270101", "COUNT and UNTIL"), ("INTERVAL=2", "FREQ"),
            ("FREQ=DAILY;FOO=1", "FOO"), ("FREQ=WEEKLY;BYWEEKNO=3", "BYWEEKNO"), ("FREQ=DAILY;UNTIL=2027", "UNTIL"),
            ("FREQ=WEEKLY;BYDAY=1MO", "BYDAY"), ("FREQ=DAILY;WKST=XY", "WKST"), ("FREQ=DAILY;BYSETPOS=1", "BYSETPOS"),
        ]
        for (rule, part) in cases {
            do {
                _ = try RecurrenceRule(rule)
                Issue.record("\(rule) was accepted")
            } catch {
                #expect(error.data?.objectValue?["param"] == "rrule", "\(rule)")
                #expect(error.message.contains(part), "\(rule): \(error.message)")
            }
        }
    }
}
