import Foundation
import PluginKit

/// `kos.semester` (public data) and `kos.profile` (the logged-in student).
extension KOSService {
    func semester(_ params: Params) async throws -> Cached<SemesterShown> {
        try await semester(params[KOSParams.which] ?? "current").map { answer in
            SemesterShown(semester: answer, schedule: answer.startDay.map { schedule(code: answer.code, kosStart: $0) })
        }
    }

    func semester(_ which: String, fresherThan: Duration? = nil) async throws -> Cached<SemesterAnswer> {
        try await context.cache.read(
            account: nil, key: ReadCache.key("semester", ["which": .string(which)]), fresherThan: fresherThan
        ) {
            let entry = try await entry(.publicData, "semesters/\(which)", what: "semester \(which)")
            guard let row = entry.row(KOSRow.Semester.self, language: language) else { throw KOSError.badAnswer("a semester without content") }
            guard let code = row.code, let start = row.startDate, let end = row.endDate else {
                let missing = [("code", row.code), ("startDate", row.startDate), ("endDate", row.endDate)].filter { $0.1 == nil }.map(\.0)
                throw KOSError.badAnswer("semester \(which) has no \(missing.map { "<\($0)>" }.joined(separator: ", "))")
            }
            return SemesterAnswer(code: code, name: row.name, start: start, end: end)
        }
    }

    func profile(_ params: Params) async throws -> Cached<StudentProfile> {
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("profile")) {
            let entry = try await entry(.user, account: username, "students/\(username)", what: "student \(username)")
            guard let row = entry.row(KOSRow.Student.self, language: language) else { throw KOSError.badAnswer("a student without content") }
            return StudentProfile(row, username: username)
        }
    }
}
