import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// `kos.export.ics`: the timetable week by week over the teaching weeks (parity counted from
/// `first_week_parity`, a slot's `weeks` list obeyed, summer time ending on 26 October) and my
/// registered exams; UIDs stable between exports; the file replaced whole.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct ExportTests {
    /// DTSTART values of the events whose SUMMARY starts with `prefix` (unfolded first).
    static func starts(_ text: String, _ prefix: String) -> [String] {
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        return unfolded.components(separatedBy: "BEGIN:VEVENT").dropFirst().compactMap { event in
            let lines = event.split(whereSeparator: \.isNewline).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard lines.contains(where: { $0.hasPrefix("SUMMARY:" + prefix) }) else { return nil }
            return lines.first { $0.hasPrefix("DTSTART") }.map { String($0.split(separator: ":").last ?? "") }
        }.sorted()
    }

    static func uids(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("UID:") }.map(String.init).sorted()
    }

    @Test func theSemesterWeekByWeekWithMyExams() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("kos.ics")
        let bench = try await TokenTests.loggedIn()
        let written = try await bench.call("kos.export.ics", ["path": .string(path)])
        // 13 weeks: OPT tutorial (odd) 7, OPT lectures 2 × 13, PA2 lab (even, weeks 1-7,9) 3, ZMA lecture 13, ZMA tutorial (odd) 7; exam 902.
        #expect(written == ["path": .string(path), "events": 57, "semester": "B251", "first_week_parity": "odd", "teaching_weeks": 13])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // Week 1 starts Monday 22 September 2025; the lab is on even weeks 2, 4, 6 (8 is not in its list); 07:30 Prague is 05:30Z in
        // summer time and 06:30Z after 26 October.
        #expect(Self.starts(text, "BI-PA2") == ["20250929T053000Z", "20251013T053000Z", "20251027T063000Z"])
        #expect(Self.starts(text, "BI-OPT Optimalizace (tutorial)").first == "20250926T090000Z", "Friday of week 1, hour 5 (11:00)")
        #expect(Self.starts(text, "Exam: BI-OPT") == ["20270117T080000Z"], "only the registered exam")
        #expect(text.contains("LOCATION:T9:350"))
        #expect(text.contains("URL:https://www.kos.cvut.cz"))

        // Written again over it only when asked (without overwrite the file is kept).
        let kept = try await bench.failure("kos.export.ics", ["path": .string(path)])
        #expect(kept?.data?["param"] == "path")
        let again = try await bench.call("kos.export.ics", ["path": .string(path), "overwrite": true])
        #expect(again["events"] == 57)
        #expect(Self.uids(try String(contentsOfFile: path, encoding: .utf8)) == Self.uids(text), "the same UIDs each time")
        #expect(Set(Self.uids(text)).count == 57, "one UID per event")
        await bench.stop()
    }

    @Test func anEvenFirstWeekShiftsTheParity() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("kos.ics")
        let bench = try await TokenTests.loggedIn(configure: { $0.plugins["kos"] = ["first_week_parity": "even", "teaching_weeks": 14] })
        let written = try await bench.call("kos.export.ics", ["path": .string(path), "sem": "B251"])
        #expect(written["first_week_parity"] == "even")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Self.starts(text, "BI-PA2") == ["20250922T053000Z", "20251006T053000Z", "20251020T053000Z", "20251103T063000Z", "20251117T063000Z"])
        #expect(Self.starts(text, "BI-ZMA Základy matematické analýzy (lecture)").count == 14)
        await bench.stop()
    }

    @Test func badExportsWriteNothing() async throws {
        let directory = TemporaryDirectory()
        let bench = try await TokenTests.loggedIn()
        for (params, param) in [
            ([:] as JSONValue, "path"), (["path": .string(directory.file("missing/kos.ics"))], "path"),
            (["path": .string(directory.file("kos.ics")), "sem": "none"], "sem"),
            (["path": .string(directory.file("kos.ics")), "sem": "B25"], "sem"),
        ] {
            #expect(try await bench.failure("kos.export.ics", params)?.data?["param"] == .string(param), "\(params)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("kos.ics")))
        await bench.stop()
    }
}
