import Foundation
import PictureKit
import PluginKit

/// One week of my classes, each on its date: the current semester's slots placed on that week as
/// `kos.export.ics` places them (the week's parity from `first_week_parity`, a slot's `weeks`),
/// with the teaching week's number and parity. `kos.timetable.week` answers it and
/// `kos.timetable.pdf` draws it.
struct KOSWeek: ResultObject, CallResult {
    struct Lesson: ResultObject {
        var date: String
        var start: String
        var end: String?
        var title: String
        var kind: String?
        var room: String?
        var teachers: [String]

        static let members = ResultMembers<Self>(
            .field("date", \.date, .date), .field("start", \.start, .string, "HH:MM, Prague time"),
            .field("end", \.end, .string, "HH:MM, Prague time"), .field("title", \.title, "the course's code and name"),
            .field("kind", \.kind, .string, "lecture, tutorial, laboratory as KOSapi names them"), .field("room", \.room, .string),
            .field("teachers", \.teachers))
    }

    var week: String
    var semester: String
    var teachingWeek: Int?
    var parity: String?
    var classes: [Lesson]

    static let members = ResultMembers<Self>(
        .field("week", \.week, .date, "its Monday"), .field("semester", \.semester, .string, "the current semester's code"),
        .field("teaching_week", \.teachingWeek, .integer, "the semester's teaching week (1 first), null outside teaching"),
        .field("parity", \.parity, .enumeration(["odd", "even"]), "the teaching week's parity, null outside teaching"),
        .field("classes", \.classes))
}

extension KOSService {
    func timetableWeek(_ params: Params) async throws -> KOSWeek {
        try await week(of: params[KOSParams.week] ?? today, account: params[KOSParams.account]).answer
    }

    /// The week of `day`: its classes (as the picture draws them) and its answer.
    func week(of day: DateOnly, account: String?) async throws -> (answer: KOSWeek, classes: [DatedClass]) {
        let monday = day.adding(days: -day.weekdayFromMonday)
        let username = try await username(account)
        let semester = try await self.semester("current").value
        guard let start = semester.startDay else { throw KOSError.badAnswer("the current semester has no start date") }
        let slots = try await context.cache.read(account: username, key: ReadCache.key("timetable", ["sem": "current"])) {
            SlotsAnswer(slots: try await timetableSlots(username, sem: "current"))
        }.value.slots
        let schedule = schedule(code: semester.code, kosStart: start)
        let classes = datedClasses(slots, username: username, from: monday, to: monday.adding(days: 6), schedule: schedule)
        // The week of its Monday, or of teaching's first day when teaching starts within it.
        let firstDay = DateOnly(schedule.teachingStart).flatMap { $0 > monday && $0 <= monday.adding(days: 6) ? $0 : nil }
        let teaching = schedule.teachingWeek(of: firstDay ?? monday)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.zone
        let clock = { (date: Date) in
            String(format: "%02d:%02d", calendar.component(.hour, from: date), calendar.component(.minute, from: date))
        }
        let lessons = classes.map { lesson in
            KOSWeek.Lesson(
                date: DateOnly(lesson.start, in: Self.zone).description, start: clock(lesson.start), end: lesson.end.map(clock),
                title: lesson.subject, kind: lesson.kind, room: lesson.room, teachers: lesson.teachers)
        }
        let answer = KOSWeek(
            week: monday.description, semester: semester.code, teachingWeek: teaching,
            parity: teaching.map(schedule.parity(ofWeek:)), classes: lessons)
        return (answer, classes)
    }
}
