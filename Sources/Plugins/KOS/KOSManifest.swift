import PluginKit

/// Every KOS command, declared once with its parameters and its handler.
enum KOSManifest {
    static let id = "kos"
    static let version = "0.1.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "CTU KOSapi: timetable by week parity, courses, results, exams, course events, people search, office hours; notices",
            topics: KOSTopic.self, errors: KOSError.block,
            vaultNames: ["client_secret", "<account>/access_token", "<account>/refresh_token", "pending_login"], options: KOSConfig.self)
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

    static var commands: [Command] {
        [
            Command(
                "setup", "Stores the OAuth application (checked with a client-credentials token first)",
                params: [KOSParams.clientID, KOSParams.clientSecret, KOSParams.apiURL, KOSParams.authURL, KOSParams.redirectPort],
                result: KOSSchemas.setup, use: KOSService.setup
            ).effect(.write),
            Command(
                "login", "Starts a login (another account for another username); open the printed address in a browser on this machine",
                result: KOSSchemas.loginStarted,
                use: KOSService.login
            ).effect(.write),
            Command(
                "login.wait", "Waits until the browser login has finished",
                params: [KOSParams.timeoutS], result: KOSSchemas.loginOutcome, timeout: .seconds(905), use: KOSService.loginWait
            ).effect(.write),
            Command(
                "login.code", "Completes a login with the pasted address the browser was redirected to",
                params: [KOSParams.callbackURL], result: KOSSchemas.status, use: KOSService.loginCode
            ).effect(.write),
            Command(
                "status", "Shows whether you are logged in, as whom, and the token's expiry; every account with its state",
                params: [KOSParams.account], result: KOSSchemas.status, use: KOSService.status
            ).effect(.read),
            Command(
                "logout", "Forgets an account's login and tokens (the default account's when none is named)", params: [KOSParams.account],
                result: KOSSchemas.loggedOut, use: KOSService.logout
            ).effect(.destructive),
            Command(
                "semester", "A semester's code, name, start and end (public data)",
                params: [KOSParams.which], result: KOSSchemas.semester, use: KOSService.semester
            ).effect(.read),
            Command(
                "timetable", "My timetable slots, by day and start, filtered by week parity",
                params: [KOSParams.semester, KOSParams.parity, KOSParams.account], result: KOSSchemas.timetable,
                use: KOSService.timetable
            ).effect(.read)
                .view(
                    ResultView(
                        rows: "slots", grid: .init(day: "day", start: "start", end: "end", title: "course", place: "room", mark: "kind"))),
            Command(
                "timetable.pdf", "The week's classes drawn for the wall: A4 landscape PDF (or PNG), placed by the week's parity",
                params: [KOSParams.week, KOSParams.picturePath, KOSParams.account], result: KOSSchemas.timetablePicture,
                use: KOSService.timetablePicture
            ).effect(.write).writesFiles(),
            Command(
                "courses", "My enrolled courses in a semester, with credits",
                params: [KOSParams.anySemester, KOSParams.account], result: KOSSchemas.courses,
                use: KOSService.courses
            ).effect(.read),
            Command(
                "results", "Credits enrolled and obtained per semester and in total (external enrolments count)",
                params: [KOSParams.account], result: KOSSchemas.results,
                use: KOSService.results
            ).effect(.read),
            Command(
                "course", "A course's details (public data)",
                params: [KOSParams.code, KOSParams.courseSemester], result: KOSSchemas.courseDetail,
                use: KOSService.course
            ).effect(.read),
            Command(
                "studyplan", "My study plan checked: per course group its role, credits and courses required and done, compulsory ones missing",
                params: [KOSParams.account], result: KOSSchemas.studyPlan, example: "assistantctl kos.studyplan", use: KOSService.studyPlanCheck
            ).effect(.read),
            Command(
                "courses.available", "The courses of my study plan not yet completed that are taught in a semester",
                params: [KOSParams.requiredSemester, KOSParams.account], result: KOSSchemas.available,
                example: "assistantctl kos.courses.available sem=next", use: KOSService.coursesAvailable
            ).effect(.read),
            Command(
                "courses.search", "Courses by words of their name or code, accents optional (public data)",
                params: [KOSParams.courseQuery, KOSParams.courseSemester, KOSParams.courseLimit], result: KOSSchemas.coursesFound,
                example: "assistantctl kos.courses.search query='programovani'", use: KOSService.coursesSearch
            ).effect(.read),
            Command(
                "course.parallels", "A course's parallels: type, number, teachers, slots, capacity and occupied seats (public data)",
                params: [KOSParams.code, KOSParams.semester], result: KOSSchemas.parallels,
                example: "assistantctl kos.course.parallels code=BI-OPT", use: KOSService.courseParallels
            ).effect(.read),
            Command(
                "teacher.timetable", "A teacher's timetable slots (public data)",
                params: [KOSParams.teacherUsername, KOSParams.semester], result: KOSSchemas.teacherTimetable,
                example: "assistantctl kos.teacher.timetable username=novakpet", use: KOSService.teacherTimetable
            ).effect(.read),
            Command(
                "room", "A room: name, locality, type and capacities (public data)", params: [KOSParams.roomCode],
                result: KOSSchemas.room, example: "assistantctl kos.room code=TH:A-1442", use: KOSService.room
            ).effect(.read),
            Command(
                "exams", "Exams: of a course, mine only, or of all my enrolled courses",
                params: [KOSParams.course, KOSParams.mine, KOSParams.examSemester, KOSParams.account],
                result: KOSSchemas.exams,
                use: KOSService.exams
            ).effect(.read)
                .view(
                    ResultView(
                        rows: "exams",
                        columns: [
                            .init("start", "WHEN", .when), .init("course", "COURSE"), .init("kind", "KIND", optional: true),
                            .init("room", "ROOM", optional: true), .init("occupied", "SEATS", until: "capacity"),
                            .init("registered", "MINE", optional: true), .init("id", "ID", optional: true),
                        ])),
            Command(
                "events", "The course events (tests and similar) of my enrolled courses", params: [KOSParams.semester, KOSParams.account],
                result: KOSSchemas.events, use: KOSService.events
            ).effect(.read),
            Command(
                "people.search", "Finds people and teachers by name or username (accents optional), or lists a division's teachers",
                params: [KOSParams.query, KOSParams.division, KOSParams.limit], result: KOSSchemas.people,
                example: "assistantctl kos.people.search q=dvorak", use: KOSService.peopleSearch
            ).effect(.read),
            Command(
                "office", "The study office's hours (from the config: KOSapi does not serve them)",
                result: KOSSchemas.office, use: KOSService.office
            ).effect(.read),
            Command(
                "export.ics", "Writes the semester's classes, week by week, and my registered exams to an .ics file",
                params: [KOSParams.path, KOSParams.semester, KOSParams.account], result: KOSSchemas.exported, use: KOSService.exportICS
            ).effect(.write).writesFiles(),
            Command(
                "exams.watch", "Watches a full exam for a free seat (checked every watch_every_min)", params: [KOSParams.examID],
                result: KOSSchemas.watch, use: KOSService.watch
            ).effect(.write),
            Command(
                "exams.watches", "Lists the watched exams", result: KOSSchemas.watches,
                use: KOSService.watches
            ).effect(.read),
            Command("exams.unwatch", "Stops watching an exam", params: [KOSParams.examID], result: KOSSchemas.unwatched, use: KOSService.unwatch)
                .effect(.write),
            Command(
                "profile", "Your name, username, study programme, study group, grade and status",
                params: [KOSParams.account], result: KOSSchemas.profile, use: KOSService.profile
            ).effect(.read),
        ]
    }
}
