import Foundation
import PluginKit

/// `kos.events {sem?}`: the course events (tests and similar) of my enrolled courses.
extension KOSService {
    /// My enrolled courses' events, or one course's (any course: its events are public to a student).
    func events(_ params: Params) async throws -> Cached<EventsAnswer> {
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        let username = try await username(params[KOSParams.account])
        let course = try params[KOSParams.course].map { text throws(RPCError) in try KOSQuery.courseCode(text, param: KOSParams.course.name) }
        let key = ReadCache.key("events", ["sem": .string(sem), "course": course.map(JSONValue.string) ?? .null])
        return try await context.cache.read(account: username, key: key) {
            EventsAnswer(events: try await eventRows(username, sem: sem, course: course))
        }
    }

    func eventRows(_ username: String, sem: String, course: String? = nil) async throws -> [KOSCourseEvent] {
        let codes: [String]
        if let course { codes = [course] } else { codes = try await enrolledCodes(username, sem: sem) }
        return try await coursesFeed("events", of: codes, sem: sem).compactMap {
            [language] in Self.event($0, language: language)
        }.sorted {
            ($0.start ?? "", $0.id) < ($1.start ?? "", $1.id)
        }
    }

    static func event(_ entry: AtomDocument.Entry, language: String) -> KOSCourseEvent? {
        guard let id = entry.id, let row = entry.row(KOSRow.Event.self, language: language) else { return nil }
        return KOSCourseEvent(
            id: id, course: row.course?.code, name: row.name, start: row.startDate.map { String($0.prefix(16)) },
            end: row.endDate.map { String($0.prefix(16)) }, room: row.room, capacity: row.capacity, occupied: row.occupied,
            note: row.note.flatMap { $0.isEmpty ? nil : $0 }, signinDeadline: row.signinDeadline.map { String($0.prefix(10)) })
    }
}
