import PluginKit

/// The JSON Schemas of the tasks plugin's results, declared beside the commands that return them.
enum TaskSchemas {
    /// A start, due or end: a date for all-day items, else an instant in UTC.
    static let when = JSONSchema.anyOf([.date, .dateTime]).nullable
    /// Its wall-clock twin in the task's zone (`2026-12-01T09:00`), or the date.
    static let local = JSONSchema.string.nullable.described("wall-clock time in tz (YYYY-MM-DDTHH:MM), or the date for all-day items")
    static let occurrenceKey = JSONSchema.anyOf([.date, .dateTime]).described("an occurrence's original start (RECURRENCE-ID)")
    static let kind = JSONSchema.enumeration(TaskKind.self)
    static let status = JSONSchema.enumeration(TaskStatus.self)

    static let reminder = JSONSchema.anyOf([
        .object(["before_min": .integer, "of": .enumeration(["start", "due"])]),
        .object(["at": .dateTime]),
    ])

    /// One occurrence, as the agenda lists it and a repeating task's `next` shows it.
    static let occurrence = JSONSchema.object([
        "id": .string, "title": .string, "kind": kind, "all_day": .boolean, "tz": .string, "status": status, "overdue": .boolean,
        "source": .string, "category": JSONSchema.string.nullable, "start": when, "start_local": local, "end": when, "end_local": local,
        "due?": when, "due_local?": local, "occurrence?": occurrenceKey, "location?": .string,
    ])

    static let task = JSONSchema.object([
        "id": .string, "title": .string, "notes": .string, "kind": kind, "category": JSONSchema.string.nullable, "tags": .array(.string),
        "priority": JSONSchema.integer.described("1 (highest) … 9, 0 = none"), "parent": JSONSchema.string.nullable,
        "location": JSONSchema.string.nullable, "url": JSONSchema.string.nullable, "status": status,
        "completed_at": JSONSchema.dateTime.nullable, "created": .dateTime, "modified": .dateTime, "tz": .string, "all_day": .boolean,
        "duration_min": JSONSchema.integer.nullable, "rrule": JSONSchema.string.nullable, "exdates": .array(occurrenceKey),
        "rdates": .array(occurrenceKey), "repeat_from": .enumeration(["due", "completion"]), "reminders": .array(reminder),
        "channels": .array(.string), "source": JSONSchema.string.described("local, feed:<name> or caldav:<account>"),
        "read_only": .boolean, "start": when, "start_local": local, "due": when, "due_local": local, "end": when, "end_local": local,
        "overdue": .boolean, "next?": occurrence.described("a repeating task's current occurrence"),
        "overrides?": .array(
            .object([
                "occurrence": occurrenceKey, "title?": .string, "status?": status, "location?": .string, "notes?": .string,
                "start": when, "start_local": local, "due?": when, "due_local?": local, "end?": when, "end_local?": local,
            ])),
        "deleted_at?": .dateTime,
    ]).described("the whole task: times in UTC with their *_local twins in tz, dates for all-day items")

    static let list = JSONSchema.object([
        "tasks": .array(task), "count": JSONSchema.integer.described("how many matched"),
        "truncated": JSONSchema.boolean.described("more matched than limit"),
    ])

    static let agenda = JSONSchema.object([
        "occurrences": .array(occurrence), "truncated": JSONSchema.boolean.described("the limit was reached before the window's end"),
        "next_from": JSONSchema.dateTime.nullable.described("when truncated: the from to continue with"),
    ])

    static let deleted = JSONSchema.object(["deleted": .string, "occurrence?": occurrenceKey, "with_subtasks?": .array(.string)])
    static let snoozed = JSONSchema.object(["id": .string, "remind_at": .dateTime])
    static let removed = JSONSchema.object(["removed": .string])

    static let exported = JSONSchema.object(["path": .string, "todos": .integer, "events": .integer, "bytes": .integer])
    static let imported = JSONSchema.object([
        "path": .string, "dry_run": .boolean, "added": .integer, "updated": .integer, "unchanged": .integer,
        "skipped": JSONSchema.integer.described("every problem, counted"),
        "problems": .array(.object(["uid": JSONSchema.string.nullable, "summary": JSONSchema.string.nullable, "reason": .string]))
            .described("the first 1 000"),
        "todos": .integer, "events": .integer,
    ])

    static let skippedEvents = JSONSchema.integer.described("events and to-dos of the feed left out at its last read")
    static let skippedReasons = JSONSchema.array(JSONSchema.string).described("why, the first few (without the events' text)")
    static let feed = JSONSchema.object([
        "name": .string, "url": JSONSchema.string.described("its query hidden"), "items": .integer, "skipped": skippedEvents,
        "skipped_reasons": skippedReasons,
    ])
    static let feeds = JSONSchema.object([
        "feeds": .array(
            .object([
                "name": .string, "url": .string, "items": .integer, "fetched_at": JSONSchema.dateTime.nullable,
                "problem": JSONSchema.string.nullable, "skipped": skippedEvents, "skipped_reasons": skippedReasons,
            ]))
    ])
    static let refreshed = JSONSchema.object([
        "feeds": .array(.object(["name": .string, "changed": .boolean, "items?": JSONSchema.integer.nullable, "problem?": .string]))
    ])

    static let caldavSettings: KeyValuePairs<String, JSONSchema> = [
        "url": .string, "username": .string, "conflict": .enumeration(["server", "local", "newest"]),
        "todo_calendar?": .string, "event_calendar?": .string,
    ]
    static let caldavAdded = JSONSchema.object([
        "name": .string, "url": .string, "username": .string, "conflict": .enumeration(["server", "local", "newest"]),
        "todo_calendar": .string, "event_calendar": .string,
        "calendars": .array(.object(["href": .string, "name": .string, "components": .array(.string)])),
    ])
    static let caldavAccounts = JSONSchema.object([
        "accounts": .array(Accounts.accountSchema(settings: caldavSettings).adding(["items": .integer]))
    ])
    static let synced = JSONSchema.object([
        "accounts": .array(
            .anyOf([
                .object(["name": .string, "pulled": .integer, "pushed": .integer, "deleted": .integer, "merged": .integer, "requests": .integer]),
                .object(["name": .string, "error": .string, "code": .integer]),
            ]))
    ])
    static let categories = JSONSchema.object([
        "categories": .array(.object(["name": .string, "builtin": .boolean, "tasks": .integer]))
    ])
    static let category = JSONSchema.object(["name": .string])
}
