import PluginKit
import StudyKit

/// Every KOS command, declared once with its parameters and its handler.
enum KOSManifest {
    static let id = "kos"
    static let version = "0.1.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "CTU KOSapi: timetable by week parity, courses, results, exams, course events, people search, office hours; notices",
            topics: KOSTopic.self, errors: KOSError.block,
            vaultNames: ["client_secret", "<account>/access_token", "<account>/refresh_token", "pending_login"], options: KOSConfig.self,
            resources: resources, resourcesSetUp: .init(method: "kos.status", member: "set_up"), reachesOutside: true, pages: pages)
    }

    /// Its parts of the web app: the week on the Timetable, and the exams, full ones watched (KOSapi lets a client read, not register).
    static let pages: [PageDeclaration] = [
        PageDeclaration(
            .timetable, .init("KOS timetable", "Rozvrh v KOS"), read: .init(method: "kos.timetable.week", params: ["week": "{week_start}"])),
        PageDeclaration(
            .exams, .init("KOS exams", "Zkoušky v KOS"), read: .init(method: "kos.exams"),
            actions: [.init("kos.exams.watch", .init("Watch", "Hlídat"), fromRow: ["exam_id": "id"], when: "full")]),
    ]

    /// The views an AI assistant can attach, once KOS is set up. The registered exams share their
    /// view with IS/STAG's, each system under its own part.
    static let resources: [ResourceDeclaration] = [
        ResourceDeclaration(
            uri: "assistant://kos/timetable/week", name: "KOS timetable", description: "The semester's timetable slots (the default account)",
            reads: [.init(method: "kos.timetable")], topics: ["kos.timetable.*", "kos.class.*"], prompts: ["daily_briefing", "plan_week"]),
        .registeredExams(.init(method: "kos.exams", params: ["mine": true], part: "kos"), topics: ["kos.exam.*"]),
    ]

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
                effect: .write, use: KOSService.setup
            ).says("Checked and saved the KOS application {client_id}[ (redirect port {redirect_port})]"),
            Command(
                "login", "Starts a login (another account for another username); open the printed address in a browser on this machine",

                effect: .write, use: KOSService.login
            ).says("To log in to KOS, open this address in a browser on this machine within {expires_in_s} s:\n{login_url:link}"),
            Command(
                "login.wait", "Waits until the browser login has finished",
                params: [KOSParams.timeoutS], timeout: .seconds(905), effect: .write, use: KOSService.loginWait
            ).says(
                "Logged in to KOS as {username}", "The KOS login failed: {detail}",
                "The KOS login has not finished yet; run kos.login.wait again"),
            Command(
                "login.code", "Completes a login with the pasted address the browser was redirected to",
                params: [KOSParams.callbackURL], effect: .write, use: KOSService.loginCode
            ).says("Logged in to KOS as {username}", "Logged in to KOS"),
            Command(
                "status", "Shows whether you are logged in, as whom, and the token's expiry; every account with its state",
                params: [KOSParams.account], effect: .read, use: KOSService.status
            ),
            Command(
                "logout", "Forgets an account's login and tokens (the default account's when none is named)", params: [KOSParams.account],
                effect: .destructive, use: KOSService.logout
            ).says("Logged {username} out of KOS and forgot its tokens").confirm(
                "Log out of KOS[ as {account}] and forget its tokens? You would log in again in a browser."),
            Command(
                "semester", "A semester's code, name, start and end (public data)",
                params: [KOSParams.which], effect: .read, use: KOSService.semester
            ),
            Command(
                "timetable", "My timetable slots, by day and start, filtered by week parity",
                params: [KOSParams.semester, KOSParams.parity, KOSParams.account],
                effect: .read, use: KOSService.timetable
            )
            .view(
                ResultView(
                    rows: "slots",
                    grid: .init(
                        day: "day", start: "start", end: "end", title: "course", place: "room", mark: "kind",
                        details: [.init("course_name", "Subject"), .init("teachers", "Teachers"), .init("parity", "Weeks")]))),
            Command(
                "timetable.week", "One week's classes on their dates, placed by the week's parity, with the teaching week's number",
                params: [KOSParams.week, KOSParams.account], result: KOSWeek.resultSchema,
                example: "assistantctl kos.timetable.week week=2026-11-30", effect: .read, use: KOSService.timetableWeek
            )
            .view(
                ResultView(
                    rows: "classes", fields: [.init("teaching_week", "Teaching week"), .init("parity", "Week parity")],
                    grid: .init(
                        day: "date", start: "start", end: "end", title: "title", place: "room", mark: "kind",
                        details: [.init("teachers", "Teachers")]))),
            Command(
                "timetable.pdf", "The week's classes drawn for the wall: A4 landscape PDF (or PNG), placed by the week's parity",
                params: [KOSParams.week, KOSParams.picturePath, KOSParams.account],
                effect: .write, use: KOSService.timetablePicture
            ).says("Drew {classes} classes of the week of {week:day} to {path} ({bytes:bytes})").writesFiles(),
            Command(
                "courses", "My enrolled courses in a semester, with credits",
                params: [KOSParams.anySemester, KOSParams.account],
                effect: .read, use: KOSService.courses
            ),
            Command(
                "results", "Credits enrolled and obtained per semester and in total (external enrolments count)",
                params: [KOSParams.account],
                effect: .read, use: KOSService.results
            ),
            Command(
                "course", "A course's details (public data)",
                params: [KOSParams.code, KOSParams.courseSemester],
                effect: .read, use: KOSService.course
            )
            .view(
                ResultView(fields: [
                    .init("code", "Course"), .init("name", "Name"), .init("credits", "Credits"), .init("completion", "Completion"),
                    .init("range", "Hours"), .init("season", "Semester"), .init("programme_type", "Programme"), .init(heading: "About"),
                    .init("annotation", "Annotation"), .init("details.objectives", "Objectives"), .init("details.requirements", "Requirements"),
                ])),
            Command(
                "studyplan", "My study plan checked: per course group its role, credits and courses required and done, compulsory ones missing",
                params: [KOSParams.account], example: "assistantctl kos.studyplan", effect: .read,
                use: KOSService.studyPlanCheck
            ),
            Command(
                "courses.available", "The courses of my study plan not yet completed that are taught in a semester",
                params: [KOSParams.requiredSemester, KOSParams.account],
                example: "assistantctl kos.courses.available sem=next", effect: .read, use: KOSService.coursesAvailable
            ),
            Command(
                "courses.search", "Courses by words of their name or code, accents optional (public data)",
                params: [KOSParams.courseQuery, KOSParams.courseSemester, KOSParams.courseLimit],
                example: "assistantctl kos.courses.search query='programovani'", effect: .read, use: KOSService.coursesSearch
            ),
            Command(
                "course.parallels", "A course's parallels: type, number, teachers, slots, capacity and occupied seats (public data)",
                params: [KOSParams.code, KOSParams.semester],
                example: "assistantctl kos.course.parallels code=BI-OPT", effect: .read, use: KOSService.courseParallels
            ),
            Command(
                "teacher.timetable", "A teacher's timetable slots (public data)",
                params: [KOSParams.teacherUsername, KOSParams.semester],
                example: "assistantctl kos.teacher.timetable username=novakpet", effect: .read, use: KOSService.teacherTimetable
            ),
            Command(
                "room", "A room: name, locality, type and capacities (public data)", params: [KOSParams.roomCode],
                example: "assistantctl kos.room code=TH:A-1442", effect: .read, use: KOSService.room
            ),
            Command(
                "exams", "Exams: of a course, mine only, or of all my enrolled courses",
                params: [KOSParams.course, KOSParams.mine, KOSParams.examSemester, KOSParams.account],
                effect: .read, use: KOSService.exams
            )
            .view(
                ResultView(
                    rows: "exams",
                    columns: [
                        .init("start", "WHEN", .when), .init("course", "COURSE"), .init("kind", "KIND", optional: true),
                        .init("room", "ROOM", optional: true), .init("occupied", "SEATS", until: "capacity"),
                        .init("registered", "MINE", optional: true), .init("id", "ID", optional: true),
                    ])),
            Command(
                "events", "The course events (tests and similar) of my enrolled courses, or of one course, with their note and sign-up deadline",
                params: [KOSParams.course, KOSParams.semester, KOSParams.account],
                effect: .read, use: KOSService.events
            ),
            Command(
                "people.search", "Finds people and teachers by name or username (accents optional), or lists a division's teachers",
                params: [KOSParams.query, KOSParams.division, KOSParams.limit],
                example: "assistantctl kos.people.search q=dvorak", effect: .read, use: KOSService.peopleSearch
            ),
            Command(
                "office", "The study office's hours (from the config: KOSapi does not serve them)", effect: .read, use: KOSService.office
            ),
            Command(
                "export.ics", "Writes the semester's classes, week by week, and my registered exams to an .ics file",
                params: [KOSParams.path, KOSParams.semester, KOSParams.account], effect: .write,
                use: KOSService.exportICS
            ).says("Wrote {events} events of {semester} ({teaching_weeks} teaching weeks) to {path}").writesFiles(),
            Command(
                "exams.watch", "Watches a full exam for a free seat (checked every watch_every_min)", params: [KOSParams.examID],
                effect: .write, use: KOSService.watch
            ).says(
                "Watching {watch.exam.course}, exam on {watch.exam.start:when}, for a free seat"
                    + "[ ({watch.exam.occupied} of {watch.exam.capacity} taken)]",
                "Watching exam {exam_id} for a free seat"),
            Command(
                "exams.watches", "Lists the watched exams",
                effect: .read, use: KOSService.watches
            ),
            Command(
                "exams.unwatch", "Stops watching an exam", params: [KOSParams.examID], effect: .write,
                use: KOSService.unwatch
            ).says("Stopped watching exam {exam_id}"),
            Command(
                "profile", "Your name, username, study programme, study group, grade and status",
                params: [KOSParams.account], effect: .read, use: KOSService.profile
            ),
        ]
    }
}
