import AssistantTesting
import Foundation
import HostCore
import PictureKit
import Testing

@testable import OctoPrint

/// `octoprint.temperature.chart`: the live monitor's readings kept in a bounded ring, drawn as a
/// PNG or PDF; against a real OctoPrint with its virtual printer.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct TemperatureChartTests {
    static func reading(_ time: Double, tool: Double, target: Double? = nil) -> JSONValue {
        ["time": .double(time), "tool0": ["actual": .double(tool), "target": target.map(JSONValue.double) ?? .null], "bed": ["actual": 60.0]]
    }

    /// The ring keeps the newest `capacity` readings in time order, drops a reading that is not
    /// newer than the last (the same one from the socket and a poll), and ignores what is not a
    /// reading.
    @Test func theRingIsBoundedOrderedAndWithoutRepeats() {
        var history = TemperatureHistory()
        let many = JSONValue.array((0..<(TemperatureHistory.capacity + 500)).map { Self.reading(Double($0), tool: Double($0 % 250)) })
        for r in TemperatureHistory.readings(many) { history.add(r) }
        #expect(history.count == TemperatureHistory.capacity)
        let all = history.readings(since: .distantPast)
        #expect(all.first?.time == Date(timeIntervalSince1970: 500))
        #expect(all.last?.time == Date(timeIntervalSince1970: Double(TemperatureHistory.capacity + 499)))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.time < $1.time })
        history.add(TemperatureHistory.reading(Self.reading(10, tool: 1), at: Date(timeIntervalSince1970: 10))!)
        #expect(history.readings(since: .distantPast).count == TemperatureHistory.capacity, "an older reading is not kept")
        // Past the end of the ring once more: still bounded, still in order.
        history.add(TemperatureHistory.reading(Self.reading(0, tool: 1), at: Date(timeIntervalSince1970: 1e9))!)
        #expect(history.readings(since: .distantPast).last?.time == Date(timeIntervalSince1970: 1e9))
        #expect(history.count == TemperatureHistory.capacity)
        #expect(TemperatureHistory.readings(["not a list"]).isEmpty)
        #expect(TemperatureHistory.readings([["time": 1, "tool0": ["actual": "hot"]], ["tool0": ["actual": 20]]]).isEmpty)
    }

    @Test func thePushAPIsHistoryAndCurrentReadingsFeedTheWatch() async {
        let watch = PrintWatch(
            printer: "mk3", settings: .init(milestones: [], bedCooledBelow: 40, offlineAfter: 300), now: { Date(timeIntervalSince1970: 100) }
        ) { _, _, _, _, _, _ in }
        await watch.handle(push: ["history": ["temps": [Self.reading(1, tool: 20), Self.reading(2, tool: 30, target: 215)]]])
        await watch.handle(push: ["current": ["temps": [Self.reading(2, tool: 30), Self.reading(3, tool: 40, target: 215)]]])
        await watch.record(temperature: ["tool0": ["actual": 50, "target": 215], "bed": ["actual": 60, "target": 60]])
        let readings = await watch.temperatures.readings(since: .distantPast)
        #expect(readings.map { $0.heaters["tool0"]?.actual } == [20, 30, 40, 50])
        #expect(readings.last?.heaters["bed"] == .init(actual: 60, target: 60))
    }

    /// Ten minutes of a heat-up drawn: the nozzle's line crosses the plot, the bed's too; the
    /// target is dashed in the same colour.
    @Test func knownReadingsAreDrawnAsLines() throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let readings = (0..<300).map { i in
            TemperatureHistory.reading(
                Self.reading(0, tool: min(20 + Double(i), 215), target: 215), at: start.addingTimeInterval(Double(i) * 2))!
        }
        let chart = OctoPrintService.temperatureChart("mk3", readings, start: start, end: start.addingTimeInterval(600))
        #expect(chart.series.map(\.name) == ["tool0", "tool0 target", "bed"])
        let directory = TemporaryDirectory()
        try Picture.write(to: try Picture.output(directory.file("c.png"), overwrite: false), width: 1000, height: 600, title: "t") { cr, _ in
            chart.draw(cr, x: 30, y: 20, width: 940, height: 560)
        }
        let image = try PNGPixels(path: directory.file("c.png"))
        #expect(image.count(PNGPixels.red) > 1_000, "the nozzle's line and its target across the plot: \(image.count(PNGPixels.red))")
        #expect(image.count(PNGPixels.blue) > 800, "the bed's level line across the plot (about 900 px): \(image.count(PNGPixels.blue))")
    }

    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func aChartOfARealPrinter() async throws {
        try await OctoPrintHost.with(connected: true) { op in
            // OctoPrint reads the virtual printer's temperatures every couple of seconds after it connects.
            _ = try await op.waitForStatus("a temperature reading") { $0["temperatures"]?["tool0"]?["actual"]?.doubleValue != nil }
            let directory = TemporaryDirectory()
            let png = directory.file("temps.png")
            let r = try await op.call("octoprint.temperature.chart", ["minutes": 10, "path": .string(png)])
            #expect(r["printer"] == "mk3")
            #expect(r["format"] == "png")
            #expect((r["readings"]?.intValue ?? 0) >= 1, "\(r)")
            #expect(r["heaters"]?.arrayValue?.contains("tool0") == true, "\(r)")
            let image = try PNGPixels(path: png)
            #expect(image.width == 1000 && image.height == 600)
            #expect(image.count(PNGPixels.red) > 0, "tool0 is in the chart (its line is checked on known readings below)")
            let pdf = try await op.call("octoprint.temperature.chart", ["path": .string(directory.file("temps.pdf"))])
            #expect(pdf["format"] == "pdf")
            // Bad input: named, nothing written.
            let minutes = try await op.failure("octoprint.temperature.chart", ["minutes": 0, "path": .string(directory.file("x.png"))])
            #expect(minutes.code == -32602 && minutes.message.contains("'minutes'"), "\(minutes.message)")
            let ext = try await op.failure("octoprint.temperature.chart", ["path": .string(directory.file("x.svg"))])
            #expect(ext.code == -32602 && ext.message.contains(".png or .pdf"), "\(ext.message)")
            let unknown = try await op.failure("octoprint.temperature.chart", ["printer": "nope", "path": .string(directory.file("x.png"))])
            #expect(unknown.message.contains("nope"), "\(unknown.message)")
            #expect(!FileManager.default.fileExists(atPath: directory.file("x.png")))
            let folder = try await op.failure("octoprint.temperature.chart", ["path": "/nonexistent-folder/t.png"])
            #expect(folder.code == -32602 && folder.message.contains("'path'"), "\(folder.message)")
        }
    }
}
