import Foundation
import PluginKit

/// `kos.export.ics {path, sem?}`: the timetable expanded into dated classes over the semester's
/// teaching weeks, plus my registered exams, as an iCalendar file (the kit's `CalendarFile`).
/// Week 1 is the week of the semester's start and has the parity of `first_week_parity`; a slot
/// with `weeks` ("1-7,9") is placed only in those weeks. With config `ics_path`, each refresh
/// rewrites the current semester's file.
extension KOSService {
    func exportICS(_ params: Params) async throws -> SemesterCalendarWritten {
        let path = try params[KOSParams.path]
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        guard sem != "none" else {
            throw KOSParams.semester.invalid("the calendar is of one semester: a code such as B251, or current, next or prev")
        }
        let overwrite = params[FileOutput.overwrite] ?? false
        try FileOutput.checkTarget(path, param: KOSParams.path.name, overwrite: overwrite)
        let username = try await username(params[KOSParams.account])
        let written = try await writeCalendar(username, sem: sem, path: path, param: KOSParams.path.name, overwrite: overwrite)
        return SemesterCalendarWritten(
            written: CalendarWritten(path: path, events: written.events), semester: written.semester,
            firstWeekParity: written.schedule.firstWeekParity, teachingWeeks: written.schedule.teachingWeeks)
    }

    /// `overwrite`: replace what is there (the refresh's `ics_path`, which the person set for it).
    func writeCalendar(
        _ username: String, sem: String, path: String, param: String, overwrite: Bool
    ) async throws -> (events: Int, semester: String, schedule: SemesterSchedule) {
        let semester = try await semesterBounds(sem)
        var file = CalendarFile(productID: "-//assistantd//kos//EN")
        let schedule = schedule(code: semester.code, kosStart: semester.start)
        file.events = datedClasses(
            try await timetableSlots(username, sem: semester.code), username: username, from: semester.start, to: semester.end, schedule: schedule
        )
        .map {
            CalendarFile.Event(
                uid: $0.key, when: .timed(start: $0.start, end: $0.end), summary: $0.title, location: $0.room,
                description: $0.teachers.joined(separator: ", "), category: "Class")
        }
        let kos = context.config[KOSConfig.kosURL]
        for exam in try await examRows(username: username, sem: semester.code, mine: true) {
            guard let begin = exam.startInstant else { continue }
            let course = exam.courseName
            file.events.append(
                CalendarFile.Event(
                    uid: CalendarFile.uid("kos", [username, "exam", exam.id]),
                    when: .timed(start: begin, end: exam.endInstant),
                    summary: "\(exam.kind == .assessment ? "Assessment" : "Exam"): \(course)", location: exam.room,
                    description: exam.examiners.joined(separator: ", "), category: "Exam", url: kos))
        }
        try await FileOutput.write(Data(file.text(stamp: context.clock.now).utf8), to: path, param: param, overwrite: overwrite)
        return (file.events.count, semester.code, schedule)
    }

    /// A semester's code and its first and last day (`semesters/{sem}`).
    func semesterBounds(_ sem: String) async throws -> (code: String, start: DateOnly, end: DateOnly) {
        let semester = try await entry(.publicData, "semesters/\(sem)", what: "semester \(sem)")
        guard let row = semester.row(KOSRow.Semester.self, language: language),
            let start = row.startDate.flatMap({ DateOnly(String($0.prefix(10))) }), let end = row.endDate.flatMap({ DateOnly(String($0.prefix(10))) })
        else { throw KOSError.badAnswer("semester \(sem) has no start or end date") }
        return (row.code ?? sem, start, end)
    }

    /// One class on its date: what the calendar file and the class reminders are made of.
    struct DatedClass {
        /// The calendar uid, as earlier versions wrote it (also the reminder's key).
        var key: String
        var start: Date
        var end: Date?
        var title: String
        /// The course's code and name, without the kind the title ends with.
        var subject: String
        var kind: String?
        var room: String?
        var teachers: [String]
    }

    /// Each slot on each teaching week of `schedule` it takes place in, between `start` and `end`,
    /// but not on a holiday or before teaching starts.
    func datedClasses(
        _ slots: [KOSTimetableSlot], username: String, from start: DateOnly, to end: DateOnly, schedule: SemesterSchedule
    ) -> [DatedClass] {
        guard let weekOne = schedule.weekOne, let teachingStart = DateOnly(schedule.teachingStart) else { return [] }
        var classes: [DatedClass] = []
        for week in 1...Int(schedule.teachingWeeks) {
            let parity: KOSTimetableSlot.Parity = schedule.parity(ofWeek: week) == "odd" ? .odd : .even
            for slot in slots {
                guard let day = slot.day, (1...7).contains(day), slot.isIn(parity), Self.weeks(slot.weeks)?.contains(week) ?? true else { continue }
                let date = weekOne.adding(days: (week - 1) * 7 + Int(day) - 1)
                guard date >= start, date <= end, date >= teachingStart, !schedule.isHoliday(date), let from = slot.start,
                    let begin = date.at(from, in: Self.zone)
                else { continue }
                let course = slot.course ?? "?"
                let subject = "\(course) \(slot.courseName ?? "")".trimmingCharacters(in: .whitespaces)
                classes.append(
                    DatedClass(
                        key: CalendarFile.uid("kos", [username, date.description, course, from, slot.parallel ?? ""]), start: begin,
                        end: slot.end.flatMap { date.at($0, in: Self.zone) }, title: "\(subject) (\(slot.kind ?? "class"))", subject: subject,
                        kind: slot.kind, room: slot.room, teachers: slot.teachers))
            }
        }
        return classes
    }

    /// KOSapi's week list ("1-7,9"); nil when absent or unreadable (then every week).
    static func weeks(_ text: String?) -> Set<Int>? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        var weeks: Set<Int> = []
        for part in text.split(separator: ",") {
            let bounds = part.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch bounds.count {
            case 1:
                guard let week = bounds[0] else { return nil }
                weeks.insert(week)
            case 2:
                guard let a = bounds[0], let b = bounds[1], a <= b, b - a < 60 else { return nil }
                weeks.formUnion(a...b)
            default: return nil
            }
        }
        return weeks
    }
}

/// `kos.export.ics`: the file, and the semester and week numbering it was laid out by.
struct SemesterCalendarWritten: ResultObject, CallResult {
    var written: CalendarWritten
    var semester: String
    var firstWeekParity: String
    var teachingWeeks: Int64

    static let members = ResultMembers<Self>(
        .flattened(\.written), .field("semester", \.semester), .field("first_week_parity", \.firstWeekParity, .enumeration(["odd", "even"])),
        .field("teaching_weeks", \.teachingWeeks))
}
