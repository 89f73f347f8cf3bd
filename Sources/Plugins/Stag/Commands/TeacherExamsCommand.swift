import Foundation
import PluginKit

/// `stag.teacher.exams {subject?, year?}`: the exam terms of a teacher's subjects
/// (`terminy/getTerminyZkousek`, reference §3.9), each with its capacity and occupancy. The
/// subjects are the teacher's own (`predmety/getPredmetyByUcitel`) unless one is named. STAG has
/// no documented operation listing a term's registered students (reference §3.10), so none are
/// listed: `registered` is the count STAG gives.
extension StagService {
    /// How many subjects' terms one call reads.
    static let maxTeacherSubjects = 30

    func teacherExams(_ params: Params) async throws -> Cached<TeacherExamTerms> {
        let subject = try Self.subjectFilter(params)
        let year = params[StagParams.subjectYear]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        let key: [String: JSONValue] = ["subject": subject.map(JSONValue.string) ?? .null, "year": year.map(JSONValue.int) ?? .null]
        return try await cachedModel(session, "teacher.exams", key) {
            var subjects: [(department: String, code: String, name: String?)]
            if let subject {
                let parts = subject.split(separator: "/").map(String.init)
                subjects = [(parts[0], parts[1], nil)]
            } else {
                let answer = try await session.client.read(
                    "predmety/getPredmetyByUcitel",
                    [
                        ("ucitIdno", String(teacher.teacherID ?? 0)), ("rok", year.map { String($0) } ?? "%"), ("semestr", "%"),
                        ("stagUser", teacher.userName),
                    ])
                // `{"predmetUcitele": [...]}`, or that object inside an array (an older STAG).
                let object = answer.arrayValue?.first { $0.objectValue != nil } ?? answer
                var seen = Set<String>()
                subjects = JSONTreeDecoder.rows(object["predmetUcitele"]?.arrayValue ?? [], as: StagRow.Subject.self).compactMap { row in
                    guard let department = row.katedra, let code = row.zkratka, seen.insert("\(department)/\(code)").inserted else { return nil }
                    return (department, code, row.nazev)
                }
            }
            let truncated = subjects.count > Self.maxTeacherSubjects
            var terms: [TeacherExamTerms.Term] = []
            for subject in subjects.prefix(Self.maxTeacherSubjects) {
                let rows = try await session.client.rows(
                    "terminy/getTerminyZkousek",
                    [("katedra", subject.department), ("zkratka", subject.code), ("stagUser", teacher.userName)]
                        + (year.map { [("rok", String($0))] } ?? []), list: "termin", as: StagRow.Term.self)
                let names = subject.name.map { ["\(subject.department)/\(subject.code)": $0] } ?? [:]
                terms += rows.compactMap { ExamTerm($0, names: names).map(TeacherExamTerms.Term.init) }
            }
            terms.sort { ($0.date ?? "", $0.start ?? "") < ($1.date ?? "", $1.start ?? "") }
            return TeacherExamTerms(terms: terms, truncated: truncated)
        }
    }
}

/// `stag.teacher.exams`: the teacher's exam terms with their occupancy.
struct TeacherExamTerms: StoredResultObject, Sendable {
    struct Term: StoredResultObject, Sendable {
        var termID: Int64 = 0
        var subject = ""
        var name, kind, date, start, end, room, examiner: String?
        var registered: Int64 = 0
        var limit: Int64?
        var free: Int64?
        var registerDeadline, note: String?

        static let members = ResultMembers<Self>(
            .field("term_id", \.termID), .field("subject", \.subject, "KAT/CODE"), .field("name", \.name), .field("kind", \.kind),
            .field("date", \.date, .date), .field("start", \.start, .clock), .field("end", \.end, .clock), .field("room", \.room),
            .field("examiner", \.examiner), .field("registered", \.registered, "how many students are registered (STAG lists no names)"),
            .field("limit", \.limit), .field("free", \.free, "seats left; null without a limit"),
            .field("register_deadline", \.registerDeadline, .universityTime), .field("note", \.note))

        init() {}

        init(_ term: ExamTerm) {
            termID = term.termID
            subject = term.subject
            name = term.name
            kind = term.kind
            date = term.date
            start = term.start
            end = term.end
            room = term.room
            examiner = term.examiner
            registered = term.occupied
            limit = term.limit
            free = term.limit.map { max(0, $0 - term.occupied) }
            registerDeadline = term.registerDeadline
            note = term.note
        }
    }

    var terms: [Term] = []
    var truncated = false

    static let members = ResultMembers<Self>(
        .field("terms", \.terms), .field("truncated", \.truncated, "the teacher has more than 30 subjects; name one with subject"))
}
