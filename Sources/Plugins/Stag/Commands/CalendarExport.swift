import CICal
import Crypto
import Foundation
import HostCore

/// The timetable and the registered exams as an iCalendar file, written with libical (its
/// escaping and folding), times as UTC instants so any calendar reads them without a VTIMEZONE.
/// `stag.export.ics` writes it on demand; with config `ics_path`, each refresh rewrites it.
extension StagService {
    func exportICS(_ params: Params) async throws -> JSONValue {
        let path = try params.requiredString("path")
        guard let from = try day(params, "from") else { throw RPCError.invalidParam("from", "is needed (YYYY-MM-DD)") }
        guard let to = try day(params, "to") else { throw RPCError.invalidParam("to", "is needed (YYYY-MM-DD)") }
        guard from <= to else { throw RPCError.invalidParam("to", "\(to) is before from (\(from))") }
        guard to <= from.adding(days: 400) else { throw RPCError.invalidParam("to", "the window is longer than 400 days") }
        try FileOutput.checkFolder(of: path, param: "path")
        let session = try await session(params.string("account"))
        let count = try await writeCalendar(session, from: from, to: to, path: path, param: "path")
        return ["path": .string(path), "events": .int(Int64(count))]
    }

    /// Timetable events (with exams from the timetable) plus registered exam terms not in it.
    func writeCalendar(_ session: StagSession, from: DateOnly, to: DateOnly, path: String, param: String) async throws -> Int {
        let roles = try Self.timetableRoles(session, "all")
        var events = try await timetableEvents(session, roles: roles, from: from, to: to)
        if let student = session.roles.first(where: \.isStudent) {
            let listed = Set(events.compactMap { $0["term_id"]?.intValue })
            for term in try await examTerms(session, student) where term["state"] == "registered" {
                guard let id = term["term_id"]?.intValue, !listed.contains(id), let day = term["date"]?.stringValue.flatMap(DateOnly.init),
                      day >= from, day <= to
                else { continue }
                var event = term.objectValue ?? [:]
                event["type"] = "exam"
                event["teachers"] = term["examiner"].map { [$0] } ?? []
                events.append(.object(event))
            }
        }
        let text = calendarText(events, account: session.account)
        try await FileOutput.write(Data(text.utf8), to: path, param: param)
        return events.count
    }

    func calendarText(_ events: [JSONValue], account: String) -> String {
        let cal = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
        defer { icalcomponent_free(cal) }
        icalcomponent_add_property(cal, icalproperty_new_version("2.0"))
        icalcomponent_add_property(cal, icalproperty_new_prodid("-//assistantd//stag//EN"))
        let utc = icaltimezone_get_utc_timezone()
        let stamp = icaltime_from_timet_with_zone(time_t(context.clock.now.timeIntervalSince1970), 0, utc)
        for event in events {
            guard let date = event["date"]?.stringValue else { continue }
            let c = icalcomponent_new(ICAL_VEVENT_COMPONENT)!
            let start = event["start"]?.stringValue
            let end = event["end"]?.stringValue
            // A stable UID: the same class on the same day is the same event in every export.
            let uid = [account, date, event["subject"]?.stringValue ?? "", start ?? "", event["term_id"]?.encodedString() ?? event["action_id"]?.encodedString() ?? ""]
                .joined(separator: "|")
            icalcomponent_add_property(c, icalproperty_new_uid("stag-\(Self.hex(uid))@assistantd"))
            icalcomponent_add_property(c, icalproperty_new_dtstamp(stamp))
            if let start, let begin = wallClock("\(date)T\(start)") {
                icalcomponent_add_property(c, icalproperty_new_dtstart(icaltime_from_timet_with_zone(time_t(begin.timeIntervalSince1970), 0, utc)))
                if let end, let finish = wallClock("\(date)T\(end)") {
                    icalcomponent_add_property(c, icalproperty_new_dtend(icaltime_from_timet_with_zone(time_t(finish.timeIntervalSince1970), 0, utc)))
                }
            } else if let day = DateOnly(date) {
                var t = icaltime_null_time()
                t.year = Int32(day.year); t.month = Int32(day.month); t.day = Int32(day.day); t.is_date = 1
                icalcomponent_add_property(c, icalproperty_new_dtstart(t))
            }
            let kind = event["type"]?.stringValue ?? ""
            let title = [event["subject"]?.stringValue, event["name"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            icalcomponent_add_property(c, icalproperty_new_summary(kind == "exam" ? "Exam: \(title)" : "\(title) (\(kind))"))
            if let room = event["room"]?.stringValue { icalcomponent_add_property(c, icalproperty_new_location(room)) }
            let notes = [(event["teachers"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "), event["note"]?.stringValue ?? ""]
                .filter { !$0.isEmpty }
            if !notes.isEmpty { icalcomponent_add_property(c, icalproperty_new_description(notes.joined(separator: "\n"))) }
            icalcomponent_add_property(c, icalproperty_new_categories(kind == "exam" ? "Exam" : "Class"))
            icalcomponent_add_component(cal, c)
        }
        guard let text = icalcomponent_as_ical_string_r(cal) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// A short stable id for a UID (not a secret).
    static func hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
