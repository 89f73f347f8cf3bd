import Foundation
import PluginKit

/// The KOS part of `today`, for each logged-in account: the day's classes (my parallels' slots
/// placed by week parity, when the day is in the current semester) and my registered exams of
/// that day and the 7 after it. Read through the offline cache, taking a copy younger than
/// `DayQuery.cacheAge` as it is.
extension KOSService: DayContributing {
    /// The teaching week the day falls in, as the timetable places classes (`kos.timetable.week`).
    public func studyWeek(_ query: DayQuery) async throws -> StudyWeek? {
        let week = try await self.week(of: query.date, account: nil).answer
        guard let number = week.teachingWeek, let parity = week.parity.flatMap(StudyWeek.Parity.init(rawValue:)) else { return nil }
        return StudyWeek(semester: week.semester, number: number, parity: parity)
    }

    public func dayItems(_ query: DayQuery) async throws -> [DayItem] {
        var items: [DayItem] = []
        let usernames = try await tokens.readyUsernames()
        for username in usernames {
            do {
                items += try await dayItems(query, username: username, shown: usernames.count > 1 ? username : nil)
            } catch {
                // One account that cannot be read does not hide the others' day.
                items.append(DayItem(kind: .warning, title: "KOS could not be read", detail: RPCError(sending: error).message, account: username))
            }
        }
        return items
    }

    func dayItems(_ query: DayQuery, username: String, shown: String?) async throws -> [DayItem] {
        var items: [DayItem] = []
        let semester = try await self.semester("current", fresherThan: DayQuery.cacheAge).value
        if let start = semester.startDay, let end = semester.endDay, query.date >= start, query.date <= end {
            let slots = try await context.cache.read(
                account: username, key: ReadCache.key("timetable", ["sem": "current"]), fresherThan: DayQuery.cacheAge
            ) {
                SlotsAnswer(slots: try await timetableSlots(username, sem: "current"))
            }.value.slots
            let schedule = schedule(code: semester.code, kosStart: start)
            for lesson in datedClasses(slots, username: username, from: query.date, to: query.date, schedule: schedule) {
                items.append(
                    DayItem(
                        kind: .class, title: lesson.title, start: lesson.start, end: lesson.end, place: lesson.room,
                        detail: lesson.teachers.isEmpty ? nil : lesson.teachers.joined(separator: ", "), account: shown))
            }
        }
        let key = ReadCache.key("exams", ["sem": "current", "mine": true, "course": .null])
        let answer = try await context.cache.read(account: username, key: key, fresherThan: DayQuery.cacheAge) {
            KOSExamsAnswer(exams: try await examRows(username: username, sem: "current", mine: true))
        }
        for exam in answer.value.exams where exam.registered {
            guard let start = exam.startInstant, start >= query.start, start < query.examsUntil else { continue }
            items.append(
                DayItem(
                    kind: .exam, title: "\(exam.courseName) (\(exam.kind.rawValue))", start: start, end: exam.endInstant, place: exam.room,
                    detail: exam.examiners.isEmpty ? nil : exam.examiners.joined(separator: ", "), account: shown))
        }
        return items
    }
}
