import Foundation
import PluginKit

/// KOSeek's "Kontrola studijního plánu": my study plan's course groups
/// (`/studyPlans/{code}/coursesGroups`) checked against my completed courses, and the plan's
/// courses I can still take in a semester. A group's element names (`role`, `creditsMinLimit`,
/// `coursesMinLimit`, `courses`) are confirmed from a public KOSapi client and noted in
/// `Tests/peers/kos-reference-additions.md`.
extension KOSService {
    /// One group of the plan as KOSapi gives it.
    struct CourseGroup {
        var code: String
        var name: String?
        var role: String
        var creditsMin: Int64?
        var coursesMin: Int64?
        var courses: [(code: String, name: String?)]
    }

    /// KOS's group roles: Z (compulsory), PV (compulsory elective: some of them), V (optional).
    /// The letters are KOS's own; one not known is shown as it came.
    static func role(_ code: String) -> String {
        switch code.uppercased() {
        case "Z": "compulsory"
        case "PV": "elective"
        case "V": "optional"
        default: code.lowercased()
        }
    }

    /// The plan's code and name, from my student record's `studyPlan` link.
    func studyPlan(_ username: String) async throws -> (code: String, name: String?) {
        let entry = try await entry(.user, account: username, "students/\(username)", what: "student \(username)")
        guard let link = entry.row(KOSRow.Student.self, language: language)?.studyPlan, let code = link.code, !code.isEmpty, code.count <= 20,
            code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { throw KOSError.badAnswer("my student record names no study plan") }
        return (code, link.text.isEmpty ? nil : link.text)
    }

    func courseGroups(_ plan: String, username: String) async throws -> [CourseGroup] {
        let entries = try await api(.user, account: username).atomEntries("studyPlans/\(plan)/coursesGroups", query: localized)
        return entries.compactMap { entry in
            guard let row = entry.row(KOSRow.CourseGroup.self, language: language), let code = row.code else { return nil }
            let courses = (row.courses?.course ?? []).compactMap { link -> (String, String?)? in
                guard let course = link.code else { return nil }
                return (course, link.text.isEmpty ? nil : link.text)
            }
            return CourseGroup(
                code: code, name: row.name, role: row.role ?? "", creditsMin: row.creditsMinLimit, coursesMin: row.coursesMinLimit, courses: courses)
        }
    }

    /// `kos.studyplan`: per group its role, the credits and courses it asks for and those I
    /// have, and the compulsory courses still missing.
    func studyPlanCheck(_ params: Params) async throws -> Cached<StudyPlanCheck> {
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("studyplan")) {
            let plan = try await studyPlan(username)
            let groups = try await courseGroups(plan.code, username: username)
            let enrolled = try await enrolments(username, sem: "none")
            // A course completed in any semester counts once, with the credits KOS gives it.
            var completed: [String: Int64] = [:]
            for row in enrolled where row.completed { if let code = row.code { completed[code] = row.credits ?? 0 } }
            let rows = groups.map { group in
                let done = group.courses.filter { completed[$0.code] != nil }
                let credits = done.reduce(Int64(0)) { $0 + (completed[$1.code] ?? 0) }
                let role = Self.role(group.role)
                let missing = role == "compulsory" ? group.courses.filter { completed[$0.code] == nil }.map(\.code) : []
                return StudyPlanCheck.Group(
                    code: group.code, name: group.name, role: role, creditsRequired: group.creditsMin, creditsObtained: credits,
                    creditsShort: max(0, (group.creditsMin ?? 0) - credits), coursesRequired: group.coursesMin,
                    coursesCompleted: Int64(done.count), missing: missing)
            }
            return StudyPlanCheck(studyPlan: .init(code: plan.code, name: plan.name), groups: rows, complete: rows.allSatisfy(\.isComplete))
        }
    }

    /// How many of the plan's courses one call asks KOSapi about.
    static let maxAvailableCourses = 100

    /// `kos.courses.available {sem}`: the plan's courses not yet completed that are offered in
    /// `sem` (KOSapi answers a course asked for in a semester it is not taught with 404).
    func coursesAvailable(_ params: Params) async throws -> Cached<AvailableCourses> {
        let sem = try KOSQuery.semester(try params[KOSParams.requiredSemester])
        guard sem != "none" else { throw KOSParams.semester.invalid("name one semester: a code such as B252, or current, next or prev") }
        let username = try await username(params[KOSParams.account])
        return try await context.cache.read(account: username, key: ReadCache.key("courses.available", ["sem": .string(sem)])) {
            let plan = try await studyPlan(username)
            let groups = try await courseGroups(plan.code, username: username)
            let done = Set(try await enrolments(username, sem: "none").filter(\.completed).compactMap(\.code))
            var candidates: [(code: String, group: CourseGroup)] = []
            var seen = Set<String>()
            for group in groups {
                for course in group.courses where !done.contains(course.code) && seen.insert(course.code).inserted {
                    candidates.append((course.code, group))
                }
            }
            var courses: [AvailableCourses.Course] = []
            for candidate in candidates.prefix(Self.maxAvailableCourses) {
                let course: KOSRow.Course?
                do {
                    course = try await entry(.publicData, "courses/\(candidate.code)", query: [("sem", sem)], what: "course \(candidate.code)")
                        .row(KOSRow.Course.self, language: language)
                } catch let error as RPCError where error.code == RPCErrorCode.notFound {
                    continue  // not taught in that semester
                }
                courses.append(
                    AvailableCourses.Course(
                        code: candidate.code, name: course?.name, credits: course?.credits, group: candidate.group.code,
                        role: Self.role(candidate.group.role)))
            }
            return AvailableCourses(semester: sem, courses: courses, truncated: candidates.count > Self.maxAvailableCourses)
        }
    }
}
