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
            guard let c = entry.content else { continue }
            let course = c.first("course")
            let courseCode = course?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:))
            let teachers = (c.children("teacher") + (c.first("teachers")?.children("teacher") ?? [])).map(\.trimmedText).filter { !$0.isEmpty }
            let kind: String? =
                switch c.first("parallelType")?.trimmedText {
                case "LECTURE": "lecture"
                case "TUTORIAL": "tutorial"
                case "LABORATORY": "lab"
                case let other?: other.lowercased()
                case nil: nil
                }
            for slot in c.children("timetableSlot") {
                let day = slot.first("day").flatMap { Int($0.trimmedText) }
                let first = slot.first("firstHour").flatMap { Int($0.trimmedText) }
                let duration = slot.first("duration").flatMap { Int($0.trimmedText) } ?? 1
                // Explicit times win over the grid.
                let start = slot.first("startTime").map { String($0.trimmedText.prefix(5)) } ?? first.flatMap(grid.start(ofHour:))
                let end = slot.first("endTime").map { String($0.trimmedText.prefix(5)) } ?? first.flatMap { grid.end(ofHour: $0 + duration - 1) }
                let parity: KOSTimetableSlot.Parity =
                    switch slot.first("parity")?.trimmedText {
                    case "ODD": .odd
                    case "EVEN": .even
                    default: .both
                    }
                let slotTeachers = slot.children("teacher").map(\.trimmedText).filter { !$0.isEmpty }
                slots.append(
                    KOSTimetableSlot(
                        day: day.map { Int64($0) }, start: start, end: end, course: courseCode, courseName: course?.trimmedText, kind: kind,
                        parallel: c.first("code")?.trimmedText, parity: parity, room: slot.first("room")?.trimmedText,
                        teachers: slotTeachers.isEmpty ? teachers : slotTeachers, weeks: slot.first("weeks")?.trimmedText))
            }
        }
        return slots.sorted { $0.sortKey < $1.sortKey }
    }
}
