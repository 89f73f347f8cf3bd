import Foundation
import GRDB
import PluginKit

/// One reminder of one occurrence, due at `fireAt`.
struct PendingReminder: Sendable {
    let fireAt: Date
    /// task | occurrence | reminder index: the dedupe key, stable across restarts.
    let key: String
    let occurrence: Occurrence
}

extension TaskItem {
    /// Reminders firing in [from, to), in order. Relative reminders apply to every occurrence.
    func reminders(from: Date, to: Date) -> [PendingReminder] {
        guard !reminders.isEmpty, deletedAt == nil, status != .cancelled else { return [] }
        if kind == .todo && status == .completed { return [] }
        var result: [PendingReminder] = []
        let z = zone
        let maxLead = reminders.compactMap(\.beforeMin).map { Double(max($0, 0)) * 60 }.max() ?? 0
        let maxLag = reminders.compactMap(\.beforeMin).map { Double(max(-$0, 0)) * 60 }.max() ?? 0
        let span = (start != nil && due != nil) ? Double(abs(dueOffset ?? 0)) : 0
        let occurrences: [Occurrence] =
            isRecurring
            ? self.occurrences(from: from.addingTimeInterval(-maxLag - span - 86_400), to: to.addingTimeInterval(maxLead + 86_400))
            : anchor.map { [occurrence(at: $0)] } ?? []
        for (i, r) in reminders.enumerated() {
            if let at = r.at {
                if at >= from && at < to, let o = occurrences.first ?? anchor.map({ occurrence(at: $0) }) {
                    result.append(PendingReminder(fireAt: at, key: "\(id)|at|\(i)", occurrence: o))
                }
                continue
            }
            for o in occurrences where o.status != .cancelled && !(kind == .todo && o.status == .completed) {
                let base = r.of == .due ? o.due : (o.start ?? o.due)
                guard let base else { continue }
                let instant = allDay ? z.instant(WallTime(year: base.year, month: base.month, day: base.day)) : z.instant(base)
                let fire = instant.addingTimeInterval(-Double(r.beforeMin ?? 0) * 60)
                if fire >= from && fire < to {
                    result.append(PendingReminder(fireAt: fire, key: "\(id)|\(o.recurrenceID?.text ?? "once")|\(i)", occurrence: o))
                }
            }
        }
        return result.sorted { $0.fireAt < $1.fireAt }
    }

    /// The first reminder at or after `from` (looking up to 400 days ahead).
    func nextReminder(from: Date) -> PendingReminder? {
        var windowEnd = from.addingTimeInterval(35 * 86_400)
        while windowEnd <= from.addingTimeInterval(400 * 86_400) {
            if let first = reminders(from: from, to: windowEnd).first { return first }
            windowEnd = windowEnd.addingTimeInterval(120 * 86_400)
        }
        return nil
    }
}

extension TasksService {
    private static func oneShotID(_ taskID: String) -> String { "reminder.\(taskID)" }

    /// At start: delivers what was missed while down, then arms every task's next reminder (one
    /// entry each in the scheduler's single queue, so 30 000 reminders cost memory, not tasks).
    func armAllReminders(startup: Bool) async throws {
        let now = self.now
        let grace = Double(context.config[TasksConfig.missedGraceHours]) * 3600
        // One read for everything start-up needs: the tasks, when each was last looked at, its snooze.
        let (tasks, states) = try await database.read { db in
            (
                try TaskItem.fetch(db, where: "deleted_at IS NULL AND reminders != '[]'"),
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT task_id, armed_from, snooze_at FROM tasks_reminder_state")
                        .map {
                            (
                                $0["task_id"] as String,
                                (
                                    from: Date(timeIntervalSince1970: $0["armed_from"]),
                                    snooze: ($0["snooze_at"] as Double?).map(Date.init(timeIntervalSince1970:))
                                )
                            )
                        })
            )
        }
        var late: [(TaskItem, PendingReminder)] = []
        var tooOld: [(TaskItem, PendingReminder)] = []
        if startup {
            for t in tasks {
                let from = states[t.id]?.from ?? t.modified
                guard from < now else { continue }
                for r in t.reminders(from: from, to: now) {
                    if now.timeIntervalSince(r.fireAt) <= grace { late.append((t, r)) } else { tooOld.append((t, r)) }
                }
            }
        }
        // Only keys that can still matter: nothing before the earliest moment looked at (or now).
        let earliest = tasks.map { states[$0.id]?.from ?? $0.modified }.min() ?? now
        let sent = try await database.read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT key FROM tasks_reminders_sent WHERE fire_at >= ?",
                    arguments: [min(earliest, now).timeIntervalSince1970 - 1]))
        }
        for (t, r) in late where !sent.contains(r.key) { try await deliver(t, r, late: true) }
        let missed = tooOld.filter { !sent.contains($0.1.key) }
        if !missed.isEmpty {
            let lines = missed.prefix(20).map { "\($0.0.title) (\(Self.describe($0.1.fireAt, zone: $0.0.zone)))" }
            let title = missed.count == 1 ? NoticeWords.oneMissed : NoticeWords.manyMissed
            let more = missed.count > 20 ? "\n" + NoticeWords.andMore.text(context.language, ["count": "\(missed.count - 20)"]) : ""
            try await context.notifier.post(
                topic: TasksTopic.remindersMissed, title: title.text(context.language, ["count": "\(missed.count)"]),
                body: lines.joined(separator: "\n") + more,
                severity: .warning, dedupeKey: "tasks.reminders.missed:\(Int(now.timeIntervalSince1970))")
            try await markSent(missed.map { ($0.0.id, $0.1) })
        }
        var batch: [(id: String, at: Date, action: @Sendable () async throws -> Void)] = []
        var stateRows: [(String, Double)] = []
        for t in tasks {
            stateRows.append((t.id, now.timeIntervalSince1970))
            if let next = Self.nextFire(t, from: now, snooze: states[t.id]?.snooze, isSent: { sent.contains($0) }) {
                let id = t.id
                batch.append((id: Self.oneShotID(id), at: next, action: { [self] in try await self.fireReminders(taskID: id) }))
            }
        }
        try await database.write { [stateRows] db in
            for (id, at) in stateRows { try Self.markArmed(db, taskID: id, from: at) }
        }
        await context.scheduler.fire(batch)
    }

    /// Hands a committed `ReminderArming` to the scheduler (memory only: nothing here can fail
    /// half-way or be cancelled into losing a reminder, which `armAllReminders` would re-arm at
    /// the next start anyway, from the same rows).
    func arm(_ arming: ReminderArming) async {
        for id in arming.disarmed { await context.scheduler.cancel(id: Self.oneShotID(id)) }
        await context.scheduler.fire(
            arming.next.map { entry in
                let id = entry.taskID
                return (id: Self.oneShotID(id), at: entry.at, action: { [self] in try await self.fireReminders(taskID: id) })
            })
    }

    /// The next instant this task needs the scheduler: its next reminder not yet delivered (a
    /// snooze may have delivered it early), or its snooze.
    static func nextFire(_ t: TaskItem, from: Date, snooze: Date?, isSent: (String) -> Bool) -> Date? {
        var next = t.nextReminder(from: from)
        if let r = next, isSent(r.key) { next = t.nextReminder(from: r.fireAt.addingTimeInterval(0.001)) }
        return [next?.fireAt, snooze].compactMap { $0 }.min()
    }

    /// `nextFire` for one task, reading its snooze and delivered keys.
    private func nextFire(_ t: TaskItem, from: Date) async throws -> Date? {
        try await database.read { db in try Self.nextFire(t, from: from, db: db) }
    }

    static func nextFire(_ t: TaskItem, from: Date, db: Database) throws -> Date? {
        let snooze = try Double.fetchOne(db.cachedStatement(sql: "SELECT snooze_at FROM tasks_reminder_state WHERE task_id = ?"), arguments: [t.id])
        let sent = Set(
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT key FROM tasks_reminders_sent WHERE task_id = ? AND fire_at >= ?"),
                arguments: [t.id, from.timeIntervalSince1970 - 1]))
        return nextFire(t, from: from, snooze: snooze.map(Date.init(timeIntervalSince1970:)), isSent: { sent.contains($0) })
    }

    /// Reminders of this task count from `from` on (what was due before was looked at).
    static func markArmed(_ db: Database, taskID: String, from: Date) throws {
        try markArmed(db, taskID: taskID, from: from.timeIntervalSince1970)
    }

    static func markArmed(_ db: Database, taskID: String, from seconds: Double) throws {
        try db.cachedStatement(
            sql:
                "INSERT INTO tasks_reminder_state(task_id, armed_from) VALUES (?, ?) "
                + "ON CONFLICT(task_id) DO UPDATE SET armed_from = excluded.armed_from"
        ).execute(arguments: [taskID, seconds])
    }

    private func wasSent(_ key: String) async throws -> Bool {
        try await database.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM tasks_reminders_sent WHERE key = ?", arguments: [key]) ?? false }
    }

    /// After an edit: reminders count from now (an edit never fires one in the past).
    func armReminders(taskID: String) async {
        let now = self.now
        do {
            // One transaction: the task, its state row and its next reminder, as an import does.
            let arming = try await database.write { db -> ReminderArming in
                guard let t = try TaskItem.find(db, taskID) else { return ReminderArming(disarmed: [taskID]) }
                return try ReminderArming([t], db: db, now: now)
            }
            await arm(arming)
        } catch {
            context.logger.error("could not arm reminders", metadata: ["task": "\(taskID)", "error": "\(ErrorText.sentence(error))"])
        }
    }

    func disarmReminders(taskID: String) async {
        await context.scheduler.cancel(id: Self.oneShotID(taskID))
    }

    /// The scheduler's call at a reminder's minute: delivers everything due since the last look.
    func fireReminders(taskID: String) async throws {
        let now = self.now
        let (task, armedFrom, snoozeAt, snoozeKey) = try await database.read { db -> (TaskItem?, Date, Date?, String?) in
            let row = try Row.fetchOne(
                db, sql: "SELECT armed_from, snooze_at, snooze_key FROM tasks_reminder_state WHERE task_id = ?", arguments: [taskID])
            return (
                try TaskItem.find(db, taskID), Date(timeIntervalSince1970: row?["armed_from"] ?? now.timeIntervalSince1970),
                (row?["snooze_at"] as Double?).map(Date.init(timeIntervalSince1970:)), row?["snooze_key"]
            )
        }
        guard let task else { return }
        for r in task.reminders(from: armedFrom, to: now.addingTimeInterval(0.001)) where !(try await wasSent(r.key)) {
            try await deliver(task, r, late: false)
        }
        if let snoozeAt, snoozeAt <= now {
            let o = task.currentOccurrence(now: now) ?? task.occurrence(at: task.anchor)
            let key = "\(snoozeKey ?? "\(taskID)|snooze")|snooze@\(Int(snoozeAt.timeIntervalSince1970))"
            try await deliver(task, PendingReminder(fireAt: snoozeAt, key: key, occurrence: o), late: false)
            try await database.write { db in
                try db.execute(sql: "UPDATE tasks_reminder_state SET snooze_at = NULL WHERE task_id = ?", arguments: [taskID])
            }
        }
        try await database.write { db in
            try db.execute(
                sql: "UPDATE tasks_reminder_state SET armed_from = ? WHERE task_id = ?", arguments: [now.timeIntervalSince1970 + 0.001, taskID])
        }
        if let next = try await nextFire(task, from: now.addingTimeInterval(0.001)) {
            await context.scheduler.fire(at: next, id: Self.oneShotID(taskID)) { [self] in try await self.fireReminders(taskID: taskID) }
        }
    }

    private func markSent(_ items: [(String, PendingReminder)]) async throws {
        let now = self.now.timeIntervalSince1970
        try await database.write { db in
            for (taskID, r) in items {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO tasks_reminders_sent(key, task_id, fire_at, sent_at) VALUES (?, ?, ?, ?)",
                    arguments: [r.key, taskID, r.fireAt.timeIntervalSince1970, now])
            }
        }
    }

    static func describe(_ instant: Date, zone: Zone, allDay: Bool = false) -> String {
        let w = zone.wall(instant)
        let f = String(format: "%04d-%02d-%02d", w.year, w.month, w.day)
        return allDay ? f : f + String(format: " %02d:%02d", w.hour, w.minute) + " \(zone.identifier)"
    }

    /// Posts one reminder on the task's channels (mail carries the task as an .ics file).
    func deliver(_ t: TaskItem, _ r: PendingReminder, late: Bool) async throws {
        let o = r.occurrence
        let z = t.zone
        var lines: [String] = []
        let language = context.language
        if let s = o.start ?? o.due {
            let when = t.allDay ? s.asDate.text : "\(s.text.replacingOccurrences(of: "T", with: " ").dropLast(3)) \(z.identifier)"
            lines.append((t.kind == .todo && o.start == nil ? NoticeWords.due : NoticeWords.when).text(language) + ": " + when)
        }
        if t.kind == .todo, o.start != nil, let d = o.due {
            let due = t.allDay ? d.asDate.text : "\(d.text.replacingOccurrences(of: "T", with: " ").dropLast(3)) \(z.identifier)"
            lines.append(NoticeWords.due.text(language) + ": " + due)
        }
        if let l = o.location, !l.isEmpty { lines.append(NoticeWords.place.text(language) + ": " + l) }
        if !o.notes.isEmpty {
            lines.append("")
            lines.append(o.notes)
        }
        var body = lines.joined(separator: "\n")
        if late { body = NoticeWords.late.text(language, ["time": Self.describe(r.fireAt, zone: z)]) + "\n" + body }
        let fallback = await defaultChannels()
        let channels = Set((t.channels ?? fallback).compactMap(NoticeChannel.init(rawValue:)))
        var attachments: [OutgoingAttachment] = []
        if channels.contains(.mail) {
            let ics = ICSWriter.calendar([t], method: "PUBLISH", syncAlarms: true)
            attachments.append(
                OutgoingAttachment(
                    name: "\(Self.fileName(t.title)).ics", contentType: "text/calendar; method=PUBLISH; charset=utf-8", data: Data(ics.utf8)))
        }
        try await context.notifier.post(
            topic: TasksTopic.reminder, title: o.title, body: body, severity: o.isOverdue(now: now) ? .warning : .info,
            dedupeKey: "tasks.reminder:\(r.key)", attachments: attachments, channels: channels)
        try await markSent([(t.id, r)])
    }

    static func fileName(_ title: String) -> String {
        let cleaned = title.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        let name = String(cleaned.prefix(60))
        return name.isEmpty ? "task" : name
    }

    func snooze(_ params: Params) async throws -> Snoozed {
        let id = try await taskID(try params[TasksParams.id])
        let minutes = try params[TasksParams.minutes]
        let now = self.now
        let at = now.addingTimeInterval(Double(minutes) * 60)
        guard let task = try await database.read({ db in try TaskItem.find(db, id) }) else { throw TasksError.noSuchTask(id) }
        let lastKey = try await database.read { db in
            try String.fetchOne(
                db, sql: "SELECT key FROM tasks_reminders_sent WHERE task_id = ? ORDER BY sent_at DESC, fire_at DESC LIMIT 1", arguments: [id])
        }
        var key = lastKey
        if lastKey == nil {
            // Nothing fired yet: the next pending reminder moves to `at`.
            guard let next = task.nextReminder(from: now) else { throw TasksError.nothingToSnooze(id) }
            key = next.key
            try await markSent([(id, next)])
        }
        try await database.write { [key] db in
            try db.execute(
                sql: """
                    INSERT INTO tasks_reminder_state(task_id, armed_from, snooze_at, snooze_key) VALUES (?, ?, ?, ?)
                    ON CONFLICT(task_id) DO UPDATE SET snooze_at = excluded.snooze_at, snooze_key = excluded.snooze_key
                    """,
                arguments: [id, now.timeIntervalSince1970, at.timeIntervalSince1970, key])
        }
        if let next = try await nextFire(task, from: now) {
            await context.scheduler.fire(at: next, id: Self.oneShotID(id)) { [self] in try await self.fireReminders(taskID: id) }
        }
        return Snoozed(id: id, remindAt: ISO8601.string(at))
    }

    // MARK: digest

    func runDigest() async throws {
        guard context.config[TasksConfig.digest] else { return }
        let z = defaultZone
        let today = z.wall(now).asDate
        let agendaResult = try await agenda(from: z.instant(today), to: z.instant(today.adding(days: 1)))
        let overdueResult = try await overdue()
        let language = context.language
        var lines: [String] = [NoticeWords.today.text(language)]
        for row in agendaResult.occurrences {
            let local = row.startWall.map { $0.isDate ? $0.asDate.text : $0.text } ?? ""
            let time = row.occurrence.task.allDay ? NoticeWords.allDay.text(language) : String(local.dropFirst(11).prefix(5))
            lines.append("  \(time)  \(row.occurrence.title)")
        }
        if lines.count == 1 { lines.append("  " + NoticeWords.nothing.text(language)) }
        let overdue = overdueResult.tasks.map(\.task)
        if !overdue.isEmpty {
            lines.append(NoticeWords.overdue.text(language))
            for t in overdue {
                let local = (t.due ?? t.start).map { t.allDay || $0.isDate ? $0.asDate.text : $0.text } ?? ""
                lines.append("  " + NoticeWords.overdueItem.text(language, ["title": t.title, "due": local]))
            }
        }
        try await context.notifier.post(
            topic: TasksTopic.digest, title: NoticeWords.agenda.text(language, ["day": today.text]), body: lines.joined(separator: "\n"),
            severity: overdue.isEmpty ? .info : .warning, dedupeKey: "tasks.digest:\(today.text)")
    }
}

/// The reminders of tasks just written, worked out inside the writing transaction: each task's
/// state row is written there, and what remains is the scheduler's queue (`TasksService.arm`).
struct ReminderArming: Sendable {
    var next: [(taskID: String, at: Date)] = []
    /// Tasks without a reminder now, whose earlier one-shot (if any) goes.
    var disarmed: [String] = []

    init(disarmed: [String] = []) { self.disarmed = disarmed }

    /// As `armReminders(taskID:)` always did for one task: the state row for every live task
    /// (a snooze outlives its reminders), then its next fire or none.
    init(_ tasks: [TaskItem], db: Database, now: Date) throws {
        for t in tasks { try add(t, db: db, now: now) }
    }

    /// One more task, for writers that save a task at a time (the calendar import).
    mutating func add(_ t: TaskItem, db: Database, now: Date) throws {
        guard t.deletedAt == nil else {
            disarmed.append(t.id)
            return
        }
        try TasksService.markArmed(db, taskID: t.id, from: now)
        if let at = try TasksService.nextFire(t, from: now, db: db) {
            next.append((t.id, at))
        } else {
            disarmed.append(t.id)
        }
    }
}
