import Foundation
import PictureKit
import PluginKit

/// `kos.timetable.pdf {week?, path}`: the week's classes as they hang on a wall (A4 landscape
/// PDF, or a PNG by the path's extension): the current semester's slots placed on that week as
/// `kos.export.ics` places them (week parity from `first_week_parity`, a slot's `weeks`).
extension KOSService {
    func timetablePicture(_ params: Params) async throws -> WeekPictureWritten {
        let path = try params[KOSParams.picturePath]
        let target = try Picture.output(path, overwrite: params[FileOutput.overwrite] ?? false)
        let day = params[KOSParams.week] ?? today
        let monday = day.adding(days: -day.weekdayFromMonday)
        let (week, classes) = try await self.week(of: day, account: params[KOSParams.account])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.zone
        let entries = classes.map { lesson in
            let weekday = (calendar.component(.weekday, from: lesson.start) + 5) % 7 + 1
            let minutes = { (date: Date) in calendar.component(.hour, from: date) * 60 + calendar.component(.minute, from: date) }
            let begin = minutes(lesson.start)
            return WeekPicture.Entry(
                weekday: weekday, start: begin, end: max(lesson.end.map(minutes) ?? begin + 90, begin + 15), title: lesson.title,
                detail: [lesson.room, lesson.teachers.first].compactMap { $0 }.joined(separator: " · "))
        }
        // An empty week is said, not drawn (an empty grid on the wall would say there are no classes).
        guard !entries.isEmpty else {
            throw RPCError.notFound("classes in the week of \(monday)", data: ["week": .string(monday.description)])
        }
        let picture = WeekPicture(
            title: "Timetable \(week.semester), week of \(monday)",
            dateOfDay: { (monday.adding(days: $0).day, monday.adding(days: $0).month) }, entries: entries)
        let bytes = try await picture.written(to: target)
        return WeekPictureWritten(path: path, format: target.format, bytes: bytes, week: monday, classes: entries.count)
    }
}
