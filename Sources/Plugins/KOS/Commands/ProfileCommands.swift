import Foundation
import PluginKit

/// `kos.semester` (public data) and `kos.profile` (the logged-in student).
extension KOSService {
    func semester(_ params: Params) async throws -> Cached<SemesterAnswer> {
        try await semester(params[KOSParams.which] ?? "current")
    }

    func semester(_ which: String, fresherThan: Duration? = nil) async throws -> Cached<SemesterAnswer> {
        try await context.cache.read(
            account: nil, key: ReadCache.key("semester", ["which": .string(which)]), fresherThan: fresherThan
        ) {
            let entry = try await entry(.publicData, "semesters/\(which)", what: "semester \(which)")
            guard let c = entry.content else { throw KOSError.badAnswer("a semester without content") }
            guard let code = c.nonEmptyText("code"), let start = c.nonEmptyText("startDate"), let end = c.nonEmptyText("endDate") else {
                let missing = ["code", "startDate", "endDate"].filter { c.nonEmptyText($0) == nil }
                throw KOSError.badAnswer("semester \(which) has no \(missing.map { "<\($0)>" }.joined(separator: ", "))")
            }
            return SemesterAnswer(code: code, name: c.text("name", language: language), start: start, end: end)
        }
    }

    func profile(_ params: Params) async throws -> Cached<StudentProfile> {
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("profile")) {
            let entry = try await entry(.user, account: username, "students/\(username)", what: "student \(username)")
            guard let c = entry.content else { throw KOSError.badAnswer("a student without content") }
            return StudentProfile(c, username: username)
        }
    }
}
