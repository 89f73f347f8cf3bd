import Foundation
import PluginKit
import StudyKit

/// A dated timetable occurrence (`rozvrhovaAkce` with `datum`, reference §3.4), decoded from
/// STAG's row into fields; the result is its encoding (every member present, null when STAG
/// gives nothing). The refresh's room-change and cancellation notices and the `.ics` export read
/// the fields.
struct TimetableEvent: StoredResultObject, JSONModel, Equatable {
    var date = ""
    var start: String?
    var end: String?
    var subject: String?
    var name: String?
    var type: String?
    var room: String?
    var teachers: [String] = []
    var weekParity: WeekParity?
    var note: String?
    var role = ""
    var actionID: Int64?
    var termID: Int64?

    static let members = ResultMembers<Self>(
        .field("date", \.date, .date), .field("start", \.start, .clock), .field("end", \.end, .clock),
        .field("subject", \.subject, "KAT/CODE"), .field("name", \.name), .field("type", \.type, "Př, Cv, Se, …, or exam"),
        .field("room", \.room, "BUILDING-ROOM"), .field("teachers", \.teachers), .field("week_parity", \.weekParity), .field("note", \.note),
        .field("role", \.role, .enumeration(["student", "teacher", "room"]), "whose timetable it came from"),
        .field("action_id", \.actionID), .field("term_id", \.termID, "an exam's term"))

    /// Empty, to be read back into (`StoredResultObject`).
    init() {}

    enum WeekParity: String, Codable, Sendable, CaseIterable, ResultDescribing {
        case every, odd, even

        init?(stag code: String?) {
            switch code {
            case "K": self = .every
            case "L": self = .odd
            case "S": self = .even
            default: return nil
            }
        }
    }

    var isExam: Bool { type == "exam" }

    /// nil for a row without a date (a recurring action from an undated request).
    init?(_ row: StagRow.Action, role: String) {
        guard let date = row.datum else { return nil }
        self.date = date
        let isExam = row.druhAkce == "Z"
        start = row.hodinaSkutOd
        end = row.hodinaSkutDo
        subject = row.katedra.flatMap { d in row.predmet.map { "\(d)/\($0)" } }
        name = row.nazev
        type = isExam ? "exam" : row.typAkce
        let roomParts = [row.budova, row.mistnost].compactMap { $0 }
        room = roomParts.isEmpty ? nil : roomParts.joined(separator: "-")
        teachers = row.vsichniUciteleJmenaTitulySPodily
        if teachers.isEmpty, let one = row.ucitel { teachers = [one] }
        weekParity = isExam ? nil : WeekParity(stag: row.tydenZkr)
        let notes = [row.nekonaSe, row.poznamkaRozvrhare].compactMap { $0 }
        note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        self.role = role
        actionID = row.roakIdno
        termID = isExam ? row.referencedIdno : nil
    }

    /// One row of STAG's JSON; nil for a row that is not an object or has no date.
    init?(stag json: JSONValue, role: String) {
        guard let row = JSONTreeDecoder.row(json, as: StagRow.Action.self) else { return nil }
        self.init(row, role: role)
    }

    /// A registered exam term that the timetable does not list, as the exam event the calendar
    /// export writes.
    init(registered term: ExamTerm) {
        date = term.date ?? ""
        start = term.start
        end = term.end
        subject = term.subject
        name = term.name
        type = "exam"
        room = term.room
        teachers = term.examiner.map { [$0] } ?? []
        note = term.note
        role = "student"
        termID = term.termID
    }

    /// Date, start, subject: the order of the result.
    var sortKey: String { date + (start ?? "99:99") + (subject ?? "") }
    /// "KIV/UPA Name", for notice titles.
    var title: String { name.map { "\(subject ?? "?") \($0)" } ?? subject ?? "?" }
    /// "2026-01-20 09:00".
    var when: String { [date, start].compactMap { $0 }.joined(separator: " ") }
    /// " in UL-408", or nothing.
    func inRoom(_ language: LanguageCode) -> String { StudyWords.inRoom(room, language) }
    var day: DateOnly? { DateOnly(date) }
    /// What identifies the occurrence across refreshes (its room and teachers may change). The
    /// members as JSON text, as earlier versions keyed their stored baselines: a changed key
    /// would read as every class cancelled and added again.
    var snapshotKey: String {
        [JSONValue.string(date), actionID.map(JSONValue.int) ?? .null, subject.map(JSONValue.string) ?? .null, start.map(JSONValue.string) ?? .null]
            .map { $0.encodedString() }.joined(separator: "|")
    }
}

/// Where the student stands with an exam term: what the watch, the notices and the calendar
/// export decide on.
enum ExamState: String, Codable, Sendable, CaseIterable, ResultDescribing {
    case registered, available, full, closed
}

/// An exam term (`termin`, reference §3.6), decoded from STAG's row (its quirks: `{"value": …}`
/// dates, numbers sent as strings, `A`/`N` flags) into fields. Jobs, notices and the `.ics`
/// export read the fields; the result is its encoding (every member present, null when STAG
/// gives nothing).
struct ExamTerm: StoredResultObject, JSONModel, Equatable {
    var termID: Int64 = 0
    var subject = ""
    var name: String?
    var kind: String?
    var date: String?
    var start: String?
    var end: String?
    var room: String?
    var examiner: String?
    var occupied: Int64 = 0
    var limit: Int64?
    var state = ExamState.closed
    /// Null when it can be changed, or when STAG says nothing.
    var reason: String?
    var registerDeadline: String?
    var unregisterDeadline: String?
    var note: String?

    static let members = ResultMembers<Self>(
        .field("term_id", \.termID), .field("subject", \.subject, "KAT/CODE"), .field("name", \.name), .field("kind", \.kind),
        .field("date", \.date, .date), .field("start", \.start, .clock), .field("end", \.end, .clock), .field("room", \.room),
        .field("examiner", \.examiner), .field("occupied", \.occupied), .field("limit", \.limit), .field("state", \.state),
        .field("reason", \.reason, "why it cannot be changed"), .field("register_deadline", \.registerDeadline, .universityTime),
        .field("unregister_deadline", \.unregisterDeadline, .universityTime), .field("note", \.note))

    /// Empty, to be read back into (`StoredResultObject`).
    init() {}

    init?(_ row: StagRow.Term, names: [String: String]) {
        guard let id = row.termIdno else { return nil }
        termID = id
        subject = [row.katedra, row.predmet].compactMap { $0 }.joined(separator: "/")
        name = names[subject]
        kind = row.typTerminu
        date = row.datum
        start = row.casOd
        end = row.casDo
        let roomParts = [row.budova, row.mistnost].compactMap { $0 }
        room = roomParts.isEmpty ? nil : roomParts.joined(separator: "-")
        examiner = row.ucitel
        occupied = row.obsazeni ?? 0
        limit = row.limit
        let registered = row.zapsan ?? false
        let canChange = row.lzeZapsatOdepsat ?? false
        state = if registered { .registered } else if canChange { .available } else if let limit, occupied >= limit { .full } else { .closed }
        let reasonCode = row.kodDuvoduProcNelzeZapsatOdepsat
        let reasonText = [row.textDuvoduProcNelzeZapsatOdepsat, row.popisDuvoduProcNelzeZapsatOdepsat].compactMap { $0 }.joined(separator: " ")
        reason =
            state == .registered || state == .available || (reasonText.isEmpty && (reasonCode == nil || reasonCode == "OK"))
            ? nil : (reasonText.isEmpty ? reasonCode ?? "" : reasonText)
        registerDeadline = row.deadlineDatumPrihlaseni
        unregisterDeadline = row.deadlineDatumOdhlaseni
        note = row.poznamka
    }

    /// One row of STAG's JSON; nil for a row that is not an object or has no term id.
    init?(stag json: JSONValue, names: [String: String]) {
        guard let row = JSONTreeDecoder.row(json, as: StagRow.Term.self) else { return nil }
        self.init(row, names: names)
    }

    /// "KAT/CODE Name", for notice titles.
    var title: String { name.map { "\(subject) \($0)" } ?? subject }
    /// "2026-01-20 09:00".
    var when: String { [date, start].compactMap { $0 }.joined(separator: " ") }
    /// " in UL-408", or nothing.
    func inRoom(_ language: LanguageCode) -> String { StudyWords.inRoom(room, language) }
    func seats(_ language: LanguageCode) -> String {
        limit.map { NoticeWords.seatsOf.text(language, ["taken": "\(occupied)", "limit": "\($0)"]) }
            ?? NoticeWords.seatsNoLimit.text(language, ["taken": "\(occupied)"])
    }
    var day: DateOnly? { date.flatMap(DateOnly.init) }
}

extension JSONSchema {
    /// A deadline as STAG gives it.
    static let universityTime = JSONSchema.string.described("YYYY-MM-DDTHH:MM, the university's wall clock")
}
