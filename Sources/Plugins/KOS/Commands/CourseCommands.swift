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
                semesters: bySemester.keys.sorted().map { ResultsAnswer.Summary(bySemester[$0]!, semester: $0) }, total: .init(rows))
        }
    }

    func enrolledEntries(_ username: String, sem: String) async throws -> [AtomDocument.Entry] {
        try await api(.user, account: username).atomEntries("students/\(username)/enrolledCourses", query: [("sem", sem)] + localized)
    }

    /// The course code of an internal enrolment (an external one has no course reference).
    static func internalCode(_ entry: AtomDocument.Entry) -> String? {
        entry.content?.first("course")?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:))
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
        var details: [String: XMLNode] = [:]
        if !internalCodes.isEmpty {
            let query = internalCodes.sorted().map { "code==\(KOSQuery.quoted($0))" }.joined(separator: ",")
            for course in try await client.atomEntries("courses", query: [("query", query)] + localized) {
                if let c = course.content, let code = c.first("code")?.trimmedText { details[code] = c }
            }
        }
        var rows: [KOSEnrolment] = []
        for entry in entries {
            guard let c = entry.content else { continue }
            let semester = c.first("semester")?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:)) ?? c.first("semester")?.trimmedText
            let completed = c.first("completed")?.trimmedText == "true"
            let assessment = c.first("assessment")?.trimmedText == "true"
            if entry.type == "externalCourseEnrollment" {
                rows.append(
                    KOSEnrolment(
                        code: nil, name: c.text("name", language: language), credits: c.first("credits").flatMap { Int64($0.trimmedText) },
                        completion: c.first("completion")?.trimmedText.lowercased(), completed: completed, assessment: assessment, semester: semester,
                        external: true))
            } else {
                let reference = c.first("course")
                let code = reference?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:))
                let detail = code.flatMap { details[$0] }
                rows.append(
                    KOSEnrolment(
                        code: code, name: detail?.text("name", language: language) ?? reference?.trimmedText,
                        credits: detail?.first("credits").flatMap { Int64($0.trimmedText) },
                        completion: detail?.first("completion")?.trimmedText.lowercased(),
                        completed: completed, assessment: assessment, semester: semester, external: false))
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
            guard let c = entry.content else { throw KOSError.badAnswer("a course without content") }
            return CourseDetail(c, code: code, language: language)
        }
    }
}
