import Foundation
import PluginKit

/// `kos.courses {sem?}` and `kos.results`: my enrolments, internal ones completed with their
/// course's credits and completion (one `/courses` query for all of them), external ones as
/// they come.
extension KOSService {
    func courses(_ params: Params) async throws -> Cached<CoursesAnswer> {
        let sem = try KOSQuery.semester(params[KOSParams.anySemester])
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("courses", ["sem": .string(sem)])) {
            let rows = try await enrolments(username, sem: sem)
            return CoursesAnswer(courses: rows, credits: rows.reduce(0) { $0 + ($1.credits ?? 0) })
        }
    }

    func results(_ params: Params) async throws -> Cached<ResultsAnswer> {
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("results")) {
            let rows = try await enrolments(username, sem: "none")
            let bySemester = Dictionary(grouping: rows) { $0.semester ?? "" }
            return ResultsAnswer(
                semesters: bySemester.keys.sorted().map { ResultsAnswer.Semester(summary: .init(bySemester[$0]!), semester: $0) }, total: .init(rows))
        }
    }

    func enrolledEntries(_ username: String, sem: String) async throws -> [AtomDocument.Entry] {
        try await api(.user, account: username).atomEntries("students/\(username)/enrolledCourses", query: [("sem", sem)] + localized)
    }

    /// The course code of an internal enrolment (an external one has no course reference).
    static func internalCode(_ entry: AtomDocument.Entry) -> String? {
        entry.row(KOSRow.Enrolment.self, language: "")?.course?.code
    }

    /// The codes of my enrolled courses: only the course references are asked for (`fields=`),
    /// not whole enrolments in every language.
    func enrolledCodes(_ username: String, sem: String) async throws -> [String] {
        try await api(.user, account: username).atomEntries(
            "students/\(username)/enrolledCourses", query: [("sem", sem), ("fields", "entry(content(course))")]
        )
        .compactMap(Self.internalCode)
    }

    func enrolments(_ username: String, sem: String) async throws -> [KOSEnrolment] {
        let client = try await api(.user, account: username)
        let entries = try await enrolledEntries(username, sem: sem)
        let internalCodes = Set(entries.compactMap(Self.internalCode))
        var details: [String: KOSRow.Course] = [:]
        if !internalCodes.isEmpty {
            let query = internalCodes.sorted().map { "code==\(KOSQuery.quoted($0))" }.joined(separator: ",")
            for course in try await client.atomEntries("courses", query: [("query", query)] + localized) {
                if let row = course.row(KOSRow.Course.self, language: language), let code = row.code { details[code] = row }
            }
        }
        var rows: [KOSEnrolment] = []
        for entry in entries {
            guard let row = entry.row(KOSRow.Enrolment.self, language: language) else { continue }
            let semester = row.semester.map { $0.code ?? $0.text }
            if entry.type == "externalCourseEnrollment" {
                rows.append(
                    KOSEnrolment(
                        code: nil, name: row.name, credits: row.credits, completion: row.completion?.lowercased(), completed: row.completed,
                        assessment: row.assessment, semester: semester, external: true))
            } else {
                let code = row.course?.code
                let detail = code.flatMap { details[$0] }
                rows.append(
                    KOSEnrolment(
                        code: code, name: detail?.name ?? row.course?.text, credits: detail?.credits, completion: detail?.completion?.lowercased(),
                        completed: row.completed, assessment: row.assessment, semester: semester, external: false))
            }
        }
        return rows.sorted { ($0.semester ?? "", $0.code ?? "~") < ($1.semester ?? "", $1.code ?? "~") }
    }
}

/// `kos.course {code, sem?}`: one course with its detail texts.
extension KOSService {
    func course(_ params: Params) async throws -> Cached<CourseDetail> {
        let code = try KOSQuery.courseCode(try params[KOSParams.code], param: KOSParams.code.name)
        let sem = try KOSQuery.semester(params[KOSParams.courseSemester], default: "none")
        return try await context.cache.read(account: nil, key: ReadCache.key("course", ["code": .string(code), "sem": .string(sem)])) {
            let entry = try await entry(.publicData, "courses/\(code)", query: [("sem", sem), ("detail", "1")], what: "course \(code) (in \(sem))")
            guard let row = entry.row(KOSRow.Course.self, language: language) else { throw KOSError.badAnswer("a course without content") }
            return CourseDetail(row, code: code)
        }
    }
}
