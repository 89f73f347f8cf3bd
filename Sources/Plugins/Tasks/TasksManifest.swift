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
            options: TasksConfig.self, resources: resources, pages: pages)
    }

    typealias Words = PageDeclaration.Words

    /// Its parts of the web app's Tasks page.
    static let pages: [PageDeclaration] = [
        PageDeclaration(
            .tasks, Words("To do", "Úkoly"), read: .init(method: "tasks.list", params: ["when": "all"]),
            actions: [
                .init("tasks.complete", Words("Done", "Hotovo"), fromRow: ["id": "id"], when: "kind=todo", swipe: true),
                .init("tasks.snooze", Words("Snooze 1 h", "Odložit o hodinu"), fromRow: ["id": "id"], fixed: ["minutes": "60"], when: "reminders"),
                .init("tasks.delete", Words("Delete", "Smazat"), fromRow: ["id": "id"]),
            ],
            form: .init(
                "tasks.add", Words("Add a task", "Přidat úkol"),
                fields: [
                    .init("title", Words("Title", "Název")), .init("due", Words("Due (2026-12-01 09:00)", "Termín (2026-12-01 09:00)")),
                    .init("rrule", Words("Repeats (FREQ=WEEKLY)", "Opakování (FREQ=WEEKLY)")),
                    .init("remind_before_min", Words("Remind, minutes before", "Připomenout, minut předem")),
                    .init("category", Words("Category", "Kategorie")),
                ])),
        PageDeclaration(
            .tasks, Words("Today", "Dnes"), read: .init(method: "tasks.agenda", params: ["from": "{today}", "to": "{tomorrow}"])),
        PageDeclaration(
            .tasks, Words("This week", "Tento týden"), read: .init(method: "tasks.agenda", params: ["from": "{today}", "to": "{week_end}"])),
    ]

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

    static var commands: [Command] {
        let addSpecs: [any ParamDeclaration] = [TasksParams.requiredTitle] + TasksParams.fields.dropFirst()
        let updateSpecs: [any ParamDeclaration] =
            [TasksParams.id, TasksParams.occurrence] + TasksParams.fields + [TasksParams.status, TasksParams.clear]
        return [
            Command(
                "add", "Adds a task or an event", params: addSpecs,
                example: "assistantctl tasks.add title='Exam prep' start='2026-12-01 09:00' reminders='[{\"before_min\":15,\"of\":\"start\"}]'",
                effect: .write, use: TasksService.add
            ).says("Added {id:short} “{title}”[: {start:when}][–{end:until}][, due {due:when}][, {rrule:rule}]"),
            Command("get", "Shows one task", params: [TasksParams.id], effect: .read, use: TasksService.get)
                .view(
                    ResultView(fields: [
                        .init("title", "Title"), .init("id", "Id"), .init("kind", "Kind"), .init("status", "Status"),
                        .init("start", "Starts", .when), .init("end", "Ends", .when), .init("due", "Due", .when),
                        .init("completed_at", "Completed", .when), .init("rrule", "Repeats", .rule), .init("location", "Place"),
                        .init("category", "Category"), .init("tags", "Tags", .list), .init("priority", "Priority", .priority),
                        .init("url", "Link"), .init("notes", "Notes"), .init(heading: "Next"), .init("next.start", "Starts", .when),
                        .init("next.due", "Due", .when),
                    ])),
            Command(
                "update", "Changes fields of a task, or of one occurrence of a repeating one", params: updateSpecs,
                example: "assistantctl tasks.update id=… clear='[\"due\",\"location\"]'", effect: .write, use: TasksService.update
            ).says(
                "Changed {id:short} “{title}”, only its occurrence of {occurrence:when}",
                "Changed {id:short} “{title}”[: {start:when}][–{end:until}][, due {due:when}][, {rrule:rule}]"),
            Command(
                "delete", "Deletes a task (kept 30 days for tasks.restore), or one occurrence", params: [TasksParams.id, TasksParams.occurrence],
                effect: .destructive, use: TasksService.delete
            ).says(
                "Deleted the occurrence of {occurrence:when} of {deleted:short}",
                "Deleted {deleted:short}; tasks.restore brings it back within 30 days"
            ).confirm(
                "Delete “{title}”[, only its occurrence of {occurrence:day}]? It is kept 30 days for tasks.restore.",
                "Delete task {id}[, only its occurrence of {occurrence:day}]? It is kept 30 days for tasks.restore.", details: "tasks.get"
            ).undoneBy("tasks.restore", ["id": "deleted"], unless: "occurrence"),
            Command("restore", "Undoes a delete", params: [TasksParams.id], effect: .write, use: TasksService.restore).says(
                "Restored {id:short} “{title}”[: {start:when}][, due {due:when}]"),
            Command(
                "complete", "Completes a to-do; a repeating one moves to its next occurrence", params: [TasksParams.id],
                effect: .write, use: TasksService.complete
            ).says(
                "Completed {id:short} “{title}” (next due {next.due:when})", "Completed {id:short} “{title}”[ (next: {next.start:when})]"
            ).undoneBy("tasks.reopen", ["id": "id"], unless: "next"),
            Command(
                "reopen", "Marks a completed or cancelled task as needing action again", params: [TasksParams.id], effect: .write,
                use: TasksService.reopen
            ).says("Reopened {id:short} “{title}”"),
            Command(
                "snooze", "Delivers the last reminder again in N minutes (or moves the next one)",
                params: [TasksParams.id, TasksParams.minutes], effect: .write, use: TasksService.snooze
            ).says("Snoozed {id:short}: the reminder comes again at {remind_at:when}"),
            Command(
                "list", "Lists tasks: today, overdue, upcoming or all, with filters",
                params: [
                    TasksParams.when, TasksParams.days, TasksParams.onlyCategory, TasksParams.tag, TasksParams.listStatus, TasksParams.minPriority,
                    TasksParams.text, TasksParams.subtasksOf, TasksParams.listLimit,
                ],
                effect: .read, use: TasksService.list
            )
            .view(
                ResultView(
                    rows: "tasks",
                    columns: [
                        .init("id", "ID", .shortID), .init("priority", "P", .priority), .init("title", "TITLE"), .init("due", "DUE", .when),
                        .init("start", "START", .when, optional: true), .init("category", "CATEGORY", optional: true),
                        .init("tags", "TAGS", .list, optional: true),
                    ], highlights: [.init("overdue", is: true, .red), .init("priority", is: 1, .bold)])),
            Command(
                "agenda", "Every occurrence starting in [from, to), repeats expanded",
                params: [TasksParams.windowFrom, TasksParams.windowTo, TasksParams.onlyCategory, TasksParams.agendaLimit],

                effect: .read, use: TasksService.agenda
            )
            .view(
                ResultView(
                    rows: "occurrences",
                    columns: [
                        .init("start", "TIME", .time, until: "end"), .init("title", "TITLE"), .init("location", "WHERE", optional: true),
                        .init("category", "CATEGORY", optional: true), .init("id", "ID", .shortID, optional: true),
                    ], groupByDay: "start")),
            Command(
                "export.ics", "Writes tasks and events to an iCalendar (.ics) file",
                params: [TasksParams.exportPath, TasksParams.exportFrom, TasksParams.exportTo, TasksParams.onlyCategory, TasksParams.onlyStatus],
                effect: .write, use: TasksService.exportICS
            ).says("Wrote {todos} to-dos and {events} events to {path} ({bytes:bytes})").writesFiles(),
            Command(
                "import.ics", "Reads VTODOs and VEVENTs from an iCalendar file (one transaction; same UID = same task)",
                params: [TasksParams.importPath, TasksParams.dryRun, TasksParams.skipInvalid],
                timeout: .seconds(1800),
                effect: .write, use: TasksService.importICS
            ).says(
                "Nothing written (dry run: {dry_run}): {added} to add, {updated} to update, {unchanged} unchanged, {skipped} bad",
                "Imported {todos} to-dos and {events} events: {added} new, {updated} updated, {unchanged} unchanged, {skipped} skipped"),
            Command(
                "feeds.add", "Subscribes to a read-only ICS feed (https, http or file); its events show in the agenda",
                params: [TasksParams.newName, TasksParams.feedURL, TasksParams.feedUsername, TasksParams.feedPassword], effect: .write,
                use: TasksService.feedsAdd
            ).says("Subscribed to {name}: {items} items[, {skipped} left out ({skipped_reasons:list})]").reachesOutside(),
            Command("feeds.list", "Lists the feeds", effect: .read, use: TasksService.feedsList).reachesOutside(),
            Command(
                "feeds.remove", "Unsubscribes from a feed", params: [TasksParams.feed], effect: .destructive, use: TasksService.feedsRemove
            ).says("Unsubscribed from the feed {removed}").reachesOutside().confirm("Unsubscribe from the feed {name} and drop its events?"),
            Command(
                "feeds.refresh", "Fetches one feed or all now", params: [TasksParams.someFeed], effect: .write, use: TasksService.feedsRefresh
            ).says(
                "Fetched the feed {name}; -o wide shows whether it changed or failed",
                "Fetched {feeds:count} feed(s); -o wide shows which changed or failed"
            ).reachesOutside(),
            Command(
                "caldav.add", "Adds a CalDAV account (checked before it is saved): Radicale, Nextcloud, Fastmail, iCloud (events), …",
                params: [
                    TasksParams.newName, TasksParams.caldavURL, TasksParams.caldavUsername, TasksParams.caldavPassword, TasksParams.calendar,
                    TasksParams.conflict,
                ], effect: .write, use: TasksService.caldavAdd
            ).says("Added the CalDAV account {name} for {username} ({calendars:count} calendars)").reachesOutside(),
            Command(
                "caldav.list", "Lists the CalDAV accounts and their state",
                effect: .read, use: TasksService.caldavList
            ).reachesOutside(),
            Command(
                "caldav.remove", "Removes a CalDAV account (its items stay here as local tasks)",
                params: [TasksParams.account], effect: .destructive, use: TasksService.caldavRemove
            ).says("Removed the CalDAV account {removed}; its items stay here as local tasks").reachesOutside().confirm(
                "Remove the CalDAV account {name}? Its items stay here as local tasks."),
            Command(
                "caldav.sync", "Syncs one account or all now", params: [TasksParams.someAccount], timeout: .seconds(600),
                effect: .write, use: TasksService.caldavSync
            ).says(
                "Synced the CalDAV account {name}; -o wide shows what moved or what failed",
                "Synced {accounts:count} CalDAV account(s); -o wide shows what moved or what failed"
            ).reachesOutside(),
            Command("categories.list", "Lists the categories", effect: .read, use: TasksService.categoriesList),
            Command(
                "categories.add", "Adds a category of your own", params: [TasksParams.newCategory], effect: .write, use: TasksService.categoriesAdd
            ).says("Added the category {name}"),
            Command(
                "categories.remove", "Removes a category of your own that no task uses",
                params: [TasksParams.categoryName], effect: .destructive, use: TasksService.categoriesRemove
            ).says("Removed the category {removed}").confirm("Remove the category {name}?"),
        ]
    }
}
