import Foundation
import PluginKit

/// `kos.timetable {sem?, parity?}`: the slots of my parallels, one entry per slot, times from the
/// teaching-hour grid unless the slot carries its own.
extension KOSService {
    func timetable(_ params: Params) async throws -> JSONValue {
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        let wanted = params[KOSParams.parity] ?? "both"
        let username = try await username(params[KOSParams.account])
        let all = try await context.cache.read(account: username, key: ReadCache.key("timetable", ["sem": .string(sem)])) {
            ["slots": .array(try await timetableSlots(username, sem: sem))]
        }
        guard wanted != "both" else { return all }
        var filtered = all.objectValue ?? [:]
        filtered["slots"] = .array((all["slots"]?.arrayValue ?? []).filter { $0["parity"]?.stringValue == wanted || $0["parity"] == "both" })
        return .object(filtered)
    }

    func timetableSlots(_ username: String, sem: String) async throws -> [JSONValue] {
        let entries = try await api(.user, account: username).atomEntries("students/\(username)/parallels", query: [("sem", sem)] + localized)
        return Self.slots(entries, grid: grid, language: language)
    }

    static func slots(_ entries: [AtomDocument.Entry], grid: HourGrid, language: String) -> [JSONValue] {
        var slots: [JSONValue] = []
        for entry in entries {
            guard let c = entry.content else { continue }
            let course = c.first("course")
            let courseCode = course?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:))
            let teachers = (c.children("teacher") + (c.first("teachers")?.children("teacher") ?? [])).map(\.trimmedText).filter { !$0.isEmpty }
            let kind: JSONValue =
                switch c.first("parallelType")?.trimmedText {
                case "LECTURE": "lecture"
                case "TUTORIAL": "tutorial"
                case "LABORATORY": "lab"
                case let other?: .string(other.lowercased())
                case nil: .null
                }
            for slot in c.children("timetableSlot") {
                let day = slot.first("day").flatMap { Int($0.trimmedText) }
                let first = slot.first("firstHour").flatMap { Int($0.trimmedText) }
                let duration = slot.first("duration").flatMap { Int($0.trimmedText) } ?? 1
                // Explicit times win over the grid.
                let start = slot.first("startTime").map { String($0.trimmedText.prefix(5)) } ?? first.flatMap(grid.start(ofHour:))
                let end = slot.first("endTime").map { String($0.trimmedText.prefix(5)) } ?? first.flatMap { grid.end(ofHour: $0 + duration - 1) }
                let parity: String =
                    switch slot.first("parity")?.trimmedText {
                    case "ODD": "odd"
                    case "EVEN": "even"
                    default: "both"
                    }
                let slotTeachers = slot.children("teacher").map(\.trimmedText).filter { !$0.isEmpty }
                slots.append([
                    "day": day.map { .int(Int64($0)) } ?? .null, "start": start.map(JSONValue.string) ?? .null,
                    "end": end.map(JSONValue.string) ?? .null,
                    "course": courseCode.map(JSONValue.string) ?? .null, "course_name": course.map { .string($0.trimmedText) } ?? .null, "kind": kind,
                    "parallel": c.first("code").map { .string($0.trimmedText) } ?? .null, "parity": .string(parity),
                    "room": slot.first("room").map { .string($0.trimmedText) } ?? .null,
                    "teachers": .array((slotTeachers.isEmpty ? teachers : slotTeachers).map(JSONValue.string)),
                    "weeks": slot.first("weeks").map { .string($0.trimmedText) } ?? .null,
                ])
            }
        }
        return slots.sorted {
            ($0["day"]?.intValue ?? 9, $0["start"]?.stringValue ?? "", $0["course"]?.stringValue ?? "")
                < ($1["day"]?.intValue ?? 9, $1["start"]?.stringValue ?? "", $1["course"]?.stringValue ?? "")
        }
    }
}
