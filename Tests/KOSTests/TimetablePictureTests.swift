import AssistantTesting
import Foundation
import HostCore
import Testing

/// `kos.timetable.pdf`: the week's classes drawn for the wall, placed by the week's parity and a
/// slot's `weeks` as `kos.export.ics` places them; read back with `pdftotext`.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json") && Peers.shouldRun(program: "/usr/bin/pdftotext")))
struct TimetablePictureTests {
    static func text(_ path: String) async throws -> String {
        try await runCommand("/usr/bin/pdftotext", ["-layout", path, "-"], environment: ProcessInfo.processInfo.environment).stdout
    }

    @Test func oddAndEvenWeeksOfTheSemester() async throws {
        let directory = TemporaryDirectory()
        let bench = try await TokenTests.loggedIn()
        // Week 1 (odd) of B251: OPT tutorial, two OPT lectures, ZMA lecture and tutorial.
        let odd = try await bench.call("kos.timetable.pdf", ["week": "2025-09-24", "path": .string(directory.file("odd.pdf"))])
        #expect(odd["week"] == "2025-09-22")
        #expect(odd["classes"] == 5)
        #expect(odd["format"] == "pdf")
        let oddText = try await Self.text(directory.file("odd.pdf"))
        #expect(oddText.contains("Timetable B251, week of 2025-09-22"), "\(oddText.prefix(400))")
        #expect(oddText.contains("BI-OPT") && oddText.contains("BI-ZMA"))
        #expect(!oddText.contains("BI-PA2"), "the lab is on even weeks")
        // Week 2 (even): the lab comes, the odd tutorials go.
        let even = try await bench.call("kos.timetable.pdf", ["week": "2025-09-29", "path": .string(directory.file("even.png"))])
        #expect(even["classes"] == 4)
        #expect(even["format"] == "png")
        #expect(try PNGPixels(path: directory.file("even.png")).count(PNGPixels.blue) > 400, "the classes' boxes")
        // Bad input: named, nothing written.
        let week = try await bench.host.expectFailure("kos.timetable.pdf", ["week": "2025-13-01", "path": .string(directory.file("x.pdf"))])
        #expect(week.code == -32602 && week.message.contains("'week'"), "\(week.message)")
        let ext = try await bench.host.expectFailure("kos.timetable.pdf", ["path": .string(directory.file("x.txt"))])
        #expect(ext.code == -32602 && ext.message.contains(".png or .pdf"), "\(ext.message)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.pdf")))
        // A week outside the semester has no classes: said, nothing written; a missing folder too.
        let empty = try await bench.host.expectFailure("kos.timetable.pdf", ["week": "2026-07-15", "path": .string(directory.file("e.pdf"))])
        #expect(empty.message == "Not found: classes in the week of 2026-07-13")
        #expect(!FileManager.default.fileExists(atPath: directory.file("e.pdf")))
        let folder = try await bench.host.expectFailure("kos.timetable.pdf", ["path": "/nonexistent-folder/week.pdf"])
        #expect(folder.code == -32602 && folder.message.contains("'path'"), "\(folder.message)")
        await bench.stop()
    }

    /// `kos.timetable.week`: the same placing as the picture, as data for the web app's week grid.
    @Test func aWeekOfClassesOnTheirDatesWithItsTeachingWeek() async throws {
        let bench = try await TokenTests.loggedIn()
        let odd = try await bench.call("kos.timetable.week", ["week": "2025-09-24"])
        #expect(odd["week"] == "2025-09-22" && odd["semester"] == "B251")
        #expect(odd["teaching_week"] == 1 && odd["parity"] == "odd", "\(odd)")
        let oddClasses = odd["classes"]?.arrayValue ?? []
        #expect(oddClasses.count == 5, "as the picture draws week 1: \(oddClasses)")
        #expect(oddClasses.allSatisfy { ($0["date"]?.stringValue ?? "") >= "2025-09-22" && ($0["date"]?.stringValue ?? "") <= "2025-09-28" })
        #expect(oddClasses.allSatisfy { $0["start"]?.stringValue?.wholeMatch(of: /\d\d:\d\d/) != nil })
        #expect(oddClasses.contains { $0["title"]?.stringValue?.hasPrefix("BI-OPT") == true && $0["kind"] != .null })
        #expect(!oddClasses.contains { $0["title"]?.stringValue?.hasPrefix("BI-PA2") == true }, "the lab is on even weeks")
        let even = try await bench.call("kos.timetable.week", ["week": "2025-09-29"])
        #expect(even["teaching_week"] == 2 && even["parity"] == "even")
        #expect(even["classes"]?.arrayValue?.count == 4)
        #expect(even["classes"]?.arrayValue?.contains { $0["title"]?.stringValue?.hasPrefix("BI-PA2") == true } == true)
        // Outside teaching: no number, no parity, no classes (no error: an empty week is a week).
        let summer = try await bench.call("kos.timetable.week", ["week": "2026-07-15"])
        #expect(summer["teaching_week"] == .null && summer["parity"] == .null && summer["classes"] == [], "\(summer)")
        let bad = try await bench.host.expectFailure("kos.timetable.week", ["week": "2025-02-30"])
        #expect(bad.code == -32602 && bad.message.contains("'week'"), "\(bad.message)")
        await bench.stop()
    }
}
