import Foundation
import PluginKit

/// `kos.events {sem?}`: the course events (tests and similar) of my enrolled courses.
extension KOSService {
    func events(_ params: Params) async throws -> JSONValue {
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("events", ["sem": .string(sem)])) {
            ["events": .array(try await eventRows(username, sem: sem))]
        }
    }

    func eventRows(_ username: String, sem: String) async throws -> [JSONValue] {
        try await coursesFeed("events", of: try await enrolledCodes(username, sem: sem), sem: sem).compactMap(event).sorted {
            ($0["start"]?.stringValue ?? "", $0["id"]?.stringValue ?? "") < ($1["start"]?.stringValue ?? "", $1["id"]?.stringValue ?? "")
        }
    }

    func event(_ entry: AtomDocument.Entry) -> JSONValue? {
        guard let id = entry.id, let c = entry.content else { return nil }
        func minutes(_ name: String) -> JSONValue { c.first(name).map { .string(String($0.trimmedText.prefix(16))) } ?? .null }
        func number(_ name: String) -> JSONValue { c.first(name).flatMap { Int64($0.trimmedText) }.map(JSONValue.int) ?? .null }
        return [
            "id": .string(id),
            "course": c.first("course")?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:)).map(JSONValue.string) ?? .null,
            "name": c.text("name", language: language).map(JSONValue.string) ?? .null, "start": minutes("startDate"), "end": minutes("endDate"),
            "room": c.first("room").map { .string($0.trimmedText) } ?? .null, "capacity": number("capacity"), "occupied": number("occupied"),
        ]
    }
}
