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

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "dateutil")))
    func everyOccurrenceEqualsDateutil() async throws {
        let data = try #require(await Peers.output(Peers.python, [Peers.script("rrule_oracle.py"), ProcessInfo.processInfo.environment["TASKS_ORACLE_RULES"] ?? "600"]))
        let cases = try JSONDecoder().decode([Case].self, from: data)
        #expect(cases.count >= 300)
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
                    mismatches.append("\(c.rrule) from \(c.dtstart): the window from \(middle.text) differs (\(tail.prefix(2).map(\.text)) vs \(walls.filter { $0 >= middle }.prefix(2).map(\.text)))")
                }
            }
            if got != c.expected {
                let firstDiff = (0..<min(got.count, c.expected.count)).first { got[$0] != c.expected[$0] } ?? min(got.count, c.expected.count)
                mismatches.append(
                    "\(c.rrule) from \(c.dtstart) \(c.tz): #\(firstDiff) got \(got.dropFirst(firstDiff).prefix(2)) want \(c.expected.dropFirst(firstDiff).prefix(2)) (\(got.count) vs \(c.expected.count))")
            }
        }
        #expect(compared > 10_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) rules differ:\n\(mismatches.prefix(25).joined(separator: "\n"))")
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
