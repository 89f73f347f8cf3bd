import HostCore

/// Every tasks command, declared once with its parameters and its handler.
enum TasksManifest {
    static let id = "tasks"
    static let version = "1.0.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "Tasks and events: recurrence, reminders by stdout and mail, iCalendar files, ICS feeds, two-way CalDAV sync",
            topics: TasksTopic.self, errors: TasksError.block,
            configOptions: TasksConfig.all)
    }

    static let jobs: [PluginJob<TasksService>] = [
        PluginJob(
            "feeds", "Fetches the ICS feeds (ETag / If-Modified-Since), every feeds_every_min",
            schedule: .everyMinutes(TasksConfig.feedsEveryMin),
            jitter: .seconds(30), timeout: .seconds(300)
        ) { try await $0.runFeeds() },
        PluginJob(
            "caldav", "Two-way sync of every CalDAV account, every sync_every_min",
            schedule: .everyMinutes(TasksConfig.syncEveryMin),
            jitter: .seconds(30), timeout: .seconds(600)
        ) { try await $0.runCalDAV() },
        PluginJob(
            "digest", "Sends today's agenda and the overdue list at digest_at when digest = true",
            schedule: .dailyAt(TasksConfig.digestAt),
            timeout: .seconds(120)
        ) { try await $0.runDigest() },
        PluginJob(
            "purge", "Forgets tasks deleted more than 30 days ago",
            schedule: .daily(hour: 3, minute: 30), jitter: .seconds(600), timeout: .seconds(120)
        ) { try await $0.purgeDeleted() },
    ]

    typealias Command = PluginCommand<TasksService>

    static func c(
        _ name: String, _ summary: String, _ params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), use method: @escaping @Sendable (TasksService) -> @Sendable (Params) async throws -> JSONValue
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, use: method)
    }

    static func c(
        _ name: String, _ summary: String, _ params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), use method: @escaping @Sendable (TasksService) -> @Sendable () async throws -> JSONValue
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, use: method)
    }

    static func c(
        _ name: String, _ summary: String, _ params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120),
        use method: @escaping @Sendable (TasksService) -> @Sendable (Params, CallContext) async throws -> JSONValue
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, use: method)
    }

    static let timeHelp = "'YYYY-MM-DD HH:MM' (wall clock in tz), an ISO 8601 instant with an offset, or YYYY-MM-DD (all-day)"

    static var fieldSpecs: [ParamSpec] {
        [
            ParamSpec("title", .string, help: "what to do"),
            ParamSpec("kind", .oneOf(["todo", "event"]), help: "todo (default) or event"),
            ParamSpec("notes", .string, help: "free text"),
            ParamSpec("category", .string, help: "school, work, personal, meeting, errand, health, sport, or one of yours"),
            ParamSpec("tags", .array(of: .string), help: "labels, e.g. [\"exam\",\"math\"] or exam,math"),
            ParamSpec("priority", .any, help: "1 (highest) … 9, 0 = none; or high, medium, low"),
            ParamSpec("parent", .string, help: "id of the parent task (sub-task)"),
            ParamSpec("start", .string, help: "start: \(timeHelp)"),
            ParamSpec("due", .string, help: "due (to-dos): \(timeHelp)"),
            ParamSpec("end", .string, help: "end (events; all-day end is exclusive): \(timeHelp)"),
            ParamSpec("duration_min", .integer(min: 0), help: "length in minutes (instead of end / due)"),
            ParamSpec("tz", .string, help: "IANA time zone (default: the daemon's timezone)"),
            ParamSpec("all_day", .boolean, help: "dates without times"),
            ParamSpec("rrule", .string, help: "RFC 5545 rule, e.g. FREQ=WEEKLY;BYDAY=MO,WE"),
            ParamSpec("exdates", .array(of: .string), help: "occurrences left out"),
            ParamSpec("rdates", .array(of: .string), help: "extra occurrences"),
            ParamSpec(
                "repeat_from", .oneOf(["due", "completion"]),
                help: "a repeating to-do's next occurrence counts from its due (default) or its completion"),
            ParamSpec("reminders", .array(of: .object), help: "[{\"before_min\":15,\"of\":\"start\"}] or [{\"at\":\"2026-12-01T08:00:00Z\"}]"),
            ParamSpec(
                "channels", .array(of: .string), help: "where reminders go: [\"stdout\"], [\"mail\"] or both (default: config reminder_channels)"),
            ParamSpec("location", .string, help: "where"),
            ParamSpec("url", .string, help: "a link"),
        ]
    }

    static let idSpec = ParamSpec("id", .string, required: true, help: "task id")
    static let occurrenceSpec = ParamSpec("occurrence", .string, help: "one occurrence of a repeating item (its original start)")

    static var commands: [Command] {
        var addSpecs = fieldSpecs
        addSpecs[0].required = true
        var updateSpecs = [idSpec, occurrenceSpec] + fieldSpecs
        updateSpecs.append(ParamSpec("status", .oneOf(TaskStatus.allCases.map(\.rawValue)), help: "needs-action, in-process, completed or cancelled"))
        updateSpecs.append(ParamSpec("clear", .array(of: .string), help: "fields to empty, e.g. [\"due\",\"location\"]"))
        let task = TaskSchemas.task
        return [
            c(
                "add", "Adds a task or an event", addSpecs, result: task,
                example: "assistantctl tasks.add title='Exam prep' start='2026-12-01 09:00' reminders='[{\"before_min\":15,\"of\":\"start\"}]'",
                use: TasksService.add),
            c("get", "Shows one task", [idSpec], result: task, use: TasksService.get),
            c(
                "update", "Changes fields of a task, or of one occurrence of a repeating one", updateSpecs, result: task,
                example: "assistantctl tasks.update id=… clear='[\"due\",\"location\"]'", use: TasksService.update),
            c(
                "delete", "Deletes a task (kept 30 days for tasks.restore), or one occurrence", [idSpec, occurrenceSpec],
                result: TaskSchemas.deleted, use: TasksService.delete),
            c("restore", "Undoes a delete", [idSpec], result: task, use: TasksService.restore),
            c(
                "complete", "Completes a to-do; a repeating one moves to its next occurrence", [idSpec], result: task,
                use: TasksService.complete),
            c("reopen", "Marks a completed or cancelled task as needing action again", [idSpec], result: task, use: TasksService.reopen),
            c(
                "snooze", "Delivers the last reminder again in N minutes (or moves the next one)",
                [idSpec, ParamSpec("minutes", .integer(min: 1, max: 10_080), required: true, help: "minutes from now")],
                result: TaskSchemas.snoozed, use: TasksService.snooze),
            c(
                "list", "Lists tasks: today, overdue, upcoming or all, with filters",
                [
                    ParamSpec("when", .oneOf(["today", "overdue", "upcoming", "all"]), help: "default all"),
                    ParamSpec("days", .integer(min: 1, max: 3660), help: "for upcoming: how many days ahead (default 7)"),
                    ParamSpec("category", .string, help: "only this category"),
                    ParamSpec("tag", .string, help: "only tasks with this tag"),
                    ParamSpec(
                        "status", .oneOf(TaskStatus.allCases.map(\.rawValue) + ["open", "any"]), help: "default open (needs-action or in-process)"),
                    ParamSpec("priority", .any, help: "only this priority or higher (1 highest)"),
                    ParamSpec("text", .string, help: "in title, notes or location (case-insensitive)"),
                    ParamSpec("parent", .string, help: "sub-tasks of this task"),
                    ParamSpec("limit", .integer(min: 1, max: 100_000), help: "at most this many (default 500)"),
                ],
                result: TaskSchemas.list.described("tasks sorted by the next start or due, then priority"), use: TasksService.list),
            c(
                "agenda", "Every occurrence starting in [from, to), repeats expanded",
                [
                    ParamSpec("from", .string, required: true, help: "instant, or a date (local midnight in the daemon's timezone)"),
                    ParamSpec("to", .string, required: true, help: "instant or date (exclusive)"),
                    ParamSpec("category", .string, help: "only this category"),
                    ParamSpec("limit", .integer(min: 1, max: 100_000), help: "at most this many, the earliest (default 50 000)"),
                ],
                result: TaskSchemas.agenda,
                use: TasksService.agenda),
            c(
                "export.ics", "Writes tasks and events to an iCalendar (.ics) file",
                [
                    ParamSpec("path", .path, required: true, help: "file to write (replaced whole or not at all)"),
                    ParamSpec("from", .string, help: "only items with an occurrence from this instant or date"),
                    ParamSpec("to", .string, help: "… and before this one"),
                    ParamSpec("category", .string, help: "only this category"),
                    ParamSpec("status", .oneOf(TaskStatus.allCases.map(\.rawValue)), help: "only this status"),
                ],
                result: TaskSchemas.exported, use: TasksService.exportICS),
            c(
                "import.ics", "Reads VTODOs and VEVENTs from an iCalendar file (one transaction; same UID = same task)",
                [
                    ParamSpec("path", .path, required: true, help: "the .ics file"),
                    ParamSpec("dry_run", .boolean, help: "check and count, write nothing"),
                    ParamSpec("skip_invalid", .boolean, help: "import the good items and list the bad ones (default: a bad item aborts)"),
                ],
                result: TaskSchemas.imported,
                timeout: .seconds(1800),
                use: TasksService.importICS),
            c(
                "feeds.add", "Subscribes to a read-only ICS feed (https, http or file); its events show in the agenda",
                [
                    ParamSpec("name", .string, required: true, help: "a short name"),
                    ParamSpec("url", .secret, required: true, help: "the feed's address (kept in the vault: it often carries a private token)"),
                    ParamSpec("username", .string, help: "for a feed behind a login"),
                    ParamSpec("password", .secret, help: "for a feed behind a login (kept in the vault)"),
                ],
                result: TaskSchemas.feed, use: TasksService.feedsAdd),
            c("feeds.list", "Lists the feeds", result: TaskSchemas.feeds, use: TasksService.feedsList),
            c(
                "feeds.remove", "Unsubscribes from a feed", [ParamSpec("name", .string, required: true, help: "feed")],
                result: TaskSchemas.removed, use: TasksService.feedsRemove),
            c(
                "feeds.refresh", "Fetches one feed or all now", [ParamSpec("name", .string, help: "feed (default: all)")],
                result: TaskSchemas.refreshed, use: TasksService.feedsRefresh),
            c(
                "caldav.add", "Adds a CalDAV account (checked before it is saved): Radicale, Nextcloud, Fastmail, iCloud (events), …",
                [
                    ParamSpec("name", .string, required: true, help: "a short name"),
                    ParamSpec("url", .string, required: true, help: "server or calendar address, e.g. https://cloud.example.org/remote.php/dav"),
                    ParamSpec("username", .string, required: true, help: "login"),
                    ParamSpec("password", .secret, required: true, help: "password or app password (kept in the vault as tasks/<name>/password)"),
                    ParamSpec(
                        "calendar", .string, help: "a calendar's address or display name (default: the first for to-dos and the first for events)"),
                    ParamSpec(
                        "conflict", .oneOf(CalDAVSync.Conflict.allCases.map(\.rawValue)),
                        help: "who wins when both sides changed: server, local or newest (default)"),
                ],
                result: TaskSchemas.caldavAdded, use: TasksService.caldavAdd),
            c(
                "caldav.list", "Lists the CalDAV accounts and their state", result: TaskSchemas.caldavAccounts,
                use: TasksService.caldavList),
            c(
                "caldav.remove", "Removes a CalDAV account (its items stay here as local tasks)",
                [ParamSpec("name", .string, required: true, help: "account")], result: TaskSchemas.removed, use: TasksService.caldavRemove),
            c(
                "caldav.sync", "Syncs one account or all now", [ParamSpec("name", .string, help: "account (default: all)")],
                result: TaskSchemas.synced, timeout: .seconds(600),
                use: TasksService.caldavSync),
            c("categories.list", "Lists the categories", result: TaskSchemas.categories, use: TasksService.categoriesList),
            c(
                "categories.add", "Adds a category of your own", [ParamSpec("name", .string, required: true, help: "letters, digits, - and _")],
                result: TaskSchemas.category, use: TasksService.categoriesAdd),
            c(
                "categories.remove", "Removes a category of your own that no task uses",
                [ParamSpec("name", .string, required: true, help: "category")],
                result: TaskSchemas.removed, use: TasksService.categoriesRemove),
        ]
    }
}

enum TasksConfig {
    static let reminderChannels = ConfigKey<[String]>(
        "reminder_channels", .array(of: .oneOf(["stdout", "mail"])), default: [],
        help: "default channels of a task's reminders (empty: stdout and mail when mail is configured, else stdout)")
    static let missedGraceHours = ConfigKey<Int64>(
        "missed_grace_h", .integer(min: 0, max: 8760), default: 12,
        help: "a reminder missed while down is delivered late up to this age, else counted in tasks.reminders.missed")
    static let digest = ConfigKey<Bool>("digest", .boolean, default: false, help: "send a tasks.digest notice every day at digest_at")
    static let digestAt = ConfigKey<String>("digest_at", .string, default: "07:00", help: "time of the daily digest (HH:MM, daemon timezone)")
    static let syncAlarms = ConfigKey<Bool>("sync_alarms", .boolean, default: true, help: "send reminders to CalDAV as VALARMs")
    static let feedsEveryMin = ConfigKey<Int64>(
        "feeds_every_min", .integer(min: 5, max: 10_080), default: 60, help: "how often ICS feeds are fetched")
    static let syncEveryMin = ConfigKey<Int64>("sync_every_min", .integer(min: 1, max: 10_080), default: 15, help: "how often CalDAV accounts sync")

    static var all: [ConfigOption] {
        [
            reminderChannels.option, missedGraceHours.option, digest.option, digestAt.option, syncAlarms.option, feedsEveryMin.option,
            syncEveryMin.option,
        ]
    }
}
