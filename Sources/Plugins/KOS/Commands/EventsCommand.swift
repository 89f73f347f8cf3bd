import Foundation
import PluginKit

/// `kos.events {sem?}`: the course events (tests and similar) of my enrolled courses.
extension KOSService {
    func events(_ params: Params) async throws -> Cached<EventsAnswer> {
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("events", ["sem": .string(sem)])) {
            EventsAnswer(events: try await eventRows(username, sem: sem))
        }
    }

    func eventRows(_ username: String, sem: String) async throws -> [KOSCourseEvent] {
        try await coursesFeed("events", of: try await enrolledCodes(username, sem: sem), sem: sem).compactMap {
            [language] in Self.event($0, language: language)
        }.sorted {
            ($0.start ?? "", $0.id) < ($1.start ?? "", $1.id)
        }
    }

    static func event(_ entry: AtomDocument.Entry, language: String) -> KOSCourseEvent? {
        guard let id = entry.id, let row = entry.row(KOSRow.Event.self, language: language) else { return nil }
        return KOSCourseEvent(
            id: id, course: row.course?.code, name: row.name, start: row.startDate.map { String($0.prefix(16)) },
            end: row.endDate.map { String($0.prefix(16)) }, room: row.room, capacity: row.capacity, occupied: row.occupied)
    }
}
