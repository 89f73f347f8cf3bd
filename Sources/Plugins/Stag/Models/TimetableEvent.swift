import HostCore

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

/// An exam term (`termin`, reference §3.6) in the result's shape.
enum ExamTerm {
    static func from(_ row: JSONValue, names: [String: String]) -> JSONValue? {
        guard let id = StagValue.int(row["termIdno"]) else { return nil }
        let subject = [StagValue.string(row["katedra"]), StagValue.string(row["predmet"])].compactMap { $0 }.joined(separator: "/")
        let occupied = StagValue.int(row["obsazeni"]) ?? 0
        let limit = StagValue.int(row["limit"])
        let registered = StagValue.flag(row["zapsan"]) ?? false
        let canChange = StagValue.flag(row["lzeZapsatOdepsat"]) ?? false
        let state: String =
            if registered { "registered" } else if canChange { "available" } else if let limit, occupied >= limit { "full" } else { "closed" }
        let reasonCode = StagValue.string(row["kodDuvoduProcNelzeZapsatOdepsat"])
        let reason = [StagValue.string(row["textDuvoduProcNelzeZapsatOdepsat"]), StagValue.string(row["popisDuvoduProcNelzeZapsatOdepsat"])]
            .compactMap { $0 }.joined(separator: " ")
        return [
            "term_id": .int(id),
            "subject": .string(subject),
            "name": names[subject].map(JSONValue.string) ?? .null,
            "kind": StagValue.string(row["typTerminu"]).map(JSONValue.string) ?? .null,
            "date": StagValue.date(row["datum"]).map(JSONValue.string) ?? .null,
            "start": StagValue.time(row["casOd"]).map(JSONValue.string) ?? .null,
            "end": StagValue.time(row["casDo"]).map(JSONValue.string) ?? .null,
            "room": {
                let parts = [StagValue.string(row["budova"]), StagValue.string(row["mistnost"])].compactMap { $0 }
                return parts.isEmpty ? .null : .string(parts.joined(separator: "-"))
            }(),
            "examiner": StagValue.personName(row["ucitel"]).map(JSONValue.string) ?? .null,
            "occupied": .int(occupied),
            "limit": limit.map(JSONValue.int) ?? .null,
            "state": .string(state),
            "reason": state == "registered" || state == "available" || (reason.isEmpty && (reasonCode == nil || reasonCode == "OK"))
                ? .null : .string(reason.isEmpty ? reasonCode ?? "" : reason),
            "register_deadline": StagValue.dateTime(row["deadlineDatumPrihlaseni"]).map(JSONValue.string) ?? .null,
            "unregister_deadline": StagValue.dateTime(row["deadlineDatumOdhlaseni"]).map(JSONValue.string) ?? .null,
            "note": StagValue.string(row["poznamka"]).map(JSONValue.string) ?? .null,
        ]
    }
}
