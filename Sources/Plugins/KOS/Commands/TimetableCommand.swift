import Foundation
import PluginKit

/// `kos.timetable {sem?, parity?}`: the slots of my parallels, one entry per slot, times from the
/// teaching-hour grid unless the slot carries its own.
extension KOSService {
    func timetable(_ params: Params) async throws -> Cached<SlotsAnswer> {
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        let wanted = params[KOSParams.parity] ?? "both"
        let username = try await username(params[KOSParams.account])
        let all = try await context.cache.read(account: username, key: ReadCache.key("timetable", ["sem": .string(sem)])) {
            SlotsAnswer(slots: try await timetableSlots(username, sem: sem))
        }
        guard wanted != "both" else { return all }
        return all.map { SlotsAnswer(slots: $0.slots.filter { $0.parity.rawValue == wanted || $0.parity == .both }) }
    }

    func timetableSlots(_ username: String, sem: String) async throws -> [KOSTimetableSlot] {
        let entries = try await api(.user, account: username).atomEntries("students/\(username)/parallels", query: [("sem", sem)] + localized)
        return Self.slots(entries, grid: grid, language: language)
    }

    static func slots(_ entries: [AtomDocument.Entry], grid: HourGrid, language: String) -> [KOSTimetableSlot] {
        var slots: [KOSTimetableSlot] = []
        for entry in entries {
            guard let parallel = entry.row(KOSRow.Parallel.self, language: language) else { continue }
            let teachers = parallel.allTeachers
            let kind: String? =
                switch parallel.parallelType {
                case "LECTURE": "lecture"
                case "TUTORIAL": "tutorial"
                case "LABORATORY": "lab"
                case let other?: other.lowercased()
                case nil: nil
                }
            for slot in parallel.timetableSlot {
                let times = slot.times(grid)
                slots.append(
                    KOSTimetableSlot(
                        day: slot.day, start: times.start, end: times.end, course: parallel.course?.code, courseName: parallel.course?.text,
                        kind: kind, parallel: parallel.code, parity: slot.parityValue, room: slot.room,
                        teachers: slot.teacher.isEmpty ? teachers : slot.teacher, weeks: slot.weeks))
            }
        }
        return slots.sorted { $0.sortKey < $1.sortKey }
    }
}
