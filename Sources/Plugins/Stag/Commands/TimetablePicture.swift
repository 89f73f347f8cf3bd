import Foundation
import PictureKit
import PluginKit

/// `stag.timetable.pdf {week?, path}`: the week's timetable as it hangs on a wall (A4 landscape
/// PDF, or a PNG by the path's extension), every role merged as `stag.timetable` gives it.
extension StagService {
    func timetablePicture(_ params: Params) async throws -> WeekPictureWritten {
        let path = try params[StagParams.picturePath]
        let target = try Picture.output(path, overwrite: params[FileOutput.overwrite] ?? false)
        let day = params[StagParams.week] ?? today
        let monday = day.adding(days: -day.weekdayFromMonday)
        let week = try await timetable(from: monday, to: monday.adding(days: 6), role: "all", account: params[StagParams.account])
        let entries = week.value.events.compactMap { event -> WeekPicture.Entry? in
            guard let date = DateOnly(event.date), let start = WeekPicture.minutes(event.start) else { return nil }
            let end = WeekPicture.minutes(event.end) ?? start + 45
            let title = [event.subject, event.type].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            let detail = [event.room, event.name].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
            return WeekPicture.Entry(weekday: date.weekdayFromMonday + 1, start: start, end: max(end, start + 15), title: title, detail: detail)
        }
        // An empty week is said, not drawn (an empty grid on the wall would say there are no classes).
        guard !entries.isEmpty else {
            throw RPCError.notFound("classes in the week of \(monday)", data: ["week": .string(monday.description)])
        }
        let picture = WeekPicture(
            title: "Timetable, week of \(monday)",
            dateOfDay: { (monday.adding(days: $0).day, monday.adding(days: $0).month) },
            entries: entries)
        let bytes = try await picture.written(to: target)
        return WeekPictureWritten(path: path, format: target.format, bytes: bytes, week: monday, classes: entries.count)
    }
}
