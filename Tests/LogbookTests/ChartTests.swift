import AssistantTesting
import Foundation
import Testing

/// `logbook.chart`: flight time by month or aircraft, night and IFR by month, as a PNG or PDF;
/// the same charts as the logbook PDF's last page; bad input refused naming the parameter.
@Suite(.stopsTestHosts)
struct ChartTests {
    static let blue = PNGPixels.blue
    static let orange = PNGPixels.orange

    /// Three flights in February, one in April (two aircraft, one at night under IFR).
    static func started() async throws -> LogbookHost {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await lb.addSEP("OK-TWO")
        for (out, into, aircraft, ifr) in [
            ("2026-02-03T08:00:00Z", "2026-02-03T10:00:00Z", "OK-SKA", 0), ("2026-02-10T08:00:00Z", "2026-02-10T09:00:00Z", "OK-SKA", 0),
            ("2026-02-20T08:00:00Z", "2026-02-20T09:30:00Z", "OK-TWO", 0), ("2026-04-02T18:00:00Z", "2026-04-02T21:00:00Z", "OK-TWO", 60),
        ] {
            try await lb.call(
                "logbook.flights.add",
                ["dep": "LKPR", "arr": "LKTB", "out": .string(out), "in": .string(into), "aircraft": .string(aircraft), "ifr": .count(ifr)])
        }
        return lb
    }

    static func pixels(_ path: String, _ colour: (UInt8, UInt8, UInt8)) throws -> (width: Int, height: Int, count: Int) {
        let image = try PNGPixels(path: path)
        return (image.width, image.height, image.count(colour))
    }

    @Test func hoursByMonthAsAPNGWithAnEmptyMonthBetween() async throws {
        let lb = try await Self.started()
        let directory = TemporaryDirectory()
        let path = directory.file("hours.png")
        let r = try await lb.call("logbook.chart", ["kind": "hours_by_month", "path": .string(path)])
        #expect(r["format"] == "png")
        #expect(r["bars"] == 3, "February, March (empty) and April")
        #expect(r["total_min"] == .count(120 + 60 + 90 + 180))
        #expect(r["bytes"]?.intValue == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map(Int64.init))
        let image = try Self.pixels(path, Self.blue)
        #expect(image.width == 1000 && image.height == 600)
        #expect(image.count > 2_000, "the bars are drawn: \(image.count) blue pixels")
        // A period with nothing in it: said, and no file written.
        let empty = directory.file("none.png")
        let none = try await lb.failure(
            "logbook.chart", ["kind": "hours_by_month", "from": "2025-01-01", "to": "2025-12-31", "path": .string(empty)])
        #expect(none.message == "Not found: flights to chart from 2025-01-01 to 2025-12-31")
        #expect(!FileManager.default.fileExists(atPath: empty))
        // The period chosen: only April.
        let april = try await lb.call(
            "logbook.chart", ["kind": "hours_by_month", "from": "2026-04-01", "to": "2026-04-30", "path": .string(empty)])
        #expect(april["bars"] == 1)
        #expect(april["total_min"] == 180)
        await lb.stop()
    }

    @Test func byAircraftAndNightAndIFR() async throws {
        let lb = try await Self.started()
        let directory = TemporaryDirectory()
        let aircraft = try await lb.call("logbook.chart", ["kind": "hours_by_aircraft", "path": .string(directory.file("a.png"))])
        #expect(aircraft["bars"] == 2)
        #expect(aircraft["total_min"] == 450)
        let night = try await lb.call("logbook.chart", ["kind": "night_ifr", "path": .string(directory.file("n.png"))])
        #expect(night["bars"] == 3)
        #expect(try Self.pixels(directory.file("n.png"), Self.orange).count > 200, "the IFR series is drawn")
        let pdf = try await lb.call("logbook.chart", ["kind": "night_ifr", "path": .string(directory.file("n.pdf"))])
        #expect(pdf["format"] == "pdf")
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: directory.file("n.pdf"))).read(upToCount: 5)
        #expect(head == Data("%PDF-".utf8))
        // Read back: the title, the totals, the axis's hours and the months along it.
        if Peers.shouldRun(program: "/usr/bin/pdftotext") {
            let text = try await runCommand(
                "/usr/bin/pdftotext", [directory.file("n.pdf"), "-"], environment: ProcessInfo.processInfo.environment
            ).stdout
            let totals = try await lb.call("logbook.totals")["period"]
            let night = Int(totals?["night_min"]?.intValue ?? -1)
            #expect(night > 0, "the April evening flight has night time")
            let nightText = "night \(night / 60):\(String(format: "%02d", night % 60)), IFR 1:00"
            for expected in ["Night and IFR time by month", nightText, "2026-02", "2026-03", "2026-04", "night", "IFR"] {
                #expect(text.contains(expected), "\(expected) in: \(text)")
            }
            // The axis's hours (pdftotext may read "1 h" without its thin space).
            #expect(text.filter { $0 != " " }.contains("1h\n"), "the axis labels: \(text)")
            _ = try await lb.call("logbook.chart", ["kind": "hours_by_aircraft", "path": .string(directory.file("a.pdf"))])
            let aircraftText = try await runCommand(
                "/usr/bin/pdftotext", [directory.file("a.pdf"), "-"], environment: ProcessInfo.processInfo.environment
            ).stdout
            for expected in ["Flight time by aircraft", "total 7:30 in 4 flights", "OK-SKA", "OK-TWO"] {
                #expect(aircraftText.contains(expected), "\(expected) in: \(aircraftText)")
            }
        }
        await lb.stop()
    }

    @Test func badInputIsRefusedNamingTheParameterAndWritesNothing() async throws {
        let lb = try await Self.started()
        let directory = TemporaryDirectory()
        let kind = try await lb.failure("logbook.chart", ["kind": "pie", "path": .string(directory.file("x.png"))])
        #expect(kind.code == -32602)
        #expect(kind.message.contains("'kind'"), "\(kind.message)")
        let ext = try await lb.failure("logbook.chart", ["kind": "hours_by_month", "path": .string(directory.file("x.jpg"))])
        #expect(ext.code == -32602)
        #expect(ext.message.contains("'path'") && ext.message.contains(".png or .pdf"), "\(ext.message)")
        let folder = try await lb.failure("logbook.chart", ["kind": "hours_by_month", "path": "/nonexistent-folder/x.png"])
        #expect(folder.message.contains("path"), "\(folder.message)")
        let order = try await lb.failure(
            "logbook.chart", ["kind": "hours_by_month", "from": "2026-05-01", "to": "2026-04-01", "path": .string(directory.file("x.png"))])
        #expect(order.code == -32602)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing written")
        await lb.stop()
    }
}
