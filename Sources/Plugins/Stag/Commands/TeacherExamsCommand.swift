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

    func teacherExams(_ params: Params) async throws -> JSONValue {
        let subject = try Self.subjectFilter(params)
        let year = params[StagParams.subjectYear]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        let key: [String: JSONValue] = ["subject": subject.map(JSONValue.string) ?? .null, "year": year.map(JSONValue.int) ?? .null]
        return try await cached(session, "teacher.exams", key) {
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
                subjects = (object["predmetUcitele"]?.arrayValue ?? []).compactMap { row in
                    guard let department = StagValue.string(row["katedra"]), let code = StagValue.string(row["zkratka"]),
                        seen.insert("\(department)/\(code)").inserted
                    else { return nil }
                    return (department, code, StagValue.string(row["nazev"]))
                }
            }
            let truncated = subjects.count > Self.maxTeacherSubjects
            var terms: [JSONValue] = []
            for subject in subjects.prefix(Self.maxTeacherSubjects) {
                let answer = try await session.client.read(
                    "terminy/getTerminyZkousek",
                    [("katedra", subject.department), ("zkratka", subject.code), ("stagUser", teacher.userName)]
                        + (year.map { [("rok", String($0))] } ?? []))
                guard let rows = answer["termin"]?.arrayValue else { throw StagError.unexpectedAnswer("terminy/getTerminyZkousek", "no termin list") }
                let names = subject.name.map { ["\(subject.department)/\(subject.code)": $0] } ?? [:]
                for row in rows {
                    guard let term = ExamTerm(stag: row, names: names) else { continue }
                    terms.append([
                        "term_id": .int(term.termID), "subject": .string(term.subject), "name": term.name.map(JSONValue.string) ?? .null,
                        "kind": term.kind.map(JSONValue.string) ?? .null, "date": term.date.map(JSONValue.string) ?? .null,
                        "start": term.start.map(JSONValue.string) ?? .null, "end": term.end.map(JSONValue.string) ?? .null,
                        "room": term.room.map(JSONValue.string) ?? .null, "examiner": term.examiner.map(JSONValue.string) ?? .null,
                        "registered": .int(term.occupied), "limit": term.limit.map(JSONValue.int) ?? .null,
                        "free": term.limit.map { .int(max(0, $0 - term.occupied)) } ?? .null,
                        "register_deadline": term.registerDeadline.map(JSONValue.string) ?? .null, "note": term.note.map(JSONValue.string) ?? .null,
                    ])
                }
            }
            terms.sort {
                ($0["date"]?.stringValue ?? "", $0["start"]?.stringValue ?? "") < ($1["date"]?.stringValue ?? "", $1["start"]?.stringValue ?? "")
            }
            return ["terms": .array(terms), "truncated": .bool(truncated)]
        }
    }
}
