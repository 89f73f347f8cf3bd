import Foundation
import PluginKit
import StudyKit

/// `stag.refresh`: for each account, the kit's refresh coordinator compares exam terms, grades
/// and the next 14 days of the timetable with the stored baseline and the plugin posts what is
/// new. The baseline is per account and survives restarts and expired tickets: an account that
/// needs a new login is skipped, and after the login the comparison is against the state from
/// before, so nothing that arrived in between is lost. A new account's first refresh is the
/// baseline: no flood of "new" notices.
extension StagService {
    func runRefresh() async throws {
        try await EachAccount("stag.refresh", logger: context.logger).run(try await readyAccounts()) { try await refresh($0) }
    }

    func readyAccounts() async throws -> [String] {
        try await accounts.list().filter { $0.state == .ready }.map(\.name)
    }

    func refresh(_ name: String) async throws {
        let session = try await session(name)
        if let student = session.roles.first(where: \.isStudent) {
            let subjects = try await subjectsOf(session, student)
            let terms = try await examTerms(session, student, subjects: subjects)
            let snapshot = Dictionary(terms.map { (String($0.termID), $0.json) }) { first, _ in first }
            try await context.refresh.check("exams", account: name, items: snapshot) { [self] change in
                try await examsChanged(name, change)
            }
            try await alerts.postDeadlines(account: name, terms)
            try await alerts.postSignupClosing(account: name, terms, within: context.config[StagConfig.signupWarningH])
            let grades = try await gradeRows(session, student, year: nil, subjects: subjects)
            var items: [String: JSONValue] = [:]
            for row in grades { items["\(row.subject)@\(row.year ?? 0)\(row.semester ?? "")"] = row.json }
            try await context.refresh.check("grades", account: name, items: items) { [self] change in
                try await gradesChanged(name, change)
            }
        }
        let roles = (try? Self.timetableRoles(session, "all")) ?? []
        if !roles.isEmpty {
            let from = today
            let to = from.adding(days: 14)
            let events = try await timetableEvents(session, roles: roles, from: from, to: to)
            var items: [String: JSONValue] = [:]
            for event in events where !event.isExam { items[event.snapshotKey] = event.json }
            try await context.refresh.check("timetable", account: name, items: items) { [self] change in
                try await timetableChanged(name, change, from: from, to: to)
            }
            // An account removed while this refresh read is not armed again.
            if try await accounts.list().contains(where: { $0.name == name }) {
                try await classReminders.arm(account: name, events.compactMap(studyClass))
            }
        }
        try await StagStore.refreshed(account: name, at: ISO8601.string(context.clock.now), in: context.database)
        let icsPath = context.config[StagConfig.icsPath]
        if !icsPath.isEmpty, try await accounts.resolve(nil).name == name {
            // The default account's calendar, a week back and four months ahead, replaced atomically.
            _ = try await writeCalendar(
                session, from: today.adding(days: -7), to: today.adding(days: 120), path: icsPath, param: StagConfig.icsPath.key, overwrite: true)
        }
    }

    // MARK: What changed

    func examsChanged(_ account: String, _ change: RefreshCoordinator.Change) async throws {
        guard !change.isBaseline else { return }
        for (id, snapshot) in change.added.sorted(by: { $0.key < $1.key }) {
            // The snapshot is this version's own encoding of the term; one it cannot read is
            // left out rather than stopping the others' notices.
            guard let term = try? ExamTerm(json: snapshot) else { continue }
            let language = context.language
            try await context.notifier.post(
                topic: StagTopic.examNew, title: NoticeWords.newTerm.text(language, ["title": term.title]),
                body: NoticeWords.newTermBody.text(
                    language,
                    [
                        "when": term.when, "room": term.inRoom(language), "kind": term.kind ?? NoticeWords.term.text(language),
                        "seats": term.seats(language), "command": "stag.exams.register term_id=\(id)",
                    ]),
                dedupeKey: "stag.exam.new:\(account):\(id)")
        }
    }

    func gradesChanged(_ account: String, _ change: RefreshCoordinator.Change) async throws {
        guard !change.isBaseline else { return }
        // The snapshots are this version's own encodings; one it cannot read is left out rather
        // than stopping the others' notices.
        let added = change.added.values.compactMap { try? GradeRow(json: $0) }
        let regraded = change.changed.values.compactMap { pair -> GradeRow? in
            guard let old = try? GradeRow(json: pair.old), let new = try? GradeRow(json: pair.new), old.grade != new.grade else { return nil }
            return new
        }
        for row in (added + regraded).sorted(by: { $0.subject < $1.subject }) {
            guard let grade = row.grade?.text else { continue }
            let details = [row.date, row.examiner].compactMap { $0 }.map { ", \($0)" }.joined()
            try await context.notifier.post(
                topic: StagTopic.gradeNew, title: "\(row.title): \(grade)",
                body: NoticeWords.grade.text(
                    context.language,
                    ["grade": grade, "passed": (row.passed ? NoticeWords.passed : NoticeWords.notPassed).text(context.language), "details": details]),
                // As earlier versions keyed it (a missing year as "null"), so a grade told before is not told again.
                dedupeKey:
                    "stag.grade.new:\(account):\(row.subject):\(row.year.map { String($0) } ?? "null"):"
                    + "\(row.semester ?? ""):\(grade):\(row.date ?? "")"
            )
        }
    }

    func timetableChanged(_ account: String, _ change: RefreshCoordinator.Change, from: DateOnly, to: DateOnly) async throws {
        guard !change.isBaseline else { return }
        for pair in change.changed.values {
            guard let old = try? TimetableEvent(json: pair.old), let event = try? TimetableEvent(json: pair.new), old.room != event.room else {
                continue
            }
            let noRoom = NoticeWords.noRoom.text(context.language)
            try await context.notifier.post(
                topic: StagTopic.timetableChanged, title: NoticeWords.roomChange.text(context.language, ["title": event.title, "date": event.date]),
                body: "\(event.when): \(old.room ?? noRoom) → \(event.room ?? noRoom)",
                dedupeKey: "stag.timetable.room:\(account):\(event.date):\(event.subject ?? ""):\(event.start ?? ""):\(event.room ?? "")")
        }
        for snapshot in change.removed.values {
            // Only classes still ahead and inside the window: the window moving on is not a cancellation.
            guard let event = try? TimetableEvent(json: snapshot), let day = event.day, day >= from, day <= to else { continue }
            try await context.notifier.post(
                topic: StagTopic.timetableChanged, title: NoticeWords.cancelled.text(context.language, ["title": event.title, "date": "\(day)"]),
                body: NoticeWords.cancelledBody.text(context.language, ["when": event.when, "room": event.inRoom(context.language)]),
                severity: .warning,
                dedupeKey: "stag.timetable.cancelled:\(account):\(day):\(event.subject ?? ""):\(event.start ?? "")")
        }
    }

    /// A class (not an exam: those have their own notices) as the kit's reminders read it.
    func studyClass(_ event: TimetableEvent) -> StudyClass? {
        guard !event.isExam, let day = event.day, let start = event.start.flatMap({ day.at($0, in: zone) }) else { return nil }
        return StudyClass(
            key: event.snapshotKey, start: start, end: event.end.flatMap { day.at($0, in: zone) },
            title: [event.title, event.type.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "), room: event.room)
    }

    /// `stag.exam.tomorrow` at evening_at.
    func runEvening() async throws {
        let tomorrow = today.adding(days: 1)
        try await EachAccount("stag.evening", logger: context.logger).run(try await readyAccounts()) { name in
            let session = try await session(name)
            guard let student = session.roles.first(where: \.isStudent) else { return }
            try await alerts.postTomorrow(account: name, try await examTerms(session, student), day: tomorrow)
        }
    }

}
