import HostCore

/// Every KOS command, declared once with its parameters and its handler.
enum KOSManifest {
    static let id = "kos"
    static let version = "0.1.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "CTU KOSapi: timetable by week parity, courses, results, exams, course events, people search, office hours; notices",
            topics: KOSTopic.self, errors: KOSError.block,
            vaultNames: ["client_secret", "access_token", "refresh_token"], configOptions: KOSConfig.all)
    }

    static let jobs: [PluginJob<KOSService>] = [
        PluginJob(
            "refresh", "Looks for new exams, course events and results, every refresh_every_min; rewrites ics_path",
            schedule: .everyMinutes(KOSConfig.refreshEveryMin),
            jitter: .seconds(60), timeout: .seconds(600)
        ) { try await $0.runRefresh() },
        PluginJob(
            "watch", "Checks watched full exams for a free seat, every watch_every_min",
            schedule: .everyMinutes(KOSConfig.watchEveryMin),
            jitter: .seconds(10), timeout: .seconds(120)
        ) { try await $0.runWatches() },
        PluginJob(
            "evening", "Tells of registered exams tomorrow, at evening_at",
            schedule: .dailyAt(KOSConfig.eveningAt),
            timeout: .seconds(300)
        ) { try await $0.runEvening() },
    ]

    typealias Command = PluginCommand<KOSService>
    static let semester = ParamSpec("sem", .string, help: "a semester code (B251), current (default), next, prev")
    static let examID = ParamSpec("exam_id", .string, required: true, help: "an exam's id from kos.exams")

    static var commands: [Command] {
        [
            Command(
                "setup", "Stores the OAuth application (checked with a client-credentials token first)",
                params: [
                    ParamSpec("client_id", .string, required: true, help: "the application's client id"),
                    ParamSpec("client_secret", .secret, required: true, help: "the application's client secret"),
                    ParamSpec("api_url", .string, help: "KOSapi (default https://kosapi.fit.cvut.cz/api/3)"),
                    ParamSpec("auth_url", .string, help: "the OAuth server (default https://auth.fit.cvut.cz)"),
                    ParamSpec("redirect_port", .integer(min: 1024, max: 65535), help: "a fixed loopback port for an exact redirect URI"),
                ], result: KOSSchemas.setup, use: KOSService.setup),
            Command(
                "login", "Starts the login; open the printed address in a browser on this machine", result: KOSSchemas.loginStarted,
                use: KOSService.login),
            Command(
                "login.wait", "Waits until the browser login has finished",
                params: [
                    ParamSpec("timeout_s", .integer(min: 1, max: 900), help: "how long to wait (default 600)")
                ], result: KOSSchemas.loginOutcome, timeout: .seconds(905), use: KOSService.loginWait),
            Command(
                "login.code", "Completes a login with the pasted address the browser was redirected to",
                params: [
                    ParamSpec("callback_url", .string, required: true, help: "the redirect address with code and state")
                ], result: KOSSchemas.status, use: KOSService.loginCode),
            Command(
                "status", "Shows whether you are logged in, as whom, and the token's expiry", result: KOSSchemas.status,
                use: KOSService.status),
            Command("logout", "Forgets your tokens", result: KOSSchemas.loggedOut, use: KOSService.logout),
            Command(
                "semester", "A semester's code, name, start and end (public data)",
                params: [
                    ParamSpec("which", .oneOf(["current", "next", "prev"]), help: "current (default), next or prev")
                ], result: KOSSchemas.semester, use: KOSService.semester),
            Command(
                "timetable", "My timetable slots, by day and start, filtered by week parity",
                params: [
                    semester,
                    ParamSpec(
                        "parity", .oneOf(["even", "odd", "both"]), help: "even or odd weeks (slots of both kinds included), or both (default)"),
                ], result: KOSSchemas.timetable,
                use: KOSService.timetable),
            Command(
                "courses", "My enrolled courses in a semester, with credits",
                params: [
                    ParamSpec("sem", .string, help: "a semester code (B261), current (default), next, prev or none (all)")
                ], result: KOSSchemas.courses,
                use: KOSService.courses),
            Command(
                "results", "Credits enrolled and obtained per semester and in total (external enrolments count)",
                result: KOSSchemas.results,
                use: KOSService.results),
            Command(
                "course", "A course's details (public data)",
                params: [
                    ParamSpec("code", .string, required: true, help: "course code, e.g. BI-OPT"),
                    ParamSpec("sem", .string, help: "a semester code, current, next, prev or none (default: the course's static data)"),
                ], result: KOSSchemas.courseDetail,
                use: KOSService.course),
            Command(
                "exams", "Exams: of a course, mine only, or of all my enrolled courses",
                params: [
                    ParamSpec("course", .string, help: "a course code"), ParamSpec("mine", .boolean, help: "only the exams I am registered for"),
                    ParamSpec("sem", .string, help: "a semester code, current (default), next, prev or none"),
                ],
                result: KOSSchemas.exams,
                use: KOSService.exams),
            Command(
                "events", "The course events (tests and similar) of my enrolled courses", params: [semester],
                result: KOSSchemas.events, use: KOSService.events),
            Command(
                "people.search", "Finds people and teachers by name or username (accents optional), or lists a division's teachers",
                params: [
                    ParamSpec("q", .string, help: "part of a name or username, e.g. novak"),
                    ParamSpec("division", .string, help: "a division's code, e.g. 18102"),
                    ParamSpec("limit", .integer(min: 1, max: 1000), help: "at most this many (default 200)"),
                ], result: KOSSchemas.people,
                example: "assistantctl kos.people.search q=dvorak", use: KOSService.peopleSearch),
            Command(
                "office", "The study office's hours (from the config: KOSapi does not serve them)",
                result: KOSSchemas.office, use: KOSService.office),
            Command(
                "export.ics", "Writes the semester's classes, week by week, and my registered exams to an .ics file",
                params: [
                    ParamSpec("path", .path, required: true, help: "the .ics file to write (replaced atomically)"), semester,
                ], result: KOSSchemas.exported, use: KOSService.exportICS),
            Command(
                "exams.watch", "Watches a full exam for a free seat (checked every watch_every_min)", params: [examID],
                result: KOSSchemas.watch, use: KOSService.watch),
            Command(
                "exams.watches", "Lists the watched exams", result: KOSSchemas.watches,
                use: KOSService.watches),
            Command("exams.unwatch", "Stops watching an exam", params: [examID], result: KOSSchemas.unwatched, use: KOSService.unwatch),
            Command(
                "profile", "Your name, username, study programme, study group, grade and status",
                result: KOSSchemas.profile, use: KOSService.profile),
        ]
    }
}
