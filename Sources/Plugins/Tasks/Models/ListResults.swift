import Foundation
import PluginKit

// Typed answers of the categories, feeds, files and accounts commands: each type is the
// declaration of its result (`ResultObject`).

struct CategoryRow: ResultObject, Sendable {
    let name: String
    let builtin: Bool
    let tasks: Int

    static let members = ResultMembers<Self>(.field("name", \.name), .field("builtin", \.builtin), .field("tasks", \.tasks))
}

struct CategoryList: ResultObject, CallResult {
    let categories: [CategoryRow]

    static let members = ResultMembers<Self>(.field("categories", \.categories))
}

struct CategoryAdded: ResultObject, CallResult {
    let name: String

    static let members = ResultMembers<Self>(.field("name", \.name))
}

struct FeedRow: ResultObject, Sendable {
    let name: String
    let url: String
    let items: Int
    let fetchedAt: String?
    let problem: String?
    let skipped: FeedSkipped

    static let members = ResultMembers<Self>(
        .field("name", \.name),
        .field("url", \.url),
        .field("items", \.items),
        .field("fetched_at", \.fetchedAt, .dateTime),
        .field("problem", \.problem),
        .flattened(\.skipped))
}

/// What a feed's read left out: how many events and to-dos, and the first reasons.
struct FeedSkipped: ResultObject, Sendable {
    static let reasonsKept = 5

    let skipped: Int
    let reasons: [String]

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

    static let members = ResultMembers<Self>(
        .field("skipped", \.skipped, "events and to-dos of the feed left out at its last read"),
        .field("skipped_reasons", \.reasons, "why, the first few (without the events' text)"))
}

struct FeedList: ResultObject, CallResult {
    let feeds: [FeedRow]

    static let members = ResultMembers<Self>(.field("feeds", \.feeds))
}

/// One feed fetched: whether it changed and how many items it now has (null when unchanged),
/// or why it could not be read.
struct FeedRefreshed: ResultObject, Sendable {
    let name: String
    let changed: Bool
    let items: Int??
    let problem: String?

    init(name: String, changed: Bool, items: Int?, problem: String?) {
        self.name = name
        self.changed = changed
        self.items = problem == nil ? .some(items) : nil
        self.problem = problem
    }

    static let members = ResultMembers<Self>(
        .field("name", \.name),
        .field("changed", \.changed),
        .omittedWhenNil("items", \.items, "left out when the feed could not be read"),
        .omittedWhenNil("problem", \.problem))
}

struct FeedRefreshList: ResultObject, CallResult {
    let feeds: [FeedRefreshed]

    static let members = ResultMembers<Self>(.field("feeds", \.feeds))
}

/// `tasks.delete`: the task and its sub-tasks, or one occurrence of a repeating one.
struct TaskDeleted: ResultObject, CallResult {
    let deleted: String
    let occurrence: String?
    let withSubtasks: [String]?

    init(deleted: String, occurrence: String?, withSubtasks: [String]) {
        self.deleted = deleted
        self.occurrence = occurrence
        self.withSubtasks = occurrence == nil ? withSubtasks : nil
    }

    static let members = ResultMembers<Self>(
        .field("deleted", \.deleted),
        .omittedWhenNil("occurrence", \.occurrence, .occurrenceKey, "an occurrence's original start (RECURRENCE-ID)"),
        .omittedWhenNil("with_subtasks", \.withSubtasks))
}

struct Snoozed: ResultObject, CallResult {
    let id: String
    let remindAt: String

    static let members = ResultMembers<Self>(.field("id", \.id), .field("remind_at", \.remindAt, .dateTime))
}

struct ICSExported: ResultObject, CallResult {
    let path: String
    let todos: Int
    let events: Int
    let bytes: Int

    static let members = ResultMembers<Self>(.field("path", \.path), .field("todos", \.todos), .field("events", \.events), .field("bytes", \.bytes))
}

/// `tasks.import.ics`: what was (or, in a dry run, would be) added, updated and left alone, and
/// the first problems (each the item and why, as the calendar reader words it).
struct ICSImported: ResultObject, CallResult {
    let path: String
    let dryRun: Bool
    let added: Int
    let updated: Int
    let unchanged: Int
    let skipped: Int
    let problems: [JSONValue]
    let todos: Int
    let events: Int

    static let members = ResultMembers<Self>(
        .field("path", \.path),
        .field("dry_run", \.dryRun),
        .field("added", \.added),
        .field("updated", \.updated),
        .field("unchanged", \.unchanged),
        .field("skipped", \.skipped, "every problem, counted"),
        .field(
            "problems", \.problems, .array(.object(["uid": JSONSchema.string.nullable, "summary": JSONSchema.string.nullable, "reason": .string])),
            "the first 1 000"),
        .field("todos", \.todos),
        .field("events", \.events))
}

struct CalendarRow: ResultObject, Sendable {
    let href: String
    let name: String
    let components: [String]

    static let members = ResultMembers<Self>(.field("href", \.href), .field("name", \.name), .field("components", \.components))
}

/// `tasks.caldav.add`: the account as saved, the calendars chosen for to-dos and events (null
/// when the server has none of that kind) and every calendar the server offered.
struct CalDAVAdded: ResultObject, CallResult {
    let name: String
    let url: String
    let username: String
    let conflict: String
    let todoCalendar: String?
    let eventCalendar: String?
    let calendars: [CalendarRow]

    static let members = ResultMembers<Self>(
        .field("name", \.name),
        .field("url", \.url),
        .field("username", \.username),
        .field("conflict", \.conflict, .enumeration(CalDAVSync.Conflict.self)),
        .field("todo_calendar", \.todoCalendar),
        .field("event_calendar", \.eventCalendar),
        .field("calendars", \.calendars))
}

/// One account's sync: what moved each way and how many requests it took, or why it failed
/// (one account's failure does not stop the others).
typealias CalDAVSynced = OneOf<CalDAVSyncDone, AccountFailed>

struct CalDAVSyncDone: ResultObject, Sendable {
    let name: String
    let pulled: Int
    let pushed: Int
    let deleted: Int
    let merged: Int
    let requests: Int

    init(name: String, _ counts: CalDAVSync.Counts) {
        self.name = name
        pulled = counts.pulled
        pushed = counts.pushed
        deleted = counts.deleted
        merged = counts.merged
        requests = counts.requests
    }

    static let members = ResultMembers<Self>(
        .field("name", \.name),
        .field("pulled", \.pulled),
        .field("pushed", \.pushed),
        .field("deleted", \.deleted),
        .field("merged", \.merged),
        .field("requests", \.requests))
}

struct CalDAVSyncList: ResultObject, CallResult {
    let accounts: [CalDAVSynced]

    static let members = ResultMembers<Self>(.field("accounts", \.accounts))
}

/// `tasks.feeds.add`: the feed (its address without credentials or tokens) and its items.
struct FeedAdded: ResultObject, CallResult {
    let name: String
    let url: String
    let items: Int
    let skipped: FeedSkipped

    static let members = ResultMembers<Self>(
        .field("name", \.name),
        .field("url", \.url, "its query hidden"),
        .field("items", \.items),
        .flattened(\.skipped))
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

extension CalDAVAccounts: ResultDescribing {
    /// An account's settings are stored as the kit's dictionary, so their schema is declared
    /// here, once, for the kit's account schema to take in.
    static let settings: KeyValuePairs<String, JSONSchema> = [
        "url": .string, "username": .string, "conflict": .enumeration(CalDAVSync.Conflict.self),
        "todo_calendar?": .string, "event_calendar?": .string,
    ]

    static var resultSchema: JSONSchema {
        .object(["accounts": .array(Accounts.accountSchema(settings: settings).adding(["items": .integer]))])
    }
}
