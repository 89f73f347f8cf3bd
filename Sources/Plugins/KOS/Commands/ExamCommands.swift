import Foundation
import PluginKit

/// `kos.exams {course?, mine?, sem?}`: a course's exams, mine only, or those of all my enrolled
/// courses; `registered` from my own exam list when I am logged in.
extension KOSService {
    func exams(_ params: Params) async throws -> Cached<KOSExamsAnswer> {
        let sem = try KOSQuery.semester(params[KOSParams.examSemester])
        let mine = params[KOSParams.mine] ?? false
        let course = try params[KOSParams.course].map { text throws(RPCError) in try KOSQuery.courseCode(text, param: KOSParams.course.name) }
        // A course's exams are public; mine, or those of all my courses, need the login.
        let username = mine || course == nil ? try await username(params[KOSParams.account]) : try await tokens.readyUsername()
        let key = ReadCache.key("exams", ["sem": .string(sem), "mine": .bool(mine), "course": course.map(JSONValue.string) ?? .null])
        return try await context.cache.read(account: username, key: key) {
            KOSExamsAnswer(exams: try await examRows(username: username, sem: sem, course: course, mine: mine))
        }
    }

    /// A course's exams, mine only, or those of all my enrolled courses (with a login), by start.
    func examRows(username: String?, sem: String, course: String? = nil, mine: Bool = false) async throws -> [KOSExam] {
        var registered: Set<String> = []
        var mineEntries: [AtomDocument.Entry] = []
        if let username {
            mineEntries = try await api(.user, account: username).atomEntries("students/\(username)/exams", query: [("sem", sem)] + localized)
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
        return entries.compactMap { KOSExam($0, registered: registered) }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    /// One sub-collection (`exams`, `events`) of each of the courses, read one course after the
    /// other.
    func coursesFeed(_ feed: String, of codes: [String], sem: String) async throws -> [AtomDocument.Entry] {
        let client = try await api(.publicData)
        var entries: [AtomDocument.Entry] = []
        for code in codes { entries += try await client.atomEntries("courses/\(code)/\(feed)", query: [("sem", sem)] + localized) }
        return entries
    }
}
