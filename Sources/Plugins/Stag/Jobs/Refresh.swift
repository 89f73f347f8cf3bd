import Foundation
import PluginKit

/// `stag.refresh`: for each account, the kit's refresh coordinator compares exam terms, grades
/// and the next 14 days of the timetable with the stored baseline and the plugin posts what is
/// new. The baseline is per account and survives restarts and expired tickets: an account that
/// needs a new login is skipped, and after the login the comparison is against the state from
/// before, so nothing that arrived in between is lost. A new account's first refresh is the
/// baseline: no flood of "new" notices.
extension StagService {
    func runRefresh() async throws {
        var failures: [String] = []
        for account in try await accounts.list() where account.state == .ready {
            do {
                try await refresh(account.name)
            } catch {
                // One failing account does not stop the others.
                context.logger.warning(
                    "stag.refresh failed", metadata: ["account": "\(account.name)", "error": "\((error as? RPCError)?.message ?? "\(error)")"])
                failures.append("\(account.name): \((error as? RPCError)?.message ?? "\(error)")")
            }
        }
        if !failures.isEmpty {
            throw RPCError(code: RPCErrorCode.upstreamUnreachable, message: "stag.refresh failed for \(failures.joined(separator: "; "))")
        }
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
            for event in events where event["type"] != "exam" {
                let key = [event["date"], event["action_id"] ?? .null, event["subject"], event["start"]].map { $0?.encodedString() ?? "" }.joined(
                    separator: "|")
                items[key] = event
            }
            try await context.refresh.check("timetable", account: name, items: items) { [self] change in
                try await timetableChanged(name, change, from: from, to: to)
            }
        }
        try await StagStore.refreshed(account: name, at: ISO8601.string(context.clock.now), in: context.database)
        let icsPath = context.config[StagConfig.icsPath]
        if !icsPath.isEmpty, try await accounts.resolve(nil).name == name {
            // The default account's calendar, a week back and four months ahead, replaced atomically.
            _ = try await writeCalendar(session, from: today.adding(days: -7), to: today.adding(days: 120), path: icsPath, param: "ics_path")
        }
    }

    // MARK: What changed

    func examsChanged(_ account: String, _ change: RefreshCoordinator.Change) async throws {
        guard !change.isBaseline else { return }
        for (id, snapshot) in change.added.sorted(by: { $0.key < $1.key }) {
            // The snapshot is this version's own encoding of the term; one it cannot read is
            // left out rather than stopping the others' notices.
            guard let term = try? ExamTerm(json: snapshot) else { continue }
            try await context.notifier.post(
                topic: StagTopic.examNew, title: "New exam term: \(term.title)",
                body: "\(term.when)\(term.inRoom), \(term.kind ?? "term"), \(term.seats). stag.exams.register term_id=\(id)",
                dedupeKey: "stag.exam.new:\(account):\(id)")
        }
    }

    func gradesChanged(_ account: String, _ change: RefreshCoordinator.Change) async throws {
        guard !change.isBaseline else { return }
        let graded =
            change.added.values.filter { $0["grade"] != .null }
            + change.changed.values.filter { $0.old["grade"] != $0.new["grade"] && $0.new["grade"] != .null }.map(\.new)
        for row in graded.sorted(by: { ($0["subject"]?.stringValue ?? "") < ($1["subject"]?.stringValue ?? "") }) {
            let grade = row["grade"].map { $0.stringValue ?? $0.encodedString() } ?? "?"
            try await context.notifier.post(
                topic: StagTopic.gradeNew, title: "\(Self.subjectTitle(row)): \(grade)",
                body:
                    "Grade \(grade) (\(row["passed"] == true ? "passed" : "not passed"))\(row["date"]?.stringValue.map { ", \($0)" } ?? "")\(row["examiner"]?.stringValue.map { ", \($0)" } ?? "").",
                dedupeKey:
                    "stag.grade.new:\(account):\(row["subject"]?.stringValue ?? ""):\(row["year"]?.encodedString() ?? ""):\(row["semester"]?.stringValue ?? ""):\(grade):\(row["date"]?.stringValue ?? "")"
            )
        }
    }

    func timetableChanged(_ account: String, _ change: RefreshCoordinator.Change, from: DateOnly, to: DateOnly) async throws {
        guard !change.isBaseline else { return }
        for pair in change.changed.values where pair.old["room"] != pair.new["room"] {
            let event = pair.new
            try await context.notifier.post(
                topic: StagTopic.timetableChanged, title: "Room change: \(Self.subjectTitle(event)) on \(event["date"]?.stringValue ?? "")",
                body: "\(Self.when(event)): \(pair.old["room"]?.stringValue ?? "no room") → \(event["room"]?.stringValue ?? "no room")",
                dedupeKey:
                    "stag.timetable.room:\(account):\(event["date"]?.stringValue ?? ""):\(event["subject"]?.stringValue ?? ""):\(event["start"]?.stringValue ?? ""):\(event["room"]?.stringValue ?? "")"
            )
        }
        for event in change.removed.values {
            // Only classes still ahead and inside the window: the window moving on is not a cancellation.
            guard let day = event["date"]?.stringValue.flatMap(DateOnly.init), day >= from, day <= to else { continue }
            try await context.notifier.post(
                topic: StagTopic.timetableChanged, title: "Cancelled: \(Self.subjectTitle(event)) on \(day)",
                body: "\(Self.when(event))\(Self.room(event)) no longer takes place.", severity: .warning,
                dedupeKey: "stag.timetable.cancelled:\(account):\(day):\(event["subject"]?.stringValue ?? ""):\(event["start"]?.stringValue ?? "")")
        }
    }

    /// `stag.exam.tomorrow` at evening_at.
    func runEvening() async throws {
        let tomorrow = today.adding(days: 1)
        for account in try await accounts.list() where account.state == .ready {
            do {
                let session = try await session(account.name)
                guard let student = session.roles.first(where: \.isStudent) else { continue }
                try await alerts.postTomorrow(account: account.name, try await examTerms(session, student), day: tomorrow)
            } catch {
                context.logger.warning(
                    "stag.evening failed", metadata: ["account": "\(account.name)", "error": "\((error as? RPCError)?.message ?? "\(error)")"])
            }
        }
    }

    static func subjectTitle(_ row: JSONValue) -> String {
        let subject = row["subject"]?.stringValue ?? "?"
        return row["name"]?.stringValue.map { "\(subject) \($0)" } ?? subject
    }

    static func when(_ row: JSONValue) -> String {
        [row["date"]?.stringValue, row["start"]?.stringValue].compactMap { $0 }.joined(separator: " ")
    }

    static func room(_ row: JSONValue) -> String { row["room"]?.stringValue.map { " in \($0)" } ?? "" }

    static func seats(_ term: JSONValue) -> String {
        let occupied = term["occupied"]?.intValue ?? 0
        return term["limit"]?.intValue.map { "\(occupied)/\($0) seats taken" } ?? "\(occupied) registered, no limit"
    }
}
