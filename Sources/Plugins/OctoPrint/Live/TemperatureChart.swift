import Foundation
import PictureKit
import PluginKit

extension OctoPrintService {
    /// `octoprint.temperature.chart`: the last minutes of each heater (actual solid, target
    /// dashed) as a PNG or PDF, from what the live monitor has seen; when it has seen nothing
    /// yet (just added, or its socket not open), from OctoPrint's own history.
    func temperatureChart(_ params: Params) async throws -> TemperatureChartSaved {
        let path = try params[OctoPrintParams.chartPath]
        let target = try Picture.output(path, overwrite: params[FileOutput.overwrite] ?? false)
        let minutes = Int(params[OctoPrintParams.chartMinutes])
        let printer = try PrinterStore.resolve(try await printers(), params[OctoPrintParams.printer])
        let end = context.clock.now
        let start = end.addingTimeInterval(-Double(minutes) * 60)
        var readings = await live.watch(for: printer.name)?.temperatures.readings(since: start) ?? []
        var source = TemperatureChartSaved.Source.monitor
        if readings.count < 2 {
            let c = try await client(for: printer)
            let answer = try await c.send(
                try await c.makeRequest(.GET, "/api/printer", query: [("history", "true"), ("limit", String(minutes * 60))]))
            if answer.status != 409 { try c.check(answer, conflict: .other) }
            readings = TemperatureHistory.readings(answer.json?["temperature"]?["history"]).filter { $0.time >= start }
            source = .octoprint
        }
        guard !readings.isEmpty else {
            throw RPCError.notFound(
                "temperature readings of \(printer.name) in the last \(minutes) min (is the printer connected?)",
                data: ["printer": .string(printer.name)])
        }
        let chart = Self.temperatureChart(printer.name, readings, start: start, end: end)
        let bytes = try await Picture.written(to: target, width: 1000, height: 600, title: chart.title) { cr, _ in
            chart.draw(cr, x: 30, y: 20, width: 940, height: 560)
        }
        return TemperatureChartSaved(
            path: path, bytes: bytes, printer: printer.name, format: target.format, readings: readings.count,
            heaters: chart.series.filter { !$0.dashed }.map(\.name), from: ISO8601.string(readings[0].time),
            to: ISO8601.string(readings[readings.count - 1].time), source: source)
    }

    /// Each heater's actual line, and its target dashed where it has one.
    static func temperatureChart(_ printer: String, _ readings: [TemperatureHistory.Reading], start: Date, end: Date) -> LineChart {
        let names = Set(readings.flatMap(\.heaters.keys)).sorted { a, b in
            let order = ["tool0", "tool1", "bed", "chamber"]
            return (order.firstIndex(of: a) ?? 99, a) < (order.firstIndex(of: b) ?? 99, b)
        }
        let colours: [String: Colour] = ["tool0": .red, "tool1": .orange, "bed": .blue, "chamber": .green]
        var series: [LineChart.Series] = []
        for name in names {
            let colour = colours[name] ?? .grey
            let actual = readings.compactMap { r in r.heaters[name].map { (r.time.timeIntervalSince(start), $0.actual) } }
            series.append(.init(name, colour, actual))
            let target = readings.compactMap { r in r.heaters[name]?.target.map { (r.time.timeIntervalSince(start), $0) } }
            if target.contains(where: { $0.1 > 0 }) { series.append(.init("\(name) target", colour, dashed: true, target)) }
        }
        return LineChart(title: "\(printer): temperatures", unit: "°C", span: end.timeIntervalSince(start), series: series)
    }
}
