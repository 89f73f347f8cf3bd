import Foundation
import PluginKit

/// The OctoPrint part of `today` (for today only: a print is now): each printer that is printing
/// or paused, with its progress and estimated finish. A printer that cannot be reached is left
/// out: switched off is a printer's normal state, not news of the day.
extension OctoPrintService: DayContributing {
    public func dayItems(_ query: DayQuery) async throws -> [DayItem] {
        guard query.date == DateOnly(query.now, in: query.zone) else { return [] }
        let printers = try await printers().filter { $0.problem == nil }
        return await withTaskGroup(of: DayItem?.self) { group in
            for printer in printers {
                group.addTask { try? await self.runningPrint(printer, now: query.now) }
            }
            var items: [DayItem] = []
            for await item in group { if let item { items.append(item) } }
            return items
        }
    }

    func runningPrint(_ printer: Printer, now: Date) async throws -> DayItem? {
        let job = try await client(for: printer).call(.GET, "/api/job").json ?? .null
        guard let state = job["state"]?.stringValue, state.hasPrefix("Printing") || state.hasPrefix("Paused") else { return nil }
        let file = job["job"]?["file"]?["display"]?.stringValue ?? job["job"]?["file"]?["name"]?.stringValue ?? "a print"
        let left = job["progress"]?["printTimeLeft"]?.doubleValue
        let done = job["progress"]?["completion"]?.doubleValue
        var detail = [state]
        if let done { detail.append("\(Int(done.rounded())) % done") }
        if let left { detail.append("\(Self.hoursMinutes(left)) left") }
        return DayItem(
            kind: .print, title: "\(printer.name): \(file)", start: left.map { now.addingTimeInterval($0) }, place: printer.name,
            detail: detail.joined(separator: ", "))
    }

    /// "1:05" for 65 minutes.
    static func hoursMinutes(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return String(format: "%d:%02d", minutes / 60, minutes % 60)
    }
}
