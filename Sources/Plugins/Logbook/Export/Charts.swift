import Foundation
import PictureKit
import PluginKit

/// The logbook's charts (`logbook.chart`, and a page of the PDF): hours by month, hours by
/// aircraft, and night and IFR time by month.
enum LogbookChart: String, CaseIterable, Sendable {
    case hoursByMonth = "hours_by_month"
    case hoursByAircraft = "hours_by_aircraft"
    case nightIFR = "night_ifr"

    static let names = allCases.map(\.rawValue)
    /// More months than this are shown by year (a 40-year logbook stays readable).
    static let monthsShown = 120
    /// The aircraft with the most hours; the rest are one bar, "others".
    static let aircraftShown = 24

    /// The chart of `entries` (flights only; FSTD sessions are not flight time).
    func chart(_ entries: [Entry]) -> BarChart {
        let flights = entries.filter { $0.kind == .flight }
        func hours(_ minutes: Int) -> Double { Double(minutes) / 60 }
        let total = flights.reduce(0) { $0 + $1[.total] }
        let totalNote = "total \(Minutes.hhmm(total)) in \(flights.count) flight\(flights.count == 1 ? "" : "s")"
        switch self {
        case .hoursByAircraft:
            var byAircraft: [String: Int] = [:]
            for f in flights { byAircraft[f.registration ?? "(none)", default: 0] += f[.total] }
            var ranked = byAircraft.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            if ranked.count > Self.aircraftShown {
                let rest = ranked[(Self.aircraftShown - 1)...].reduce(0) { $0 + $1.value }
                ranked = Array(ranked.prefix(Self.aircraftShown - 1)) + [("others", rest)]
            }
            return BarChart(
                title: "Flight time by aircraft", note: totalNote, unit: "h", categories: ranked.map(\.key),
                series: [.init("total", .blue, ranked.map { hours($0.value) })])
        case .hoursByMonth, .nightIFR:
            let periods = Self.periods(flights)
            var total = [Int](repeating: 0, count: periods.labels.count)
            var night = total
            var ifr = total
            for f in flights {
                let index = periods.index(f.date)
                total[index] += f[.total]
                night[index] += f[.night]
                ifr[index] += f[.ifr]
            }
            if self == .hoursByMonth {
                return BarChart(
                    title: "Flight time by \(periods.byYear ? "year" : "month")", note: totalNote, unit: "h", categories: periods.labels,
                    series: [.init("total", .blue, total.map(hours))])
            }
            return BarChart(
                title: "Night and IFR time by \(periods.byYear ? "year" : "month")",
                note: "night \(Minutes.hhmm(night.reduce(0, +))), IFR \(Minutes.hhmm(ifr.reduce(0, +)))", unit: "h", categories: periods.labels,
                series: [.init("night", .blue, night.map(hours)), .init("IFR", .orange, ifr.map(hours))])
        }
    }

    /// Every month (or year) from the first flight's to the last's, empty ones included.
    static func periods(_ flights: [Entry]) -> (labels: [String], byYear: Bool, index: (Day) -> Int) {
        guard let first = flights.map(\.date).min(), let last = flights.map(\.date).max() else { return ([], false, { _ in 0 }) }
        let (a, b) = (first.components, last.components)
        let months = (b.year - a.year) * 12 + b.month - a.month + 1
        if months > monthsShown {
            return ((a.year...b.year).map(String.init), true, { $0.components.year - a.year })
        }
        let labels = (0..<months).map { offset in
            let month = a.month - 1 + offset
            return String(format: "%04d-%02d", a.year + month / 12, month % 12 + 1)
        }
        return (
            labels, false,
            { day in
                let c = day.components
                return (c.year - a.year) * 12 + c.month - a.month
            }
        )
    }
}

extension LogbookService {
    func chart(_ params: Params) async throws -> ChartResult {
        let kind = LogbookChart(rawValue: try params[LogbookParams.chartKind]) ?? .hoursByMonth
        let path = try params[LogbookParams.chartPath]
        let target = try Picture.output(path, overwrite: params[FileOutput.overwrite] ?? false)
        let from = day(params, LogbookParams.chartFrom)
        let to = day(params, LogbookParams.chartTo)
        let entries = try await database.read { db in try Self.entries(db, from: from, to: to) }
        // Nothing to draw is said, not drawn: an empty chart would look like a chart of nothing flown.
        guard entries.contains(where: { $0.kind == .flight }) else {
            let period = from == nil && to == nil ? "in the logbook" : "from \(from?.description ?? "the start") to \(to?.description ?? "today")"
            throw RPCError.notFound("flights to chart \(period)", data: ["from": .day(from), "to": .day(to)])
        }
        let chart = kind.chart(entries)
        let bytes = try await runBlocking {
            do {
                return try Picture.write(to: target, width: 1000, height: 600, title: chart.title) { cr, _ in
                    chart.draw(cr, x: 30, y: 20, width: 940, height: 560)
                }
            } catch let failure as Picture.Failure {
                throw LogbookError.file(path, failure.description)
            }
        }
        let total = chart.series.first?.values.reduce(0, +) ?? 0
        return ChartResult(
            path: path, kind: kind.rawValue, format: target.format.rawValue, bytes: bytes, bars: chart.categories.count,
            totalMinutes: Int((total * 60).rounded()))
    }
}
