import Foundation
import PluginKit

/// The timetable and the registered exams as an iCalendar file (the kit's `CalendarFile`).
/// `stag.export.ics` writes it on demand; with config `ics_path`, each refresh rewrites it.
extension StagService {
    func exportICS(_ params: Params) async throws -> JSONValue {
        let path = try params[StagParams.path]
        let from = try params[StagParams.firstDay]
        let to = try params[StagParams.lastDay]
        try FileOutput.checkFolder(of: path, param: "path")
        let session = try await session(params[StagParams.account])
        let count = try await writeCalendar(session, from: from, to: to, path: path, param: "path")
        return ["path": .string(path), "events": .int(Int64(count))]
    }

    /// Timetable events (with exams from the timetable) plus registered exam terms not in it.
    func writeCalendar(_ session: StagSession, from: DateOnly, to: DateOnly, path: String, param: String) async throws -> Int {
        let roles = try Self.timetableRoles(session, "all")
        var events = try await timetableEvents(session, roles: roles, from: from, to: to)
        if let student = session.roles.first(where: \.isStudent) {
            let listed = Set(events.compactMap { $0["term_id"]?.intValue })
            for term in try await examTerms(session, student) where term.state == .registered {
                guard !listed.contains(term.termID), let day = term.day, day >= from, day <= to else { continue }
                // Written as a timetable event of type exam, the form the calendar text reads.
                var event = term.json.objectValue ?? [:]
                event["type"] = "exam"
                event["teachers"] = .array(term.examiner.map { [.string($0)] } ?? [])
                events.append(.object(event))
            }
        }
        let text = calendarText(events, account: session.account)
        try await FileOutput.write(Data(text.utf8), to: path, param: param)
        return events.count
    }

    func calendarText(_ events: [JSONValue], account: String) -> String {
        var file = CalendarFile(productID: "-//assistantd//stag//EN")
        for event in events {
            guard let date = event["date"]?.stringValue, let day = DateOnly(date) else { continue }
            let start = event["start"]?.stringValue
            let when: CalendarFile.Event.When
            if let start, let begin = day.at(start, in: zone) {
                when = .timed(start: begin, end: event["end"]?.stringValue.flatMap { day.at($0, in: zone) })
            } else {
                when = .allDay(day)
            }
            let kind = event["type"]?.stringValue ?? ""
            let title = [event["subject"]?.stringValue, event["name"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            let notes = [(event["teachers"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "), event["note"]?.stringValue ?? ""]
                .filter { !$0.isEmpty }
            file.events.append(
                CalendarFile.Event(
                    uid: CalendarFile.uid(
                        "stag",
                        [
                            account, date, event["subject"]?.stringValue ?? "", start ?? "",
                            event["term_id"]?.encodedString() ?? event["action_id"]?.encodedString() ?? "",
                        ]),
                    when: when, summary: kind == "exam" ? "Exam: \(title)" : "\(title) (\(kind))", location: event["room"]?.stringValue,
                    description: notes.joined(separator: "\n"), category: kind == "exam" ? "Exam" : "Class"))
        }
        return file.text(stamp: context.clock.now)
    }
}
