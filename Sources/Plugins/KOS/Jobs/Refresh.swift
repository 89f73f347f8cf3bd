import Foundation
import PluginKit
import StudyKit

/// `kos.refresh` (every `refresh_every_min`): for each account whose login is usable, the kit's
/// refresh coordinator compares its enrolled courses' exams, their course events and its
/// enrolments with the stored baseline, and the plugin posts what is new. The baseline is the
/// account's and survives restarts and expired logins: while a login needs renewing that account
/// is skipped, and after it the comparison is against the state from before, so nothing that
/// arrived in between is lost. An account's first refresh is the baseline: no flood of "new"
/// notices.
extension KOSService {
    func runRefresh() async throws {
        try await EachAccount("kos.refresh", logger: context.logger).run(try await tokens.readyUsernames()) { try await refresh($0) }
    }

    func refresh(_ username: String) async throws {
        let exams = try await examRows(username: username, sem: "current")
        let snapshot = Dictionary(exams.map { ($0.id, $0.json) }) { first, _ in first }
        try await context.refresh.check("exams", account: username, items: snapshot) { [self] change in
            try await examsChanged(username, change)
        }
        try await alerts.postDeadlines(account: username, exams)
        try await alerts.postSignupClosing(account: username, exams, within: context.config[KOSConfig.signupWarningH])
        let events = try await eventRows(username, sem: "current")
        let items = Dictionary(events.map { ($0.id, $0.json) }) { first, _ in first }
        try await context.refresh.check("events", account: username, items: items) { [self] change in
            try await eventsChanged(username, change)
        }
        var results: [String: JSONValue] = [:]
        for row in try await enrolments(username, sem: "none") { results[row.snapshotKey] = row.json }
        try await context.refresh.check("results", account: username, items: results) { [self] change in
            try await resultsChanged(username, change)
        }
        try await armClassReminders(username)
        let icsPath = context.config[KOSConfig.icsPath]
        // The default account's calendar.
        if !icsPath.isEmpty, try await tokens.readyUsername() == username {
            _ = try await writeCalendar(username, sem: "current", path: icsPath, param: KOSConfig.icsPath.key, overwrite: true)
        }
    }

    /// The classes of the next days, for the kit's reminders: the timetable's slots placed on
    /// their dates (two more reads a refresh, made only while reminders are on).
    func armClassReminders(_ username: String) async throws {
        guard context.config[KOSConfig.classReminderMin] > 0 else {
            try await classReminders.disarm(account: username)
            return
        }
        let semester = try await semesterBounds("current")
        let from = max(today, semester.start)
        let to = min(today.adding(days: 8), semester.end)
        guard from <= to else {
            try await classReminders.disarm(account: username)
            return
        }
        let slots = try await timetableSlots(username, sem: semester.code)
        let classes = datedClasses(
            slots, username: username, from: from, to: to, schedule: schedule(code: semester.code, kosStart: semester.start))
        // A login ended while this refresh read is not armed again.
        guard try await tokens.readyUsernames().contains(username) else { return }
        try await classReminders.arm(
            account: username, classes.map { StudyClass(key: $0.key, start: $0.start, end: $0.end, title: $0.title, room: $0.room) })
    }

    // MARK: What changed

    func examsChanged(_ username: String, _ change: RefreshCoordinator.Change) async throws {
        guard !change.isBaseline else { return }
        for (id, snapshot) in change.added.sorted(by: { $0.key < $1.key }) {
            // The snapshot is this version's own encoding; one it cannot read does not stop the others.
            guard let exam = try? KOSExam(json: snapshot) else { continue }
            let language = context.language
            try await context.notifier.post(
                topic: KOSTopic.examNew,
                title: NoticeWords.newDate.text(language, ["kind": NoticeWords.kind(exam.kind).text(language), "course": exam.courseName]),
                body: "\(exam.when)\(exam.inRoom(language)), \(exam.seats(language)). "
                    + NoticeWords.registerInKOS.text(language, ["url": context.config[KOSConfig.kosURL]]),
                dedupeKey: "kos.exam.new:\(username):\(id)")
        }
    }

    func eventsChanged(_ username: String, _ change: RefreshCoordinator.Change) async throws {
        guard !change.isBaseline else { return }
        for (id, snapshot) in change.added.sorted(by: { $0.key < $1.key }) {
            // The snapshots are this version's own encodings; one it cannot read does not stop the others.
            guard let event = try? KOSCourseEvent(json: snapshot) else { continue }
            try await context.notifier.post(
                topic: KOSTopic.eventNew,
                title: NoticeWords.newEvent.text(context.language, ["course": event.course ?? "?", "name": event.name ?? ""]),
                body: "\(event.when)\(event.inRoom(context.language)), \(event.seats(context.language)).",
                dedupeKey: "kos.event.new:\(username):\(id)")
        }
    }

    /// A course that becomes completed, or whose assessment is granted.
    func resultsChanged(_ username: String, _ change: RefreshCoordinator.Change) async throws {
        guard !change.isBaseline else { return }
        for (key, pair) in change.changed.sorted(by: { $0.key < $1.key }) {
            guard let old = try? KOSEnrolment(json: pair.old), let new = try? KOSEnrolment(json: pair.new) else { continue }
            let completed = !old.completed && new.completed
            let assessed = !old.assessment && new.assessment
            guard completed || assessed else { continue }
            let what = (completed ? NoticeWords.completed : NoticeWords.assessmentGranted).text(context.language)
            let credits = completed ? new.credits.map { NoticeWords.credits.text(context.language, ["credits": "\($0)"]) } ?? "" : ""
            try await context.notifier.post(
                topic: KOSTopic.resultChanged, title: "\(new.title): \(what)", body: "\(new.title) (\(new.semester ?? "")): \(what)\(credits).",
                dedupeKey: "kos.result.changed:\(username):\(key):\(completed ? "completed" : "assessment")")
        }
    }

    /// A cancel deadline: a date-only one lasts to the end of that day.
    static func deadline(_ text: String, in zone: TimeZone = zone) -> Date? {
        if text.contains("T") { return DateOnly.instant(text, in: zone) }
        return DateOnly(String(text.prefix(10)))?.adding(days: 1).at("00:00", in: zone)
    }

    /// `kos.evening` at `evening_at`: `kos.exam.tomorrow` for each registered exam tomorrow.
    func runEvening() async throws {
        try await EachAccount("kos.evening", logger: context.logger).run(try await tokens.readyUsernames()) { username in
            try await alerts.postTomorrow(
                account: username, try await examRows(username: username, sem: "current", mine: true), day: today.adding(days: 1))
        }
    }
}
