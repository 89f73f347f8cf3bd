import Foundation
import PluginKit

/// Timetable, exam terms and registration, grades and results.
extension StagService {
    /// `KAT/CODE`, as results show subjects.
    static func subjectFilter(_ params: Params) throws(RPCError) -> String? {
        guard let subject = params[StagParams.subject] else { return nil }
        let parts = subject.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }) else {
            throw StagParams.subject.invalid("'\(subject)' is not a subject as KAT/CODE (for example KIV/UPA)")
        }
        return subject.uppercased()
    }

    // MARK: Timetable

    func timetable(_ params: Params) async throws -> Cached<TimetableAnswer> {
        let monday = today.adding(days: -today.weekdayFromMonday)
        let from = params[StagParams.from] ?? monday
        let to = params[StagParams.to] ?? (params[StagParams.from] == nil ? monday.adding(days: 6) : from.adding(days: 6))
        guard from <= to else { throw StagParams.to.invalid("\(to) is before from (\(from))") }
        guard to <= from.adding(days: 400) else { throw StagParams.to.invalid("the window is longer than 400 days") }
        return try await timetable(from: from, to: to, role: params[StagParams.role] ?? "all", account: params[StagParams.account])
    }

    /// The dated events of every role asked for (`all`, `student` or `teacher`), read through the cache.
    func timetable(from: DateOnly, to: DateOnly, role wanted: String, account: String?) async throws -> Cached<TimetableAnswer> {
        let session = try await session(account)
        let roles = try Self.timetableRoles(session, wanted)
        let key: [String: JSONValue] = ["from": .string(from.description), "to": .string(to.description), "role": .string(wanted)]
        return try await cachedModel(session, "timetable", key) {
            TimetableAnswer(events: try await timetableEvents(session, roles: roles, from: from, to: to))
        }
    }

    static func timetableRoles(_ session: StagSession, _ wanted: String) throws(RPCError) -> [(StagRole, String)] {
        switch wanted {
        case "student": return [(try session.student(), "student")]
        case "teacher": return [(try session.teacher(), "teacher")]
        default:
            let roles =
                (session.roles.first(where: \.isStudent).map { [($0, "student")] } ?? [])
                + (session.roles.first(where: \.isTeacher).map { [($0, "teacher")] } ?? [])
            guard !roles.isEmpty else { throw StagError.noRole(session.account, "student or teacher").rpcError }
            return roles
        }
    }

    func timetableEvents(_ session: StagSession, roles: [(StagRole, String)], from: DateOnly, to: DateOnly) async throws -> [TimetableEvent] {
        var events: [TimetableEvent] = []
        for (role, label) in roles {
            let (operation, who): (String, (String, String)) =
                label == "teacher"
                ? ("rozvrhy/getRozvrhByUcitel", ("ucitIdno", String(role.teacherID ?? 0)))
                : ("rozvrhy/getRozvrhByStudent", ("osCislo", role.studentID ?? ""))
            let rows = try await session.client.rows(
                operation,
                [
                    who, ("stagUser", role.userName), ("datumOd", StagValue.parameter(from)), ("datumDo", StagValue.parameter(to)),
                    ("vsechnyAkce", "true"),
                ], list: "rozvrhovaAkce", as: StagRow.Action.self)
            events += rows.compactMap { TimetableEvent($0, role: label) }
        }
        return events.sorted { $0.sortKey < $1.sortKey }
    }

    // MARK: Exams

    func exams(_ params: Params) async throws -> Cached<ExamTermsAnswer> {
        let subject = try Self.subjectFilter(params)
        let session = try await session(params[StagParams.account])
        let student = try session.student()
        let all = try await cachedModel(session, "exams", [:]) { ExamTermsAnswer(terms: try await examTerms(session, student)) }
        guard let subject else { return all }
        return all.map { ExamTermsAnswer(terms: $0.terms.filter { $0.subject == subject }) }
    }

    /// One term of `exams`, by its id: what a person is asked about before registering.
    func examTerm(_ params: Params) async throws -> Cached<ExamTerm> {
        let id = try params[StagParams.termID]
        let all = try await exams(params)
        guard let term = all.value.terms.first(where: { $0.termID == id }) else {
            throw RPCError.invalidParam(StagParams.termID.name, "\(id) is not among your exam terms (stag.exams lists them)")
        }
        return all.map { _ in term }
    }

    /// `subjects` when the caller has them already (a refresh reads them once for terms and grades).
    func examTerms(_ session: StagSession, _ student: StagRole, subjects known: SubjectIndex? = nil) async throws -> [ExamTerm] {
        async let answer = session.client.rows(
            "terminy/getTerminyProStudenta", [("osCislo", student.studentID ?? ""), ("stagUser", student.userName)], list: "termin",
            as: StagRow.Term.self)
        async let subjects = subjectsOf(session, student, unless: known)
        let rows = try await answer
        let names = try await subjects.reduce(into: [String: String]()) { names, entry in
            if let name = entry.value.name { names[entry.key.split(separator: "@").first.map(String.init) ?? entry.key] = name }
        }
        return rows.compactMap { ExamTerm($0, names: names) }.sorted {
            ($0.date ?? "", $0.start ?? "", $0.termID) < ($1.date ?? "", $1.start ?? "", $1.termID)
        }
    }

    /// The student's subjects over every year: names and credits, keyed `KAT/CODE@year` and `KAT/CODE`
    /// (`known`, when given, is returned without a request).
    func subjectsOf(_ session: StagSession, _ student: StagRole, unless known: SubjectIndex? = nil) async throws -> SubjectIndex {
        if let known { return known }
        let rows = try await session.client.rows(
            "predmety/getPredmetyByStudent",
            [
                ("osCislo", student.studentID ?? ""), ("semestr", "%"), ("rok", "%"), ("stagUser", student.userName),
            ], list: "predmetStudenta", as: StagRow.Subject.self)
        var subjects: SubjectIndex = [:]
        for row in rows {
            guard var code = row.zkratka else { continue }
            if !code.contains("/"), let department = row.katedra { code = "\(department)/\(code)" }
            let entry = (name: row.nazev, credits: row.kredity)
            subjects[code] = entry
            if let year = row.rok { subjects["\(code)@\(year)"] = entry }
        }
        return subjects
    }

    func register(_ params: Params) async throws -> RegistrationChanged { try await changeRegistration(params, registering: true) }
    func unregister(_ params: Params) async throws -> RegistrationChanged { try await changeRegistration(params, registering: false) }

    /// Never retried: a GET that changes state. `OK` is the only success; anything else is
    /// STAG's refusal, in its own words.
    func changeRegistration(_ params: Params, registering: Bool) async throws -> RegistrationChanged {
        let term = try params[StagParams.termID]
        let session = try await session(params[StagParams.account])
        let student = try session.student()
        let text = try await registration(session, student, term: term, registering: registering)
        // Read once more so stag.exams shows the change at once, and the answer can say which term and how full it is.
        // The registration has happened: a failed read leaves the term out of the answer and is no error.
        let fresh = try? await cachedModel(session, "exams", [:], fresherThan: .zero) {
            ExamTermsAnswer(terms: try await examTerms(session, student))
        }
        return RegistrationChanged(
            termID: term, registered: registering, message: text, term: fresh?.value.terms.first { $0.termID == term })
    }

    func registration(_ session: StagSession, _ student: StagRole, term: Int64, registering: Bool) async throws -> String {
        let operation = registering ? "terminy/zapisStudentaNaTermin" : "terminy/odhlasStudentaZTerminu"
        let text = try await session.client.action(
            operation,
            [
                ("termIdno", String(term)), ("osCislo", student.studentID ?? ""), ("stagUser", student.userName),
            ])
        guard text.uppercased() == "OK" else {
            throw StagError.refused(
                registering ? "register" : "unregister", term: term, reason: text.isEmpty ? "STAG refused without a reason" : text)
        }
        return text
    }

    // MARK: Grades and results

    func grades(_ params: Params) async throws -> Cached<GradesAnswer> {
        let year = params[StagParams.gradesYear]
        let session = try await session(params[StagParams.account])
        let student = try session.student()
        return try await cachedModel(session, "grades", ["year": year.map(JSONValue.int) ?? .null]) {
            GradesAnswer(grades: try await gradeRows(session, student, year: year))
        }
    }

    func results(_ params: Params) async throws -> Cached<StudyResults> {
        let session = try await session(params[StagParams.account])
        let student = try session.student()
        var answer = try await cachedModel(session, "results", [:]) { StudyResults(try await gradeRows(session, student, year: nil)) }
        // The year of study from the student's details (one read, cached as stag.student's): the
        // results stand without it.
        if let id = student.studentID, let year = try? await studentDetails(session, id: id).value.yearOfStudy, year > 0 {
            answer.value.target = StudyResults.Target(
                perYear: context.config[StagConfig.creditsPerYear], yearOfStudy: year, obtained: answer.value.total.summary.creditsObtained)
        }
        return answer
    }

    func gradeRows(_ session: StagSession, _ student: StagRole, year: Int64?, subjects known: SubjectIndex? = nil) async throws -> [GradeRow] {
        async let answer = session.client.rows(
            "znamky/getZnamkyByStudent",
            [
                ("osCislo", student.studentID ?? ""), ("rok", year.map(String.init) ?? "%"), ("semestr", "%"), ("stagUser", student.userName),
            ], list: "student_na_predmetu", as: StagRow.Enrolment.self)
        async let subjects = subjectsOf(session, student, unless: known)
        let rows = try await answer
        let known = try await subjects
        return rows.compactMap { GradeRow($0, subjects: known) }.sorted {
            ($0.year ?? 0, $0.semester == "LS" ? 1 : 0, $0.subject) < ($1.year ?? 0, $1.semester == "LS" ? 1 : 0, $1.subject)
        }
    }
}
