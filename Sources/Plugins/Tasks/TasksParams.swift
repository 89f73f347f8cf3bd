import PluginKit

/// Every parameter of the tasks plugin's commands, declared once and read typed (`p[TasksParams.id]`).
enum TasksParams {
    static let timeHelp = "'YYYY-MM-DD HH:MM' (wall clock in tz), an ISO 8601 instant with an offset, or YYYY-MM-DD (all-day)"

    // A task's fields (tasks.add, tasks.update).
    static let title = Param<String>("title", help: "what to do")
    static let requiredTitle = Param<String>.required("title", help: "what to do")
    static let kind = Param<String>("kind", .oneOf(["todo", "event"]), help: "todo (default) or event")
    static let notes = Param<String>("notes", help: "free text")
    static let category = Param<String>("category", help: "school, work, personal, meeting, errand, health, sport, or one of yours")
    static let tags = Param<[String]>("tags", help: "labels, e.g. [\"exam\",\"math\"] or exam,math")
    static let priority = Param<JSONValue>("priority", help: "1 (highest) … 9, 0 = none; or high, medium, low")
    static let parent = Param<String>("parent", help: "id of the parent task (sub-task)")
    static let start = Param<String>("start", help: "start: \(timeHelp)")
    static let due = Param<String>("due", help: "due (to-dos): \(timeHelp)")
    static let end = Param<String>("end", help: "end (events; all-day end is exclusive): \(timeHelp)")
    static let durationMin = Param<Int64>("duration_min", .integer(min: 0), help: "length in minutes (instead of end / due)")
    static let tz = Param<String>("tz", help: "IANA time zone (default: the daemon's timezone)")
    static let allDay = Param<Bool>("all_day", help: "dates without times")
    static let rrule = Param<String>("rrule", help: "RFC 5545 rule, e.g. FREQ=WEEKLY;BYDAY=MO,WE")
    static let exdates = Param<[String]>("exdates", help: "occurrences left out")
    static let rdates = Param<[String]>("rdates", help: "extra occurrences")
    static let repeatFrom = Param<String>(
        "repeat_from", .oneOf(["due", "completion"]),
        help: "a repeating to-do's next occurrence counts from its due (default) or its completion")
    static let reminders = Param<JSONValue>(
        "reminders", .array(of: .object), help: "[{\"before_min\":15,\"of\":\"start\"}] or [{\"at\":\"2026-12-01T08:00:00Z\"}]")
    static let remindBeforeMin = Param<Int64>(
        "remind_before_min", .integer(min: 0, max: 525_600),
        help: "one reminder this many minutes before the due (to-dos) or the start (events); added to reminders")
    static let channels = Param<[String]>(
        "channels", help: "where reminders go: [\"stdout\"], [\"mail\"] or both (default: config reminder_channels)")
    static let location = Param<String>("location", help: "where")
    static let url = Param<String>("url", help: "a link")
    /// The times a task has, each with its own key.
    static let times: [Param<String>] = [start, due, end]

    static var fields: [any ParamDeclaration] {
        [
            title, kind, notes, category, tags, priority, parent, start, due, end, durationMin, tz, allDay, rrule, exdates, rdates, repeatFrom,
            reminders, remindBeforeMin, channels, location, url,
        ]
    }

    static let id = Param<String>.required("id", help: "task id")
    static let occurrence = Param<String>("occurrence", help: "one occurrence of a repeating item (its original start)")
    static let status = Param<String>(
        "status", .oneOf(TaskStatus.allCases.map(\.rawValue)), help: "needs-action, in-process, completed or cancelled")
    static let clear = Param<[String]>("clear", help: "fields to empty, e.g. [\"due\",\"location\"]")
    static let minutes = Param<Int64>.required("minutes", .integer(min: 1, max: 10_080), help: "minutes from now")

    // tasks.list
    static let when = Param<String>("when", .oneOf(["today", "overdue", "upcoming", "all"]), help: "default all")
    static let days = Param<Int64>("days", .integer(min: 1, max: 3660), help: "for upcoming: how many days ahead (default 7)")
    static let onlyCategory = Param<String>("category", help: "only this category")
    static let tag = Param<String>("tag", help: "only tasks with this tag")
    static let listStatus = Param<String>(
        "status", .oneOf(TaskStatus.allCases.map(\.rawValue) + ["open", "any"]), help: "default open (needs-action or in-process)")
    static let minPriority = Param<JSONValue>("priority", help: "only this priority or higher (1 highest)")
    static let text = Param<String>("text", help: "in title, notes or location (case-insensitive)")
    static let subtasksOf = Param<String>("parent", help: "sub-tasks of this task")
    static let listLimit = Param<Int64>("limit", .integer(min: 1, max: 100_000), help: "at most this many (default 500)")

    // tasks.agenda
    static let windowFrom = Param<String>.required("from", help: "instant, or a date (local midnight in the daemon's timezone)")
    static let windowTo = Param<String>.required("to", help: "instant or date (exclusive)")
    static let agendaLimit = Param<Int64>("limit", .integer(min: 1, max: 100_000), help: "at most this many, the earliest (default 50 000)")

    // Files
    static let exportPath = Param<String>.required("path", .path, help: "file to write (replaced whole or not at all)")
    static let exportFrom = Param<String>("from", help: "only items with an occurrence from this instant or date")
    static let exportTo = Param<String>("to", help: "… and before this one")
    static let onlyStatus = Param<String>("status", .oneOf(TaskStatus.allCases.map(\.rawValue)), help: "only this status")
    static let importPath = Param<String>.required("path", .path, help: "the .ics file")
    static let dryRun = Param<Bool>("dry_run", help: "check and count, write nothing")
    static let skipInvalid = Param<Bool>("skip_invalid", help: "import the good items and list the bad ones (default: a bad item aborts)")

    // Feeds, CalDAV accounts, categories
    static let newName = Param<String>.required("name", help: "a short name")
    static let feedURL = Param<String>.required("url", .secret, help: "the feed's address (kept in the vault: it often carries a private token)")
    static let feedUsername = Param<String>("username", help: "for a feed behind a login")
    static let feedPassword = Param<String>("password", .secret, help: "for a feed behind a login (kept in the vault)")
    static let feed = Param<String>.required("name", help: "feed")
    static let someFeed = Param<String>("name", help: "feed (default: all)")
    static let caldavURL = Param<String>.required("url", help: "server or calendar address, e.g. https://cloud.example.org/remote.php/dav")
    static let caldavUsername = Param<String>.required("username", help: "login")
    static let caldavPassword = Param<String>.required(
        "password", .secret, help: "password or app password (kept in the vault as tasks/<name>/password)")
    static let calendar = Param<String>(
        "calendar", help: "a calendar's address or display name (default: the first for to-dos and the first for events)")
    static let conflict = Param<String>(
        "conflict", .oneOf(CalDAVSync.Conflict.allCases.map(\.rawValue)), help: "who wins when both sides changed: server, local or newest (default)")
    static let account = Param<String>.required("name", help: "account")
    static let someAccount = Param<String>("name", help: "account (default: all)")
    static let newCategory = Param<String>.required("name", help: "letters, digits, - and _")
    static let categoryName = Param<String>.required("name", help: "category")
}
