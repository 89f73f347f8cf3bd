import Foundation
import PluginKit

// Typed answers of the categories and feeds commands, written straight into the reply; their
// schemas are in TaskSchemas. A field the schema gives as "or null" is always written.

struct CategoryRow: Encodable, Sendable {
    let name: String
    let builtin: Bool
    let tasks: Int
}

struct CategoryList: Encodable, CallResult {
    let categories: [CategoryRow]
}

struct CategoryAdded: Encodable, CallResult {
    let name: String
}

struct FeedRow: Encodable, Sendable {
    let name: String
    let url: String
    let items: Int
    let fetchedAt: String?
    let problem: String?
    let skipped: FeedSkipped

    enum CodingKeys: String, CodingKey {
        case name, url, items, problem
        case fetchedAt = "fetched_at"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(name, forKey: .name)
        try o.encode(url, forKey: .url)
        try o.encode(items, forKey: .items)
        try o.encode(fetchedAt, forKey: .fetchedAt)
        try o.encode(problem, forKey: .problem)
        try skipped.encode(to: encoder)
    }
}

/// What a feed's read left out: how many events and to-dos, and the first reasons.
struct FeedSkipped: Encodable, Sendable {
    static let reasonsKept = 5

    let skipped: Int
    let reasons: [String]

    enum CodingKeys: String, CodingKey {
        case skipped
        case reasons = "skipped_reasons"
    }

    init(skipped: Int, reasons: [String]) {
        self.skipped = skipped
        self.reasons = reasons
    }

    /// From the reader's problems: the reasons in the order met, each once.
    init(_ problems: [ICSReader.Problem]) {
        var reasons: [String] = []
        for problem in problems where !reasons.contains(problem.reason) && reasons.count < Self.reasonsKept { reasons.append(problem.reason) }
        self.init(skipped: problems.count, reasons: reasons)
    }

    /// As stored with the feed (`skipped_reasons` holds a JSON list).
    init(count: Int, stored: String) {
        let list = (try? JSONValue.decode(stored))?.arrayValue?.compactMap(\.stringValue) ?? []
        self.init(skipped: count, reasons: list)
    }

    var storedReasons: String { JSONValue.array(reasons.map(JSONValue.string)).encodedString() }
}

struct FeedList: Encodable, CallResult {
    let feeds: [FeedRow]
}

/// One feed fetched: whether it changed and how many items it now has (null when unchanged),
/// or why it could not be read.
struct FeedRefreshed: Encodable, Sendable {
    let name: String
    let changed: Bool
    let items: Int?
    let problem: String?

    enum CodingKeys: String, CodingKey { case name, changed, items, problem }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(name, forKey: .name)
        try o.encode(changed, forKey: .changed)
        if let problem { try o.encode(problem, forKey: .problem) } else { try o.encode(items, forKey: .items) }
    }
}

struct FeedRefreshList: Encodable, CallResult {
    let feeds: [FeedRefreshed]
}

/// `tasks.delete`: the task and its sub-tasks, or one occurrence of a repeating one.
struct TaskDeleted: Encodable, CallResult {
    let deleted: String
    /// The occurrence left out (an instant in UTC, or a date for all-day), when one was.
    let occurrence: String?
    let withSubtasks: [String]

    enum CodingKeys: String, CodingKey {
        case deleted, occurrence
        case withSubtasks = "with_subtasks"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(deleted, forKey: .deleted)
        if let occurrence { try o.encode(occurrence, forKey: .occurrence) } else { try o.encode(withSubtasks, forKey: .withSubtasks) }
    }
}

struct Snoozed: Encodable, CallResult {
    let id: String
    let remindAt: String

    enum CodingKeys: String, CodingKey {
        case id
        case remindAt = "remind_at"
    }
}

struct ICSExported: Encodable, CallResult {
    let path: String
    let todos: Int
    let events: Int
    let bytes: Int
}

/// `tasks.import.ics`: what was (or, in a dry run, would be) added, updated and left alone, and
/// the first problems (each the item and why, as the calendar reader words it).
struct ICSImported: Encodable, CallResult {
    let path: String
    let dryRun: Bool
    let added: Int
    let updated: Int
    let unchanged: Int
    let skipped: Int
    let problems: [JSONValue]
    let todos: Int
    let events: Int

    enum CodingKeys: String, CodingKey {
        case path, added, updated, unchanged, skipped, problems, todos, events
        case dryRun = "dry_run"
    }
}

struct CalendarRow: Encodable, Sendable {
    let name: String
    let href: String
    let components: [String]
}

/// `tasks.caldav.add`: the account as saved, the calendars chosen for to-dos and events (null
/// when the server has none of that kind) and every calendar the server offered.
struct CalDAVAdded: Encodable, CallResult {
    let name: String
    let url: String
    let username: String
    let conflict: String
    let todoCalendar: String?
    let eventCalendar: String?
    let calendars: [CalendarRow]

    enum CodingKeys: String, CodingKey {
        case name, url, username, conflict, calendars
        case todoCalendar = "todo_calendar"
        case eventCalendar = "event_calendar"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(name, forKey: .name)
        try o.encode(url, forKey: .url)
        try o.encode(username, forKey: .username)
        try o.encode(conflict, forKey: .conflict)
        try o.encode(todoCalendar, forKey: .todoCalendar)
        try o.encode(eventCalendar, forKey: .eventCalendar)
        try o.encode(calendars, forKey: .calendars)
    }
}

/// One account's sync: what moved each way and how many requests it took, or why it failed
/// (one account's failure does not stop the others).
struct CalDAVSynced: Encodable, Sendable {
    let name: String
    let counts: CalDAVSync.Counts?
    let error: RPCError?

    enum CodingKeys: String, CodingKey { case name, pulled, pushed, deleted, merged, requests, error, code }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(name, forKey: .name)
        if let counts {
            try o.encode(counts.pulled, forKey: .pulled)
            try o.encode(counts.pushed, forKey: .pushed)
            try o.encode(counts.deleted, forKey: .deleted)
            try o.encode(counts.merged, forKey: .merged)
            try o.encode(counts.requests, forKey: .requests)
        }
        if let error {
            try o.encode(error.message, forKey: .error)
            try o.encode(error.code, forKey: .code)
        }
    }
}

struct CalDAVSyncList: Encodable, CallResult {
    let accounts: [CalDAVSynced]
}

/// `tasks.feeds.add`: the feed (its address without credentials or tokens) and its items.
struct FeedAdded: Encodable, CallResult {
    let name: String
    let url: String
    let items: Int
    let skipped: FeedSkipped

    enum CodingKeys: String, CodingKey { case name, url, items }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(name, forKey: .name)
        try o.encode(url, forKey: .url)
        try o.encode(items, forKey: .items)
        try skipped.encode(to: encoder)
    }
}

/// `tasks.caldav.list`: each account as the kit shows it, with how many items it syncs.
struct CalDAVAccounts: Encodable, CallResult {
    struct Row: Encodable {
        var account: Accounts.Account
        var items: Int

        enum CodingKeys: String, CodingKey { case items }

        /// The account's members, then `items`, in one object.
        func encode(to encoder: any Encoder) throws {
            try account.encode(to: encoder)
            var o = encoder.container(keyedBy: CodingKeys.self)
            try o.encode(items, forKey: .items)
        }
    }

    var accounts: [Row]
}
