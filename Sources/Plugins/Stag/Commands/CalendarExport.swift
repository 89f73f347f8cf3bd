import Foundation
import PluginKit

/// The timetable and the registered exams as an iCalendar file (the kit's `CalendarFile`).
/// `stag.export.ics` writes it on demand; with config `ics_path`, each refresh rewrites it.
extension StagService {
    func exportICS(_ params: Params) async throws -> CalendarWritten {
        let path = try params[StagParams.path]
        let from = try params[StagParams.firstDay]
        let to = try params[StagParams.lastDay]
        let overwrite = params[FileOutput.overwrite] ?? false
        try FileOutput.checkTarget(path, param: StagParams.path.name, overwrite: overwrite)
        let session = try await session(params[StagParams.account])
        let count = try await writeCalendar(session, from: from, to: to, path: path, param: StagParams.path.name, overwrite: overwrite)
        return CalendarWritten(path: path, events: count)
    }

    /// Timetable events (with exams from the timetable) plus registered exam terms not in it.
    /// `overwrite`: replace what is there (the refresh's `ics_path`, which the person set for it).
    func writeCalendar(_ session: StagSession, from: DateOnly, to: DateOnly, path: String, param: String, overwrite: Bool) async throws -> Int {
        let roles = try Self.timetableRoles(session, "all")
        var events = try await timetableEvents(session, roles: roles, from: from, to: to)
        if let student = session.roles.first(where: \.isStudent) {
            let listed = Set(events.compactMap(\.termID))
            for term in try await examTerms(session, student) where term.state == .registered {
                guard !listed.contains(term.termID), let day = term.day, day >= from, day <= to else { continue }
                events.append(TimetableEvent(registered: term))
            }
        }
        let text = calendarText(events, account: session.account)
        try await FileOutput.write(Data(text.utf8), to: path, param: param, overwrite: overwrite)
        return events.count
    }

    func calendarText(_ events: [TimetableEvent], account: String) -> String {
        var file = CalendarFile(productID: "-//assistantd//stag//EN")
        for event in events {
            guard let day = event.day else { continue }
            let when: CalendarFile.Event.When
            if let start = event.start, let begin = day.at(start, in: zone) {
                when = .timed(start: begin, end: event.end.flatMap { day.at($0, in: zone) })
            } else {
                when = .allDay(day)
            }
            let kind = event.type ?? ""
            let title = [event.subject, event.name].compactMap { $0 }.joined(separator: " ")
            let notes = [event.teachers.joined(separator: ", "), event.note ?? ""].filter { !$0.isEmpty }
            // The uid's parts as earlier versions wrote them (a class's term as "null"), so that a
            // calendar app subscribed to the file updates its events rather than adding them again.
            let term = event.termID.map { String($0) } ?? "null"
            file.events.append(
                CalendarFile.Event(
                    uid: CalendarFile.uid("stag", [account, event.date, event.subject ?? "", event.start ?? "", term]),
                    when: when, summary: kind == "exam" ? "Exam: \(title)" : "\(title) (\(kind))", location: event.room,
                    description: notes.joined(separator: "\n"), category: kind == "exam" ? "Exam" : "Class"))
        }
        return file.text(stamp: context.clock.now)
    }
}
