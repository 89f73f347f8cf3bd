import Foundation
import PluginKit

/// Subject, teacher and student details, the year's calendar, and the teacher's views.
extension StagService {
    func subject(_ params: Params) async throws -> Cached<SubjectDetails> {
        let department = try Self.code(params, StagParams.department)
        let code = try Self.code(params, StagParams.code)
        let year = params[StagParams.subjectYear]
        let session = try await session(params[StagParams.account])
        return try await cachedModel(
            session, "subject", ["department": .string(department), "code": .string(code), "year": year.map(JSONValue.int) ?? .null]
        ) {
            let info = try await session.client.read(
                "predmety/getPredmetInfo", [("katedra", department), ("zkratka", code)] + (year.map { [("rok", String($0))] } ?? []))
            // An unknown subject is `[]`, not a 404.
            guard let o = info.objectValue, !o.isEmpty else {
                throw RPCError.notFound("subject \(department)/\(code)", data: ["subject": .string("\(department)/\(code)")])
            }
            return SubjectDetails(stag: info, subject: "\(department)/\(code)")
        }
    }

    func teacher(_ params: Params) async throws -> Cached<TeacherDetails> {
        let id = try params[StagParams.teacherID]
        let session = try await session(params[StagParams.account])
        return try await cachedModel(session, "teacher", ["id": .int(id)]) {
            let info = try await session.client.read("ucitel/getUcitelInfo", [("ucitIdno", String(id))])
            guard let o = info.objectValue, !o.isEmpty else { throw RPCError.notFound("teacher \(id)", data: ["id": .int(id)]) }
            return TeacherDetails(stag: info, id: id)
        }
    }

    func student(_ params: Params) async throws -> Cached<StudentDetails> {
        if let id = params[StagParams.studentID], !Self.isStudentID(id) {
            throw RPCError.invalidParam("id", "'\(id)' is not a personal number such as A20B0001P")
        }
        let session = try await session(params[StagParams.account])
        let id = try params[StagParams.studentID]?.uppercased() ?? (try session.student().studentID ?? "")
        return try await cachedModel(session, "student", ["id": .string(id)]) {
            let info = try await session.client.read("student/getStudentInfo", [("osCislo", id)])
            guard let o = info.objectValue, !o.isEmpty else { throw RPCError.notFound("student \(id)", data: ["id": .string(id)]) }
            return StudentDetails(stag: info, id: id)
        }
    }

    func calendar(_ params: Params) async throws -> Cached<AcademicCalendar> {
        let year = params[StagParams.calendarYear] ?? Int64(today.month >= 9 ? today.year : today.year - 1)
        let session = try await session(params[StagParams.account])
        return try await cachedModel(session, "calendar", ["year": .int(year)]) {
            let answer = try await session.client.read("kalendar/getHarmonogramRoku", [("rok", String(year))])
            guard let rows = answer["harmonogramItem"]?.arrayValue else {
                throw StagError.unexpectedAnswer("kalendar/getHarmonogramRoku", "no harmonogramItem list")
            }
            return AcademicCalendar(year: year, items: rows.map(AcademicCalendar.Item.init(stag:)).sorted { ($0.from ?? "") < ($1.from ?? "") })
        }
    }

    /// The students of a timetable action, in Czech alphabetical order (ICU's cs collation:
    /// Č after C, Ch after H).
    func students(_ params: Params) async throws -> Cached<ActionStudents> {
        let action = try params[StagParams.actionID]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        return try await cachedModel(session, "students", ["action_id": .int(action)]) {
            let answer = try await session.client.read("student/getStudentiByRoakce", [("roakIdno", String(action)), ("stagUser", teacher.userName)])
            guard let rows = answer["studentPredmetu"]?.arrayValue else {
                throw StagError.unexpectedAnswer("student/getStudentiByRoakce", "no studentPredmetu list")
            }
            return ActionStudents(students: Self.czechSorted(rows.map(ActionStudent.init(stag:))) { [$0.lastName, $0.firstName] })
        }
    }

    func theses(_ params: Params) async throws -> Cached<ThesisList> {
        let year = params[StagParams.thesesYear]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        return try await cachedModel(session, "theses", ["year": year.map(JSONValue.int) ?? .null]) {
            let answer = try await session.client.read(
                "kvalifikacniprace/getKvalifikacniPrace",
                [("ucitIdno", String(teacher.teacherID ?? 0)), ("stagUser", teacher.userName)] + (year.map { [("rokZadani", String($0))] } ?? []))
            guard let rows = answer["kvalifikacniPrace"]?.arrayValue else {
                throw StagError.unexpectedAnswer("kvalifikacniprace/getKvalifikacniPrace", "no kvalifikacniPrace list")
            }
            return ThesisList(theses: rows.map(Thesis.init(stag:)))
        }
    }

    // MARK: Parameters

    static func code(_ params: Params, _ key: RequiredParam<String>) throws(RPCError) -> String {
        try code(try params[key], param: key.name)
    }

    static func isStudentID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 16 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
