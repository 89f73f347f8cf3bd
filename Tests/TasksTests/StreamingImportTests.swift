import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// The calendar import reads the file as a stream (content lines a chunk at a time, one component
/// at a time): what it reads must be what the whole-file reader read, wherever a line or a
/// component falls, and hostile files end in a clear error or a listed problem.
@Suite(.stopsTestHosts) struct StreamingImportTests {
    /// Bytes handed over `size` at a time, so that lines and folds fall across chunk ends.
    struct Trickle: CalendarBytes {
        let bytes: [UInt8]
        let size: Int
        var position = 0

        mutating func nextChunk() -> [UInt8]? {
            guard position < bytes.count else { return nil }
            defer { position += size }
            return Array(bytes[position..<min(bytes.count, position + size)])
        }

        mutating func rewind() { position = 0 }
    }

    static func lines(_ text: String, chunk: Int) throws -> [String] {
        var reader = ContentLines(Trickle(bytes: Array(text.utf8), size: chunk))
        var lines: [String] = []
        while let (bytes, number) = try reader.next() { lines.append("\(number) \(String(decoding: bytes, as: UTF8.self))") }
        return lines
    }

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
    func contentLinesUnfoldTheSameWhereverAChunkEnds(chunk: Int) throws {
        let text = "BEGIN:VTODO\r\nSUMMARY:folded \r\n across\r\n\tthree lines\r\nDESCRIPTION:bare LF\n endings\nUID:ü@x\r\n\r\nEND:VTODO"
        #expect(
            try Self.lines(text, chunk: chunk) == [
                "1 BEGIN:VTODO", "2 SUMMARY:folded acrossthree lines",
                "5 DESCRIPTION:bare LFendings", "7 UID:ü@x", "9 END:VTODO",
            ])
    }

    static func calendar(_ components: [String]) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//assistantd tests//EN\r\n" + components.joined() + "END:VCALENDAR\r\n"
    }

    static func event(_ uid: String, _ summary: String, start: String, extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\nSUMMARY:\(summary)\r\n\(extra)END:VEVENT\r\n"
    }

    @Test func overriddenInstancesJoinTheirSeriesWhereverTheyStand() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let weekly = "RRULE:FREQ=WEEKLY;COUNT=4\r\n"
        let path = directory.write(
            "series.ics",
            Self.calendar([
                // An instance before its series, the series, an instance after it.
                Self.event("s@x", "Moved early", start: "20261208T110000Z", extra: "RECURRENCE-ID:20261208T100000Z\r\n"),
                Self.event("s@x", "Seminar", start: "20261201T100000Z", extra: weekly),
                Self.event("s@x", "Moved late", start: "20261222T120000Z", extra: "RECURRENCE-ID:20261222T100000Z\r\n"),
                Self.event("plain@x", "Plain", start: "20261202T100000Z"),
                // A time zone after the events that use it: the first pass has read it.
                Self.event("zoned@x", "Zoned", start: "20261203T090000").replacingOccurrences(
                    of: "DTSTART:", with: "DTSTART;TZID=Custom Zone:"),
                "BEGIN:VTIMEZONE\r\nTZID:Custom Zone\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0500\r\nTZOFFSETTO:+0500\r\n"
                    + "TZNAME:X\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n",
            ]))
        let imported = try await host.call("tasks.import.ics", ["path": .string(path)]).get()
        #expect(imported["added"] == 3)
        #expect(imported["events"] == 3)
        let series = try await host.call("tasks.get", ["id": "s@x"]).get()
        #expect(series["title"] == "Seminar")
        #expect(series["overrides"]?.arrayValue?.map { $0["title"] } == ["Moved early", "Moved late"])
        let zoned = try await host.call("tasks.get", ["id": "zoned@x"]).get()
        #expect(zoned["start"] == "2026-12-03T04:00:00Z", "09:00 at +05:00, from the VTIMEZONE that follows the event")

        let orphan = directory.write(
            "orphan.ics",
            Self.calendar([
                Self.event("gone@x", "Moved", start: "20261208T110000Z", extra: "RECURRENCE-ID:20261208T100000Z\r\n"),
                Self.event("kept@x", "Kept", start: "20261202T100000Z"),
            ]))
        guard case .failure(let refused) = try await host.call("tasks.import.ics", ["path": .string(orphan)]) else {
            Issue.record("an instance without its series was imported")
            return
        }
        #expect(refused.code == 1209)
        #expect(refused.data?["problems"]?.arrayValue?.first?["reason"] == .string(CalendarLimits.orphan))
        guard case .failure = try await host.call("tasks.get", ["id": "kept@x"]) else {
            Issue.record("the refused file's good event was written")
            return
        }
        await host.stop()
    }

    @Test func aLongLineIsReadWhole() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let notes = String(repeating: "x", count: 3_000_000)
        let path = directory.write(
            "long.ics",
            Self.calendar([
                "BEGIN:VTODO\r\nUID:long@x\r\nDTSTAMP:20261101T000000Z\r\nSUMMARY:Long\r\nDESCRIPTION:\(notes)\r\nEND:VTODO\r\n"
            ]))
        #expect(try await host.call("tasks.import.ics", ["path": .string(path)]).get()["added"] == 1)
        #expect(try await host.call("tasks.get", ["id": "long@x"]).get()["notes"]?.stringValue?.count == 3_000_000)
        await host.stop()
    }

    @Test func hostileStructureIsAListedProblemOrAClearError() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let good = Self.event("good@x", "Good", start: "20261202T100000Z")
        let nested = (0..<10).map { _ in "BEGIN:VALARM\r\n" }.joined() + (0..<10).map { _ in "END:VALARM\r\n" }.joined()
        let problems = directory.write(
            "problems.ics",
            Self.calendar([
                good,
                Self.event("deep@x", "Deep", start: "20261203T100000Z", extra: nested),
                "BEGIN:VEVENT\r\nUID:open@x\r\nSUMMARY:Never ends\r\n",
            ]))
        let skipped = try await host.call("tasks.import.ics", ["path": .string(problems), "skip_invalid": true]).get()
        #expect(skipped["added"] == 1)
        #expect(skipped["skipped"] == 2)
        #expect(skipped["problems"]?.arrayValue?.map { $0["uid"] } == ["deep@x", "open@x"])
        #expect(skipped["problems"]?.arrayValue?.first?["reason"] == .string("its components nest deeper than \(CalendarLimits.nesting) levels"))
        #expect(skipped["problems"]?.arrayValue?.last?["reason"]?.stringValue?.hasSuffix("has no END:VEVENT") == true)

        let outer = (0..<20).map { _ in "BEGIN:X-OUTER\r\n" }.joined()
        var notUTF8 = Data(Self.calendar([good]).utf8)
        notUTF8.replaceSubrange(notUTF8.range(of: Data("Good".utf8))!, with: Data([0x47, 0xFF, 0x6F, 0x64]))
        let notUTF8Path = directory.file("latin.ics")
        try notUTF8.write(to: URL(fileURLWithPath: notUTF8Path))
        let cases: [(String, String)] = [
            (directory.write("outer.ics", Self.calendar([outer])), "line 19 nests components deeper than \(CalendarLimits.outerNesting) levels"),
            (notUTF8Path, "line 9 is not UTF-8 text"),
            (directory.write("empty.ics", ""), CalendarLimits.notCalendar),
        ]
        for (path, reason) in cases {
            guard case .failure(let error) = try await host.call("tasks.import.ics", ["path": .string(path)]) else {
                Issue.record("\(path) was imported")
                continue
            }
            #expect(error.code == 1208)
            #expect(error.message == "Cannot use '\(path)': \(reason)")
        }
        await host.stop()
    }

    @Test func everyProblemIsCountedAndTheFirstThousandListed() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let bad = (0..<1_005).map { "BEGIN:VTODO\r\nSUMMARY:no uid \($0)\r\nEND:VTODO\r\n" }
        let path = directory.write("bad.ics", Self.calendar(bad + [Self.event("good@x", "Good", start: "20261202T100000Z")]))
        guard case .failure(let refused) = try await host.call("tasks.import.ics", ["path": .string(path)]) else {
            Issue.record("a file of bad items was imported")
            return
        }
        #expect(refused.message == "The file has 1005 items that cannot be read; nothing was imported")
        let skipped = try await host.call("tasks.import.ics", ["path": .string(path), "skip_invalid": true]).get()
        #expect(skipped["skipped"] == 1_005)
        #expect(skipped["problems"]?.arrayValue?.count == CalendarImport.listedProblems)
        #expect(skipped["added"] == 1)
        await host.stop()
    }
}
