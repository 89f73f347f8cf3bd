import HostCore

/// Every Stag command, declared once with its parameters and its handler.
enum StagManifest {
    static let id = "stag"
    static let version = "1.0.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "IS/STAG: timetable, exam terms and registration, grades and results, subjects, teachers, calendar, ZČU canteen; notices",
            topics: StagTopic.self, errors: StagError.block,
            vaultNames: ["<account>/ticket"],
            configOptions: StagConfig.all)
    }

    static let jobs: [PluginJob<StagService>] = [
        PluginJob(
            "refresh", "Looks for new exam terms, grades and timetable changes of every account, every refresh_every_min",
            schedule: .everyMinutes(StagConfig.refreshEveryMin),
            jitter: .seconds(60), timeout: .seconds(600)
        ) { try await $0.runRefresh() },
        PluginJob(
            "watch", "Checks watched full exam terms for a free seat, every watch_every_min",
            schedule: .everyMinutes(StagConfig.watchEveryMin),
            jitter: .seconds(10), timeout: .seconds(120)
        ) { try await $0.runWatches() },
        PluginJob(
            "evening", "Tells of registered exams tomorrow, at evening_at",
            schedule: .dailyAt(StagConfig.eveningAt),
            timeout: .seconds(300)
        ) { try await $0.runEvening() },
    ]

    typealias Command = PluginCommand<StagService>

    static let account = ParamSpec("account", .string, help: "which account (default: the default account)")
    static var instance: [ParamSpec] {
        [
            ParamSpec("university", .string, help: "a known university's id (stag.universities), e.g. zcu"),
            ParamSpec("base_url", .string, help: "an instance not on the list, https://host"),
            ParamSpec("account", .string, help: "the account's name (default: the university's id, or the host)"),
        ]
    }

    static var commands: [Command] {
        [
            Command(
                "universities", "Lists the known IS/STAG instances", result: StagSchemas.universities, use: StagService.universities),
            Command(
                "login", "Starts the login through the university's page; open the printed address in a browser on this machine", params: instance,
                result: StagSchemas.loginStarted, example: "assistantctl stag.login university=zcu", use: StagService.login),
            Command(
                "login.wait", "Waits until a browser login started by stag.login has finished",
                params: [
                    ParamSpec("account", .string, help: "the account stag.login named"),
                    ParamSpec("timeout_s", .integer(min: 1, max: 900), help: "how long to wait (default 600)"),
                ], result: StagSchemas.loginOutcome, timeout: .seconds(905),
                use: StagService.loginWait),
            Command(
                "login.ticket", "Logs in with a pasted callback address or ticket (for a machine without a browser)",
                params: instance + [
                    ParamSpec("callback_url", .string, help: "the address the login page sent the browser to"),
                    ParamSpec("ticket", .secret, help: "a STAG ticket"),
                ],
                result: StagSchemas.oneAccount, use: StagService.loginTicket),
            Command(
                "login.password", "Logs in once with the STAG user name and password (the password is not stored)",
                params: instance + [
                    ParamSpec("username", .string, required: true, help: "STAG user name"),
                    ParamSpec("password", .secret, required: true, help: "STAG password (used once)"),
                ],
                result: StagSchemas.oneAccount, use: StagService.loginPassword),
            Command(
                "status", "Shows each account: logged in, university, name, roles, last refresh", result: StagSchemas.status, use: StagService.status),
            Command("accounts.list", "Lists the accounts", result: StagSchemas.accounts, use: StagService.accountsList),
            Command(
                "accounts.default", "Makes an account the default", params: [ParamSpec("account", .string, required: true, help: "account name")],
                result: StagSchemas.oneAccount, use: StagService.accountsDefault),
            Command(
                "accounts.remove", "Removes an account, its ticket and its cached data",
                params: [ParamSpec("account", .string, required: true, help: "account name")],
                result: StagSchemas.removed, use: StagService.accountsRemove),
            Command(
                "logout", "Invalidates the ticket at STAG and forgets it", params: [account], result: StagSchemas.loggedOut,
                use: StagService.logout),
            Command(
                "timetable", "Dated timetable events (default: this week), every role merged",
                params: [
                    ParamSpec("from", .date, help: "first day, YYYY-MM-DD (default: this Monday)"),
                    ParamSpec("to", .date, help: "last day, inclusive (default: a week from `from`)"),
                    ParamSpec("role", .oneOf(["student", "teacher", "all"]), help: "whose timetable (default: all roles)"), account,
                ],
                result: StagSchemas.timetable,
                use: StagService.timetable),
            Command(
                "exams", "Exam terms visible to the student, with their state",
                params: [
                    ParamSpec("subject", .string, help: "only this subject, KAT/CODE"), account,
                ],
                result: StagSchemas.exams,
                use: StagService.exams),
            Command(
                "exams.register", "Registers for an exam term (never retried)",
                params: [ParamSpec("term_id", .integer(min: 1), required: true, help: "the term"), account],
                result: StagSchemas.registration, use: StagService.register),
            Command(
                "exams.unregister", "Unregisters from an exam term (never retried)",
                params: [ParamSpec("term_id", .integer(min: 1), required: true, help: "the term"), account],
                result: StagSchemas.registration, use: StagService.unregister),
            Command(
                "exams.watch", "Watches a full term for a free seat (checked every watch_every_min)",
                params: [
                    ParamSpec("term_id", .integer(min: 1), required: true, help: "the term"),
                    ParamSpec("auto_register", .boolean, help: "register at once when a seat frees"), account,
                ], result: StagSchemas.watch, use: StagService.watch),
            Command(
                "exams.watches", "Lists the watched terms", result: StagSchemas.watches,
                use: StagService.watches),
            Command(
                "exams.unwatch", "Stops watching a term",
                params: [ParamSpec("term_id", .integer(min: 1), required: true, help: "the term"), account],
                result: StagSchemas.unwatched, use: StagService.unwatch),
            Command(
                "grades", "One row per subject enrolment",
                params: [ParamSpec("year", .integer(min: 1990, max: 2100), help: "academic year (the year it starts)"), account],
                result: StagSchemas.grades,
                use: StagService.grades),
            Command(
                "results", "Credits and credit-weighted averages per semester and in total", params: [account],
                result: StagSchemas.results,
                use: StagService.results),
            Command(
                "subject", "A subject's details",
                params: [
                    ParamSpec("department", .string, required: true, help: "department code, e.g. KIV"),
                    ParamSpec("code", .string, required: true, help: "subject code, e.g. UPA"),
                    ParamSpec("year", .integer(min: 1990, max: 2100), help: "academic year (default: STAG's current)"), account,
                ], result: StagSchemas.subject,
                use: StagService.subject),
            Command(
                "teacher", "A teacher's details", params: [ParamSpec("id", .integer(min: 1), required: true, help: "ucitIdno"), account],
                result: StagSchemas.teacher, use: StagService.teacher),
            Command(
                "student", "A student's details (your own by default)",
                params: [ParamSpec("id", .string, help: "osCislo (default: your own)"), account],
                result: StagSchemas.student, use: StagService.student),
            Command(
                "calendar", "The academic year's calendar (harmonogram)",
                params: [ParamSpec("year", .integer(min: 1990, max: 2100), help: "academic year (default: the current one)"), account],
                result: StagSchemas.calendar, use: StagService.calendar),
            Command(
                "export.ics", "Writes the timetable and registered exams as an iCalendar file",
                params: [
                    ParamSpec("path", .path, required: true, help: "the .ics file to write (replaced atomically)"),
                    ParamSpec("from", .date, required: true, help: "first day"), ParamSpec("to", .date, required: true, help: "last day, inclusive"),
                    account,
                ], result: StagSchemas.exported, use: StagService.exportICS),
            Command(
                "canteen", "The ZČU canteen menu",
                params: [
                    ParamSpec("canteen", .oneOf(["B", "K", "b", "k"]), required: true, help: "B (Bory) or K (Kollárova)"),
                    ParamSpec("day", .integer(min: 0, max: 14), help: "0 today (default), 1 tomorrow, …"),
                ],
                result: StagSchemas.canteen,
                use: StagService.canteen),
            Command(
                "students", "Teacher: the students of a timetable action, in Czech alphabetical order",
                params: [
                    ParamSpec("action_id", .integer(min: 1), required: true, help: "the action (action_id in stag.timetable)"), account,
                ], result: StagSchemas.students, use: StagService.students
            ),
            Command(
                "theses", "Teacher: the theses you supervise",
                params: [ParamSpec("year", .integer(min: 1990, max: 2100), help: "year assigned"), account],
                result: StagSchemas.theses,
                use: StagService.theses),
        ]
    }
}
