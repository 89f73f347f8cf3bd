import AssistantTesting
import Foundation
import HostCore
import Testing

/// The OctoPrint part of `today` against a real OctoPrint: a print paused on the virtual printer
/// is shown with its state and progress; an idle printer and another day show none.
@Suite(.stopsTestHosts, .timeLimit(.minutes(5)))
struct DayPartTests {
    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func aRunningPrintIsPartOfTheDay() async throws {
        try await OctoPrintHost.with(connected: true) { op in
            #expect(try await op.call("today")["items"] == [], "an idle printer is not news")
            let dir = TemporaryDirectory()
            try await op.call("octoprint.files.upload", ["file": .string(LiveEventTests.gcode(dir, "long.gcode", lines: 20_000)), "print": true])
            _ = try await op.waitForStatus("printing") { $0["flags"]?["printing"] == true }
            try await op.call("octoprint.job.pause")
            _ = try await op.waitForStatus("paused") { $0["flags"]?["paused"] == true }
            let items = try await op.call("today")["items"]?.arrayValue ?? []
            #expect(items.count == 1)
            let print = try #require(items.first)
            #expect(print["kind"] == "print")
            #expect(print["plugin"] == "octoprint")
            #expect(print["title"] == "mk3: long.gcode")
            #expect(print["place"] == "mk3")
            #expect(print["detail"]?.stringValue?.hasPrefix("Paused") == true, "\(print)")
            #expect(DayItem.resultSchema.problems(in: print, strict: true).isEmpty)
            // Tomorrow has no prints: a print is now.
            let tomorrow = DateOnly(Date(), in: .current).adding(days: 1).description
            #expect(try await op.call("today", ["date": .string(tomorrow)])["items"] == [])
            try await op.call("octoprint.job.cancel")
        }
    }
}
