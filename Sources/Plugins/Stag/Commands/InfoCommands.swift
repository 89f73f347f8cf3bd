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
            guard info.objectValue?.isEmpty == false, let row = JSONTreeDecoder.row(info, as: StagRow.SubjectInfo.self) else {
                throw RPCError.notFound("subject \(department)/\(code)", data: ["subject": .string("\(department)/\(code)")])
            }
            return SubjectDetails(row, subject: "\(department)/\(code)")
        }
    }

    func teacher(_ params: Params) async throws -> Cached<TeacherDetails> {
        let id = try params[StagParams.teacherID]
        let session = try await session(params[StagParams.account])
        return try await cachedModel(session, "teacher", ["id": .int(id)]) {
            let info = try await session.client.read("ucitel/getUcitelInfo", [("ucitIdno", String(id))])
            guard info.objectValue?.isEmpty == false, let row = JSONTreeDecoder.row(info, as: StagRow.Teacher.self) else {
                throw RPCError.notFound("teacher \(id)", data: ["id": .int(id)])
            }
            return TeacherDetails(row, id: id)
        }
    }

    func student(_ params: Params) async throws -> Cached<StudentDetails> {
        if let id = params[StagParams.studentID], !Self.isStudentID(id) {
            throw StagParams.teacherID.invalid("'\(id)' is not a personal number such as A20B0001P")
        }
        let session = try await session(params[StagParams.account])
        let id = try params[StagParams.studentID]?.uppercased() ?? (try session.student().studentID ?? "")
        return try await studentDetails(session, id: id)
    }

    func studentDetails(_ session: StagSession, id: String) async throws -> Cached<StudentDetails> {
        try await cachedModel(session, "student", ["id": .string(id)]) {
            let info = try await session.client.read("student/getStudentInfo", [("osCislo", id)])
            guard info.objectValue?.isEmpty == false, let row = JSONTreeDecoder.row(info, as: StagRow.Student.self) else {
                throw RPCError.notFound("student \(id)", data: ["id": .string(id)])
            }
            return StudentDetails(row, id: id)
        }
    }

    func calendar(_ params: Params) async throws -> Cached<AcademicCalendar> {
        let year = params[StagParams.calendarYear] ?? Int64(today.month >= 9 ? today.year : today.year - 1)
        let session = try await session(params[StagParams.account])
        return try await cachedModel(session, "calendar", ["year": .int(year)]) {
            let rows = try await session.client.rows(
                "kalendar/getHarmonogramRoku", [("rok", String(year))], list: "harmonogramItem", as: StagRow.CalendarItem.self)
            return AcademicCalendar(year: year, items: rows.map(AcademicCalendar.Item.init).sorted { ($0.from ?? "") < ($1.from ?? "") })
        }
    }

    /// The students of a timetable action, in Czech alphabetical order (ICU's cs collation:
    /// Č after C, Ch after H).
    func students(_ params: Params) async throws -> Cached<ActionStudents> {
        let action = try params[StagParams.actionID]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        return try await cachedModel(session, "students", ["action_id": .int(action)]) {
            let rows = try await actionStudents(session, teacher, action: action)
            return ActionStudents(students: Self.czechSorted(rows.map(ActionStudent.init)) { [$0.lastName, $0.firstName] })
        }
    }

    func theses(_ params: Params) async throws -> Cached<ThesisList> {
        let year = params[StagParams.thesesYear]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        return try await cachedModel(session, "theses", ["year": year.map(JSONValue.int) ?? .null]) {
            let rows = try await session.client.rows(
                "kvalifikacniprace/getKvalifikacniPrace",
                [("ucitIdno", String(teacher.teacherID ?? 0)), ("stagUser", teacher.userName)] + (year.map { [("rokZadani", String($0))] } ?? []),
                list: "kvalifikacniPrace", as: StagRow.Thesis.self)
            return ThesisList(theses: rows.map(Thesis.init))
        }
    }

    /// The students of a timetable action (`studentPredmetu`), as STAG orders them.
    func actionStudents(_ session: StagSession, _ teacher: StagRole, action: Int64) async throws -> [StagRow.Student] {
        try await session.client.rows(
            "student/getStudentiByRoakce", [("roakIdno", String(action)), ("stagUser", teacher.userName)], list: "studentPredmetu",
            as: StagRow.Student.self)
    }

    // MARK: Parameters

    static func code(_ params: Params, _ key: RequiredParam<String>) throws(RPCError) -> String {
        try code(try params[key], param: key.name)
    }

    static func isStudentID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 16 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
