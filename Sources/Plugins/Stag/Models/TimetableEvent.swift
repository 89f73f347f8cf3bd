import Foundation
import PluginKit

/// A dated timetable occurrence (`rozvrhovaAkce` with `datum`, reference §3.4), decoded from
/// STAG's row into fields; the result is its encoding (every member present, null when STAG
/// gives nothing). The refresh's room-change and cancellation notices and the `.ics` export read
/// the fields.
struct TimetableEvent: JSONModel, Equatable {
    var date: String
    var start: String?
    var end: String?
    /// `KAT/CODE`.
    var subject: String?
    var name: String?
    /// STAG's action type (`Př`, `Cv`, …), or `exam`.
    var type: String?
    /// `BUILDING-ROOM`.
    var room: String?
    var teachers: [String]
    var weekParity: WeekParity?
    var note: String?
    /// `student` or `teacher`: whose timetable it came from.
    var role: String
    var actionID: Int64?
    /// The exam term, for an exam.
    var termID: Int64?

    enum WeekParity: String, Codable, Sendable {
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

    enum CodingKeys: String, CodingKey {
        case date, start, end, subject, name, type, room, teachers, note, role
        case weekParity = "week_parity", actionID = "action_id", termID = "term_id"
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

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(date, forKey: .date)
        try c.encodeOrNull(start, forKey: .start)
        try c.encodeOrNull(end, forKey: .end)
        try c.encodeOrNull(subject, forKey: .subject)
        try c.encodeOrNull(name, forKey: .name)
        try c.encodeOrNull(type, forKey: .type)
        try c.encodeOrNull(room, forKey: .room)
        try c.encode(teachers, forKey: .teachers)
        try c.encodeOrNull(weekParity, forKey: .weekParity)
        try c.encodeOrNull(note, forKey: .note)
        try c.encode(role, forKey: .role)
        try c.encodeOrNull(actionID, forKey: .actionID)
        try c.encodeOrNull(termID, forKey: .termID)
    }

    /// Date, start, subject: the order of the result.
    var sortKey: String { date + (start ?? "99:99") + (subject ?? "") }
    /// "KIV/UPA Name", for notice titles.
    var title: String { name.map { "\(subject ?? "?") \($0)" } ?? subject ?? "?" }
    /// "2026-01-20 09:00".
    var when: String { [date, start].compactMap { $0 }.joined(separator: " ") }
    /// " in UL-408", or nothing.
    var inRoom: String { room.map { " in \($0)" } ?? "" }
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
struct ExamTerm: JSONModel, Equatable {
    var termID: Int64
    /// `KAT/CODE`.
    var subject: String
    var name: String?
    var kind: String?
    var date: String?
    var start: String?
    var end: String?
    /// `BUILDING-ROOM`.
    var room: String?
    var examiner: String?
    var occupied: Int64
    var limit: Int64?
    var state: ExamState
    /// Why the registration cannot be changed (null when it can, or when STAG says nothing).
    var reason: String?
    var registerDeadline: String?
    var unregisterDeadline: String?
    var note: String?

    enum CodingKeys: String, CodingKey {
        case termID = "term_id", subject, name, kind, date, start, end, room, examiner, occupied, limit, state, reason
        case registerDeadline = "register_deadline", unregisterDeadline = "unregister_deadline", note
    }

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

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(termID, forKey: .termID)
        try c.encode(subject, forKey: .subject)
        try c.encodeOrNull(name, forKey: .name)
        try c.encodeOrNull(kind, forKey: .kind)
        try c.encodeOrNull(date, forKey: .date)
        try c.encodeOrNull(start, forKey: .start)
        try c.encodeOrNull(end, forKey: .end)
        try c.encodeOrNull(room, forKey: .room)
        try c.encodeOrNull(examiner, forKey: .examiner)
        try c.encode(occupied, forKey: .occupied)
        try c.encodeOrNull(limit, forKey: .limit)
        try c.encode(state, forKey: .state)
        try c.encodeOrNull(reason, forKey: .reason)
        try c.encodeOrNull(registerDeadline, forKey: .registerDeadline)
        try c.encodeOrNull(unregisterDeadline, forKey: .unregisterDeadline)
        try c.encodeOrNull(note, forKey: .note)
    }

    /// "KAT/CODE Name", for notice titles.
    var title: String { name.map { "\(subject) \($0)" } ?? subject }
    /// "2026-01-20 09:00".
    var when: String { [date, start].compactMap { $0 }.joined(separator: " ") }
    /// " in UL-408", or nothing.
    var inRoom: String { room.map { " in \($0)" } ?? "" }
    var seats: String { limit.map { "\(occupied)/\($0) seats taken" } ?? "\(occupied) registered, no limit" }
    var day: DateOnly? { date.flatMap(DateOnly.init) }
}
