import Foundation
import PluginKit

/// A dated timetable occurrence (`rozvrhovaAkce` with `datum`, reference §3.4), in the result's
/// shape.
enum TimetableEvent {
    static func parity(_ code: String?) -> JSONValue {
        switch code {
        case "K": "every"
        case "L": "odd"
        case "S": "even"
        default: .null
        }
    }

    /// nil for a row without a date (a recurring action from an undated request).
    static func from(_ row: JSONValue, role: String) -> JSONValue? {
        guard let date = StagValue.date(row["datum"]) else { return nil }
        let department = StagValue.string(row["katedra"])
        let code = StagValue.string(row["predmet"])
        let building = StagValue.string(row["budova"])
        let room = StagValue.string(row["mistnost"])
        let isExam = StagValue.string(row["druhAkce"]) == "Z"
        var teachers = StagValue.quotedNames(StagValue.string(row["vsichniUciteleJmenaTitulySPodily"]))
        if teachers.isEmpty, let one = StagValue.personName(row["ucitel"]) { teachers = [one] }
        let notes = [StagValue.string(row["nekonaSe"]), StagValue.string(row["poznamkaRozvrhare"])].compactMap { $0 }
        return [
            "date": .string(date),
            "start": StagValue.time(row["hodinaSkutOd"]).map(JSONValue.string) ?? .null,
            "end": StagValue.time(row["hodinaSkutDo"]).map(JSONValue.string) ?? .null,
            "subject": department.flatMap { d in code.map { .string("\(d)/\($0)") } } ?? .null,
            "name": StagValue.string(row["nazev"]).map(JSONValue.string) ?? .null,
            "type": isExam ? "exam" : (StagValue.string(row["typAkce"]).map(JSONValue.string) ?? .null),
            "room": [building, room].compactMap { $0 }.isEmpty ? .null : .string([building, room].compactMap { $0 }.joined(separator: "-")),
            "teachers": .array(teachers.map(JSONValue.string)),
            "week_parity": isExam ? .null : parity(StagValue.string(row["tydenZkr"])),
            "note": notes.isEmpty ? .null : .string(notes.joined(separator: "; ")),
            "role": .string(role),
            "action_id": StagValue.int(row["roakIdno"]).map(JSONValue.int) ?? .null,
            "term_id": isExam ? (StagValue.int(row["referencedIdno"]).map(JSONValue.int) ?? .null) : .null,
        ]
    }

    static func sortKey(_ event: JSONValue) -> String {
        (event["date"]?.stringValue ?? "") + (event["start"]?.stringValue ?? "99:99") + (event["subject"]?.stringValue ?? "")
    }
}

/// Where the student stands with an exam term: what the watch, the notices and the calendar
/// export decide on.
enum ExamState: String, Codable, Sendable, CaseIterable {
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

    init?(stag row: JSONValue, names: [String: String]) {
        guard let id = StagValue.int(row["termIdno"]) else { return nil }
        termID = id
        subject = [StagValue.string(row["katedra"]), StagValue.string(row["predmet"])].compactMap { $0 }.joined(separator: "/")
        name = names[subject]
        kind = StagValue.string(row["typTerminu"])
        date = StagValue.date(row["datum"])
        start = StagValue.time(row["casOd"])
        end = StagValue.time(row["casDo"])
        let roomParts = [StagValue.string(row["budova"]), StagValue.string(row["mistnost"])].compactMap { $0 }
        room = roomParts.isEmpty ? nil : roomParts.joined(separator: "-")
        examiner = StagValue.personName(row["ucitel"])
        occupied = StagValue.int(row["obsazeni"]) ?? 0
        limit = StagValue.int(row["limit"])
        let registered = StagValue.flag(row["zapsan"]) ?? false
        let canChange = StagValue.flag(row["lzeZapsatOdepsat"]) ?? false
        state = if registered { .registered } else if canChange { .available } else if let limit, occupied >= limit { .full } else { .closed }
        let reasonCode = StagValue.string(row["kodDuvoduProcNelzeZapsatOdepsat"])
        let reasonText = [StagValue.string(row["textDuvoduProcNelzeZapsatOdepsat"]), StagValue.string(row["popisDuvoduProcNelzeZapsatOdepsat"])]
            .compactMap { $0 }.joined(separator: " ")
        reason =
            state == .registered || state == .available || (reasonText.isEmpty && (reasonCode == nil || reasonCode == "OK"))
            ? nil : (reasonText.isEmpty ? reasonCode ?? "" : reasonText)
        registerDeadline = StagValue.dateTime(row["deadlineDatumPrihlaseni"])
        unregisterDeadline = StagValue.dateTime(row["deadlineDatumOdhlaseni"])
        note = StagValue.string(row["poznamka"])
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
