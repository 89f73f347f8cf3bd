import PluginKit

/// Every tasks command, declared once with its parameters and its handler.
enum TasksManifest {
    static let id = "tasks"
    static let version = "1.0.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "Tasks and events: recurrence, reminders by stdout and mail, iCalendar files, ICS feeds, two-way CalDAV sync",
            topics: TasksTopic.self, errors: TasksError.block,
            options: TasksConfig.self, resources: resources)
    }

    /// The views an AI assistant can attach.
    static let resources: [ResourceDeclaration] = [
        ResourceDeclaration(
            uri: "assistant://tasks/agenda/today", name: "Today's agenda", description: "Tasks and events today, in order",
            reads: [.init(method: "tasks.agenda", params: ["from": "{today}", "to": "{tomorrow}"])], topics: ["tasks.*"],
            prompts: ["daily_briefing"]),
        ResourceDeclaration(
            uri: "assistant://tasks/agenda/week", name: "This week's agenda", description: "Tasks and events in the next 7 days",
            reads: [.init(method: "tasks.agenda", params: ["from": "{today}", "to": "{week_end}"])], topics: ["tasks.*"],
            prompts: ["plan_week"]),
        ResourceDeclaration(
            uri: "assistant://tasks/overdue", name: "Overdue tasks", description: "Open tasks past their due",
            reads: [.init(method: "tasks.list", params: ["when": "overdue"])], topics: ["tasks.*"], prompts: ["daily_briefing", "plan_week"]),
    ]

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

    static func c<Result: CallResult>(
        _ name: String, _ summary: String, _ params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (TasksService) -> @Sendable (Params) async throws -> Result
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect, use: method)
    }

    static func c<Result: CallResult>(
        _ name: String, _ summary: String, _ params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (TasksService) -> @Sendable () async throws -> Result
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect, use: method)
    }

    static func c<Result: CallResult>(
        _ name: String, _ summary: String, _ params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (TasksService) -> @Sendable (Params, CallContext) async throws -> Result
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect, use: method)
    }

    static var commands: [Command] {
        let addSpecs: [any ParamDeclaration] = [TasksParams.requiredTitle] + TasksParams.fields.dropFirst()
        let updateSpecs: [any ParamDeclaration] =
            [TasksParams.id, TasksParams.occurrence] + TasksParams.fields + [TasksParams.status, TasksParams.clear]
        let task = TaskSchemas.task
        return [
            c(
                "add", "Adds a task or an event", addSpecs, result: task,
                example: "assistantctl tasks.add title='Exam prep' start='2026-12-01 09:00' reminders='[{\"before_min\":15,\"of\":\"start\"}]'",
                effect: .write, use: TasksService.add
            ),
            c("get", "Shows one task", [TasksParams.id], result: task, effect: .read, use: TasksService.get),
            c(
                "update", "Changes fields of a task, or of one occurrence of a repeating one", updateSpecs, result: task,
                example: "assistantctl tasks.update id=… clear='[\"due\",\"location\"]'", effect: .write, use: TasksService.update
            ),
            c(
                "delete", "Deletes a task (kept 30 days for tasks.restore), or one occurrence", [TasksParams.id, TasksParams.occurrence],
                result: TaskSchemas.deleted, effect: .destructive, use: TasksService.delete
            ).confirm(
                "Delete “{title}”[, only its occurrence of {occurrence:day}]? It is kept 30 days for tasks.restore.",
                "Delete task {id}[, only its occurrence of {occurrence:day}]? It is kept 30 days for tasks.restore.", details: "tasks.get"),
            c("restore", "Undoes a delete", [TasksParams.id], result: task, effect: .write, use: TasksService.restore),
            c(
                "complete", "Completes a to-do; a repeating one moves to its next occurrence", [TasksParams.id], result: task,
                effect: .write, use: TasksService.complete
            ),
            c(
                "reopen", "Marks a completed or cancelled task as needing action again", [TasksParams.id], result: task, effect: .write,
                use: TasksService.reopen),
            c(
                "snooze", "Delivers the last reminder again in N minutes (or moves the next one)",
                [TasksParams.id, TasksParams.minutes],
                result: TaskSchemas.snoozed, effect: .write, use: TasksService.snooze
            ),
            c(
                "list", "Lists tasks: today, overdue, upcoming or all, with filters",
                [
                    TasksParams.when, TasksParams.days, TasksParams.onlyCategory, TasksParams.tag, TasksParams.listStatus, TasksParams.minPriority,
                    TasksParams.text, TasksParams.subtasksOf, TasksParams.listLimit,
                ],
                result: TaskSchemas.list.described("tasks sorted by the next start or due, then priority"), effect: .read, use: TasksService.list
            )
            .view(
                ResultView(
                    rows: "tasks",
                    columns: [
                        .init("id", "ID", .shortID), .init("priority", "P", .priority), .init("title", "TITLE"), .init("due", "DUE", .when),
                        .init("start", "START", .when, optional: true), .init("category", "CATEGORY", optional: true),
                        .init("tags", "TAGS", .list, optional: true),
                    ], highlights: [.init("overdue", is: true, .red), .init("priority", is: 1, .bold)])),
            c(
                "agenda", "Every occurrence starting in [from, to), repeats expanded",
                [TasksParams.windowFrom, TasksParams.windowTo, TasksParams.onlyCategory, TasksParams.agendaLimit],
                result: TaskSchemas.agenda,
                effect: .read, use: TasksService.agenda
            )
            .view(
                ResultView(
                    rows: "occurrences",
                    columns: [
                        .init("start", "TIME", .time, until: "end"), .init("title", "TITLE"), .init("location", "WHERE", optional: true),
                        .init("category", "CATEGORY", optional: true), .init("id", "ID", .shortID, optional: true),
                    ], groupByDay: "start")),
            c(
                "export.ics", "Writes tasks and events to an iCalendar (.ics) file",
                [TasksParams.exportPath, TasksParams.exportFrom, TasksParams.exportTo, TasksParams.onlyCategory, TasksParams.onlyStatus],
                result: TaskSchemas.exported, effect: .write, use: TasksService.exportICS
            ).writesFiles(),
            c(
                "import.ics", "Reads VTODOs and VEVENTs from an iCalendar file (one transaction; same UID = same task)",
                [TasksParams.importPath, TasksParams.dryRun, TasksParams.skipInvalid],
                result: TaskSchemas.imported,
                timeout: .seconds(1800),
                effect: .write, use: TasksService.importICS
            ),
            c(
                "feeds.add", "Subscribes to a read-only ICS feed (https, http or file); its events show in the agenda",
                [TasksParams.newName, TasksParams.feedURL, TasksParams.feedUsername, TasksParams.feedPassword],
                result: TaskSchemas.feed, effect: .write, use: TasksService.feedsAdd
            ),
            c("feeds.list", "Lists the feeds", result: TaskSchemas.feeds, effect: .read, use: TasksService.feedsList),
            c(
                "feeds.remove", "Unsubscribes from a feed", [TasksParams.feed],
                result: TaskSchemas.removed, effect: .destructive, use: TasksService.feedsRemove
            ).confirm("Unsubscribe from the feed {name} and drop its events?"),
            c(
                "feeds.refresh", "Fetches one feed or all now", [TasksParams.someFeed],
                result: TaskSchemas.refreshed, effect: .write, use: TasksService.feedsRefresh
            ),
            c(
                "caldav.add", "Adds a CalDAV account (checked before it is saved): Radicale, Nextcloud, Fastmail, iCloud (events), …",
                [
                    TasksParams.newName, TasksParams.caldavURL, TasksParams.caldavUsername, TasksParams.caldavPassword, TasksParams.calendar,
                    TasksParams.conflict,
                ],
                result: TaskSchemas.caldavAdded, effect: .write, use: TasksService.caldavAdd
            ),
            c(
                "caldav.list", "Lists the CalDAV accounts and their state", result: TaskSchemas.caldavAccounts,
                effect: .read, use: TasksService.caldavList
            ),
            c(
                "caldav.remove", "Removes a CalDAV account (its items stay here as local tasks)",
                [TasksParams.account], result: TaskSchemas.removed, effect: .destructive, use: TasksService.caldavRemove
            ).confirm("Remove the CalDAV account {name}? Its items stay here as local tasks."),
            c(
                "caldav.sync", "Syncs one account or all now", [TasksParams.someAccount],
                result: TaskSchemas.synced, timeout: .seconds(600),
                effect: .write, use: TasksService.caldavSync
            ),
            c("categories.list", "Lists the categories", result: TaskSchemas.categories, effect: .read, use: TasksService.categoriesList),
            c(
                "categories.add", "Adds a category of your own", [TasksParams.newCategory],
                result: TaskSchemas.category, effect: .write, use: TasksService.categoriesAdd
            ),
            c(
                "categories.remove", "Removes a category of your own that no task uses",
                [TasksParams.categoryName],
                result: TaskSchemas.removed, effect: .destructive, use: TasksService.categoriesRemove
            ).confirm("Remove the category {name}?"),
        ]
    }
}
