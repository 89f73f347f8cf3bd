import AssistantTesting
import Foundation
import HostCore
import Testing

/// `stag.timetable.pdf`: this week's timetable (every role merged, the exam included) drawn for
/// the wall; read back with `pdftotext`.
@Suite(
    .stopsTestHosts, .timeLimit(.minutes(2)),
    .enabled(if: Peers.shouldRun(pythonModule: "json") && Peers.shouldRun(program: "/usr/bin/pdftotext")))
struct TimetablePictureTests {
    @Test func thisWeekForTheWall() async throws {
        let bench = try await StudyTests.student()
        let directory = TemporaryDirectory()
        let r = try await bench.host.call("stag.timetable.pdf", ["path": .string(directory.file("week.pdf"))]).get()
        #expect(r["week"] == "2026-11-23")
        #expect(r["classes"] == 3, "two classes and an exam")
        let text = try await runCommand(
            "/usr/bin/pdftotext", ["-layout", directory.file("week.pdf"), "-"], environment: ProcessInfo.processInfo.environment
        ).stdout
        #expect(text.contains("Timetable, week of 2026-11-23"), "\(text.prefix(400))")
        #expect(text.contains("KMA/MA1"))
        #expect(text.contains("US-217"))
        // Another week, as a PNG.
        let png = try await bench.host.call("stag.timetable.pdf", ["week": "2026-11-30", "path": .string(directory.file("next.png"))]).get()
        #expect(png["week"] == "2026-11-30")
        #expect(try PNGPixels(path: directory.file("next.png")).width == 1400)
        let bad = try await bench.host.expectFailure("stag.timetable.pdf", ["path": .string(directory.file("week.doc"))])
        #expect(bad.code == -32602 && bad.message.contains(".png or .pdf"), "\(bad.message)")
        let week = try await bench.host.expectFailure("stag.timetable.pdf", ["week": "30.11.2026", "path": .string(directory.file("w.pdf"))])
        #expect(week.code == -32602 && week.message.contains("'week'"), "\(week.message)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("w.pdf")))
        // A week without classes is said, and nothing is written; so is a missing folder.
        let empty = try await bench.host.expectFailure("stag.timetable.pdf", ["week": "2027-07-14", "path": .string(directory.file("e.pdf"))])
        #expect(empty.message == "Not found: classes in the week of 2027-07-12")
        #expect(!FileManager.default.fileExists(atPath: directory.file("e.pdf")))
        let folder = try await bench.host.expectFailure("stag.timetable.pdf", ["path": "/nonexistent-folder/week.pdf"])
        #expect(folder.code == -32602 && folder.message.contains("'path'"), "\(folder.message)")
        await bench.stop()
    }
}
