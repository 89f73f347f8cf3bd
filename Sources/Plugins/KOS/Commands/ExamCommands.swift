import Foundation
import HostCore

/// `kos.exams {course?, mine?, sem?}`: a course's exams, mine only, or those of all my enrolled
/// courses; `registered` from my own exam list when I am logged in.
extension KOSService {
    func exams(_ params: Params) async throws -> JSONValue {
        let sem = try KOSQuery.semester(params[KOSParams.examSemester])
        let mine = params[KOSParams.mine] ?? false
        let course = try params[KOSParams.course].map { text throws(RPCError) in try KOSQuery.courseCode(text, param: "course") }
        // A course's exams are public; mine, or those of all my courses, need the login.
        let username = mine || course == nil ? try await username() : try await tokens.readyUsername()
        let key = ReadCache.key("exams", ["sem": .string(sem), "mine": .bool(mine), "course": course.map(JSONValue.string) ?? .null])
        return try await context.cache.read(account: username, key: key) {
            ["exams": .array(try await examRows(username: username, sem: sem, course: course, mine: mine))]
        }
    }

    /// A course's exams, mine only, or those of all my enrolled courses (with a login), by start.
    func examRows(username: String?, sem: String, course: String? = nil, mine: Bool = false) async throws -> [JSONValue] {
        var registered: Set<String> = []
        var mineEntries: [AtomDocument.Entry] = []
        if let username {
            mineEntries = try await api(.user).atomEntries("students/\(username)/exams", query: [("sem", sem)] + localized)
            registered = Set(mineEntries.compactMap(\.id))
        }
        let entries: [AtomDocument.Entry]
        if let course {
            entries = try await api(.publicData).atomEntries("courses/\(course)/exams", query: [("sem", sem)] + localized)
        } else if mine {
            entries = mineEntries
        } else if let username {
            entries = try await coursesFeed("exams", of: try await enrolledCodes(username, sem: sem), sem: sem)
        } else {
            entries = []  // the command refuses this: all my courses need a login
        }
        return entries.compactMap { Self.exam($0, registered: registered) }.sorted {
            ($0["start"]?.stringValue ?? "", $0["id"]?.stringValue ?? "") < ($1["start"]?.stringValue ?? "", $1["id"]?.stringValue ?? "")
        }
    }

    /// One sub-collection (`exams`, `events`) of each of the courses, read one course after the
    /// other.
    func coursesFeed(_ feed: String, of codes: [String], sem: String) async throws -> [AtomDocument.Entry] {
        let client = try await api(.publicData)
        var entries: [AtomDocument.Entry] = []
        for code in codes { entries += try await client.atomEntries("courses/\(code)/\(feed)", query: [("sem", sem)] + localized) }
        return entries
    }

    static func exam(_ entry: AtomDocument.Entry, registered: Set<String>) -> JSONValue? {
        // An exam without its start is of no use to anyone (and would sort and export wrongly).
        guard let id = entry.id, !id.isEmpty, let c = entry.content, c.nonEmptyText("startDate") != nil else { return nil }
        func minutes(_ name: String) -> JSONValue { c.first(name).map { .string(String($0.trimmedText.prefix(16))) } ?? .null }
        let capacity = c.first("capacity").flatMap { Int64($0.trimmedText) }
        let occupied = c.first("occupied").flatMap { Int64($0.trimmedText) }
        let examiners = (c.first("examiners")?.children("teacher") ?? []) + c.children("examiner")
        return [
            "id": .string(id),
            "course": c.first("course")?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:)).map(JSONValue.string) ?? .null,
            "start": minutes("startDate"), "end": minutes("endDate"), "room": c.first("room").map { .string($0.trimmedText) } ?? .null,
            "capacity": capacity.map(JSONValue.int) ?? .null, "occupied": occupied.map(JSONValue.int) ?? .null,
            "full": .bool(capacity.map { cap in (occupied ?? 0) >= cap } ?? false),
            "kind": c.first("termType")?.trimmedText == "ASSESSMENT" ? "assessment" : "exam",
            "examiners": .array(examiners.map { .string($0.trimmedText) }),
            "signin_deadline": c.first("signinDeadline").map { .string($0.trimmedText) } ?? .null,
            "cancel_deadline": c.first("cancelDeadline").map { .string($0.trimmedText) } ?? .null,
            "registered": .bool(registered.contains(id)),
        ]
    }
}
