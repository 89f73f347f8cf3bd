import Foundation
import PluginKit

/// The Stag part of `today`, for each ready account: the day's classes (both roles) and my
/// registered exam terms of that day and the 7 after it. Read through the offline cache: a copy
/// younger than `DayQuery.cacheAge` is taken as it is, and a STAG that is down still shows the
/// day it last gave.
extension StagService: DayContributing {
    /// The teaching week of the first ready account's university, from its calendar of the year.
    public func studyWeek(_ query: DayQuery) async throws -> StudyWeek? {
        guard let account = try await accounts.list().first(where: { $0.state == .ready }) else { return nil }
        let session = try await session(account.name)
        let academicYear = Int64(query.date.month >= 9 ? query.date.year : query.date.year - 1)
        let year = try await teachingYear(session, year: academicYear)
        return Self.teachingWeek(of: query.date, in: year.value, academicYear: academicYear)
    }

    public func dayItems(_ query: DayQuery) async throws -> [DayItem] {
        var items: [DayItem] = []
        let all = try await accounts.list()
        let many = all.count > 1
        for account in all where account.state == .ready {
            let shown = many ? account.name : nil
            do {
                items += try await dayItems(query, account: account.name, shown: shown)
            } catch {
                // One account that cannot be read does not hide the others' day.
                items.append(
                    DayItem(kind: .warning, title: "STAG could not be read", detail: RPCError(sending: error).message, account: account.name))
            }
        }
        return items
    }

    func dayItems(_ query: DayQuery, account name: String, shown: String?) async throws -> [DayItem] {
        var items: [DayItem] = []
        let session = try await session(name)
        if let roles = try? Self.timetableRoles(session, "all") {
            let day = query.date
            let answer = try await cachedModel(
                session, "timetable", ["from": .string(day.description), "to": .string(day.description), "role": "all"],
                fresherThan: DayQuery.cacheAge
            ) {
                TimetableAnswer(events: try await timetableEvents(session, roles: roles, from: day, to: day))
            }
            for event in answer.value.events where !event.isExam {
                guard let start = event.start.flatMap({ day.at($0, in: zone) }) else { continue }
                items.append(
                    DayItem(
                        kind: .class, title: [event.title, event.type.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "), start: start,
                        end: event.end.flatMap { day.at($0, in: zone) }, place: event.room,
                        detail: event.teachers.isEmpty ? nil : event.teachers.joined(separator: ", "),
                        account: shown))
            }
        }
        guard let student = session.roles.first(where: \.isStudent) else { return items }
        let answer = try await cachedModel(session, "exams", [:], fresherThan: DayQuery.cacheAge) {
            ExamTermsAnswer(terms: try await examTerms(session, student))
        }
        for term in answer.value.terms where term.state == .registered {
            guard let day = term.day, let start = term.start.flatMap({ day.at($0, in: zone) }) ?? day.at("00:00", in: zone),
                start >= query.start, start < query.examsUntil
            else { continue }
            items.append(
                DayItem(
                    kind: .exam, title: term.title, start: start, end: term.end.flatMap { day.at($0, in: zone) }, allDay: term.start == nil,
                    place: term.room, detail: term.examiner, account: shown))
        }
        return items
    }
}
