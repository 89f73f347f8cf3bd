import Foundation
import GRDB
import PluginKit

/// A calendar file into the store, a task at a time, inside the caller's transaction (so the
/// caller decides, at the end, between committing and rolling everything back). A series waits in
/// memory only until its overridden instances, which the stream counted beforehand, have come.
struct CalendarImport {
    /// Problems listed in the reply; all are counted.
    static let listedProblems = 1_000

    private(set) var added = 0, updated = 0, unchanged = 0, todos = 0, events = 0
    /// Tasks, events and overridden instances read so far.
    private(set) var read = 0
    private(set) var problems: [JSONValue] = []
    private(set) var problemCount = 0
    private(set) var arming = ReminderArming()

    private let db: Database
    private let dryRun: Bool
    private let now: Date
    private let fileUIDs: [String: Int]
    private var categories: Set<String>
    /// Series whose overridden instances have not all come yet, with how many are missing.
    private var waiting: [String: (task: TaskItem, missing: Int)] = [:]
    /// Overridden instances whose series has not come yet.
    private var early: [String: [ICSStream<CalendarFile>.Override]] = [:]

    init(db: Database, dryRun: Bool, now: Date, fileUIDs: [String: Int]) throws {
        self.db = db
        self.dryRun = dryRun
        self.now = now
        self.fileUIDs = fileUIDs
        categories = Set(try String.fetchAll(db, sql: "SELECT name FROM tasks_categories"))
    }

    mutating func take(_ item: ICSStream<CalendarFile>.Item) throws {
        read += 1
        switch item {
        case .problem(let problem):
            report(uid: problem.uid, summary: problem.summary, reason: problem.reason)
        case .task(var task):
            let overrides = early.removeValue(forKey: task.id) ?? []
            for o in overrides { o.apply(to: &task) }
            let missing = (fileUIDs[task.id] ?? 0) - overrides.count
            if missing > 0 {
                waiting[task.id] = (task, missing)
            } else {
                try save(task)
            }
        case .override(let o):
            guard var series = waiting[o.uid] else {
                early[o.uid, default: []].append(o)
                return
            }
            o.apply(to: &series.task)
            series.missing -= 1
            if series.missing > 0 {
                waiting[o.uid] = series
            } else {
                waiting[o.uid] = nil
                try save(series.task)
            }
        }
    }

    /// Saves the series some of whose instances could not be read, and reports the instances
    /// whose series never came.
    mutating func finish() throws {
        for (_, series) in waiting.sorted(by: { $0.key < $1.key }) { try save(series.task) }
        waiting = [:]
        for (_, overrides) in early.sorted(by: { $0.key < $1.key }) {
            for o in overrides { report(uid: o.uid, summary: o.summary, reason: CalendarLimits.orphan) }
        }
        early = [:]
    }

    private mutating func report(uid: String?, summary: String?, reason: String) {
        problemCount += 1
        guard problems.count < Self.listedProblems else { return }
        problems.append(["uid": uid.map(JSONValue.string) ?? .null, "summary": summary.map(JSONValue.string) ?? .null, "reason": .string(reason)])
    }

    private mutating func save(_ task: TaskItem) throws {
        var t = task
        if t.category == nil, let first = t.tags.first, categories.contains(first.lowercased()) {
            t.category = first.lowercased()
            t.tags.removeFirst()
        }
        if let parent = t.parent, fileUIDs[parent] == nil, try TaskItem.find(db, parent) == nil {
            t.extra.append("RELATED-TO;RELTYPE=PARENT:\(parent)")
            t.parent = nil
        }
        do throws(RPCError) {
            try TaskInput.validate(&t, now: now)
        } catch {
            report(uid: t.id, summary: t.title, reason: error.message)
            return
        }
        if t.kind == .todo { todos += 1 } else { events += 1 }
        if let category = t.category, !categories.contains(category) {
            if !dryRun { try db.execute(sql: "INSERT OR IGNORE INTO tasks_categories(name, builtin) VALUES (?, 0)", arguments: [category]) }
            categories.insert(category)
        }
        if let existing = try TaskItem.find(db, t.id, includeDeleted: true) {
            if existing.deletedAt == nil && existing.sequence == t.sequence && abs(existing.modified.timeIntervalSince(t.modified)) < 1 {
                unchanged += 1
                return
            }
            t.created = existing.created
            updated += 1
        } else {
            added += 1
        }
        guard !dryRun else { return }
        try t.save(db)
        // The reminders' state is written in the same transaction, so that what follows the
        // commit is only the scheduler's in-memory queue: nothing a timeout or a client hanging
        // up can cut off half-way (it once logged 40 819 "could not arm" errors).
        try arming.add(t, db: db, now: now)
    }
}
