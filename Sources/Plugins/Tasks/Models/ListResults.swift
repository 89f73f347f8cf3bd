import Foundation
import PluginKit

// Typed answers of the categories, feeds, files and accounts commands: each type is the
// declaration of its result (`@ResultObject`).

@ResultObject
struct CategoryRow: Sendable {
    let name: String
    let builtin: Bool
    let tasks: Int
}

@ResultObject
struct CategoryList: CallResult {
    let categories: [CategoryRow]
}

@ResultObject
struct CategoryAdded: CallResult {
    let name: String
}

@ResultObject
struct FeedRow: Sendable {
    let name: String
    let url: String
    let items: Int
    @Schema(.dateTime) let fetchedAt: String?
    let problem: String?
    @Flatten let skipped: FeedSkipped
}

/// What a feed's read left out: how many events and to-dos, and the first reasons.
@ResultObject
struct FeedSkipped: Sendable {
    static let reasonsKept = 5

    /// events and to-dos of the feed left out at its last read
    let skipped: Int
    /// why, the first few (without the events' text)
    @Key("skipped_reasons") let reasons: [String]

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

@ResultObject
struct FeedList: CallResult {
    let feeds: [FeedRow]
}

/// One feed fetched: whether it changed and how many items it now has (null when unchanged),
/// or why it could not be read.
@ResultObject
struct FeedRefreshed: Sendable {
    let name: String
    let changed: Bool
    /// left out when the feed could not be read
    @OmitWhenNil let items: Int??
    @OmitWhenNil let problem: String?

    init(name: String, changed: Bool, items: Int?, problem: String?) {
        self.name = name
        self.changed = changed
        self.items = problem == nil ? .some(items) : nil
        self.problem = problem
    }
}

@ResultObject
struct FeedRefreshList: CallResult {
    let feeds: [FeedRefreshed]
}

/// `tasks.delete`: the task and its sub-tasks, or one occurrence of a repeating one.
@ResultObject
struct TaskDeleted: CallResult {
    let deleted: String
    /// an occurrence's original start (RECURRENCE-ID)
    @OmitWhenNil @Schema(.occurrenceKey) let occurrence: String?
    @OmitWhenNil let withSubtasks: [String]?

    init(deleted: String, occurrence: String?, withSubtasks: [String]) {
        self.deleted = deleted
        self.occurrence = occurrence
        self.withSubtasks = occurrence == nil ? withSubtasks : nil
    }
}

@ResultObject
struct Snoozed: CallResult {
    let id: String
    @Schema(.dateTime) let remindAt: String
}

@ResultObject
struct ICSExported: CallResult {
    let path: String
    let todos: Int
    let events: Int
    let bytes: Int
}

/// `tasks.import.ics`: what was (or, in a dry run, would be) added, updated and left alone, and
/// the first problems (each the item and why, as the calendar reader words it).
@ResultObject
struct ICSImported: CallResult {
    let path: String
    let dryRun: Bool
    let added: Int
    let updated: Int
    let unchanged: Int
    /// every problem, counted
    let skipped: Int
    /// the first 1 000
    @Schema(.array(.object(["uid": JSONSchema.string.nullable, "summary": JSONSchema.string.nullable, "reason": .string])))
    let problems: [JSONValue]
    let todos: Int
    let events: Int
}

@ResultObject
struct CalendarRow: Sendable {
    let href: String
    let name: String
    let components: [String]
}

/// `tasks.caldav.add`: the account as saved, the calendars chosen for to-dos and events (null
/// when the server has none of that kind) and every calendar the server offered.
@ResultObject
struct CalDAVAdded: CallResult {
    let name: String
    let url: String
    let username: String
    @Schema(.enumeration(CalDAVSync.Conflict.self)) let conflict: String
    let todoCalendar: String?
    let eventCalendar: String?
    let calendars: [CalendarRow]
}

/// One account's sync: what moved each way and how many requests it took, or why it failed
/// (one account's failure does not stop the others).
typealias CalDAVSynced = OneOf<CalDAVSyncDone, AccountFailed>

@ResultObject
struct CalDAVSyncDone: Sendable {
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
}

@ResultObject
struct CalDAVSyncList: CallResult {
    let accounts: [CalDAVSynced]
}

/// `tasks.feeds.add`: the feed (its address without credentials or tokens) and its items.
@ResultObject
struct FeedAdded: CallResult {
    let name: String
    /// its query hidden
    let url: String
    let items: Int
    @Flatten let skipped: FeedSkipped
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
