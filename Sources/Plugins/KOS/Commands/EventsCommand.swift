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
        guard let id = entry.id, let c = entry.content else { return nil }
        func minutes(_ name: String) -> String? { c.first(name).map { String($0.trimmedText.prefix(16)) } }
        func number(_ name: String) -> Int64? { c.first(name).flatMap { Int64($0.trimmedText) } }
        return KOSCourseEvent(
            id: id, course: c.first("course")?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:)),
            name: c.text("name", language: language), start: minutes("startDate"), end: minutes("endDate"), room: c.first("room")?.trimmedText,
            capacity: number("capacity"), occupied: number("occupied"))
    }
}
