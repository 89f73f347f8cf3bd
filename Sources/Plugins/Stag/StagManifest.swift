import PluginKit
import StudyKit

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
            options: StagConfig.self, resources: resources, resourcesSetUp: .init(method: "stag.status", member: "accounts"), reachesOutside: true,
            pages: pages)
    }

    /// Its part of the web app's Exams page: the terms, with registering, unregistering and
    /// watching (each destructive one behind the page's confirmation).
    static let pages: [PageDeclaration] = [
        PageDeclaration(
            .timetable, .init("IS/STAG timetable", "Rozvrh v IS/STAG"),
            read: .init(method: "stag.timetable", params: ["from": "{week_start}", "to": "{week_last}"])),
        PageDeclaration(
            .exams, .init("IS/STAG exam terms", "Termíny zkoušek v IS/STAG"), read: .init(method: "stag.exams"),
            actions: [
                .init("stag.exams.register", .init("Register", "Přihlásit"), fromRow: ["term_id": "term_id"], when: "state=available"),
                .init("stag.exams.unregister", .init("Unregister", "Odhlásit"), fromRow: ["term_id": "term_id"], when: "state=registered"),
                .init("stag.exams.watch", .init("Watch", "Hlídat"), fromRow: ["term_id": "term_id"], when: "state=full"),
            ]),
    ]

    /// The views an AI assistant can attach, once an account is added. The registered exams share
    /// their view with KOS's, each system under its own part.
    static let resources: [ResourceDeclaration] = [
        ResourceDeclaration(
            uri: "assistant://stag/timetable/week", name: "IS/STAG timetable", description: "This week's classes (the default account)",
            reads: [.init(method: "stag.timetable")], topics: ["stag.timetable.*", "stag.class.*"], prompts: ["daily_briefing", "plan_week"]),
        .registeredExams(.init(method: "stag.exams", part: "stag", onlyState: "registered"), topics: ["stag.exam.*"]),
    ]

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

    static var commands: [Command] {
        [
            Command(
                "universities", "Lists the known IS/STAG instances", effect: .read, use: StagService.universities
            ),
            Command(
                "login", "Starts the login through the university's page; open the printed address in a browser on this machine",
                params: StagParams.instance,
                example: "assistantctl stag.login university=zcu", effect: .write, use: StagService.login
            ).says("To log in to STAG as {account}, open this address in a browser on this machine within {expires_in_s} s:\n{login_url:link}"),
            Command(
                "login.wait", "Waits until a browser login started by stag.login has finished",
                params: [StagParams.loginAccount, StagParams.timeoutS], timeout: .seconds(905),
                effect: .write, use: StagService.loginWait
            ).says(
                "Logged in to STAG as {account}; roles found: {roles:count}", "The STAG login of {account} failed: {detail}",
                "The STAG login of {account} has not finished yet; run stag.login.wait again"),
            Command(
                "login.ticket", "Logs in with a pasted callback address or ticket (for a machine without a browser)",
                params: StagParams.instance + [StagParams.callbackURL, StagParams.ticket], effect: .write, use: StagService.loginTicket
            ).says("Logged in to STAG as {account.account}[ ({account.name})]"),
            Command(
                "login.password", "Logs in once with the STAG user name and password (the password is not stored)",
                params: StagParams.instance + [StagParams.username, StagParams.password], effect: .write, use: StagService.loginPassword
            ).says("Logged in to STAG as {account.account}[ ({account.name})]"),
            Command(
                "status", "Shows each account: logged in, university, name, roles, last refresh", effect: .read,
                use: StagService.status
            ),
            Command("accounts.list", "Lists the accounts", effect: .read, use: StagService.accountsList),
            Command(
                "accounts.default", "Makes an account the default", params: [StagParams.accountName], effect: .write, use: StagService.accountsDefault
            ).says("{account.account} is now the default STAG account"),
            Command(
                "accounts.remove", "Removes an account, its ticket and its cached data",
                params: [StagParams.accountName], effect: .destructive, use: StagService.accountsRemove
            ).says("Removed the STAG account {removed} with its login and cached data").confirm(
                "Remove the STAG account {account}, its login and its cached data?"),
            Command(
                "logout", "Invalidates the ticket at STAG and forgets it", params: [StagParams.account],
                effect: .destructive, use: StagService.logout
            ).says("Logged {account} out of STAG[ (ticket invalidated at STAG: {invalidated_at_stag})]").confirm(
                "Log out of STAG[ as {account}]? You would log in again in a browser."),
            Command(
                "timetable", "Dated timetable events (default: this week), every role merged",
                params: [StagParams.from, StagParams.to, StagParams.role, StagParams.account],
                effect: .read, use: StagService.timetable
            )
            .view(
                ResultView(
                    rows: "events",
                    grid: .init(
                        day: "date", start: "start", end: "end", title: "subject", place: "room", mark: "type",
                        details: [.init("name", "Subject"), .init("teachers", "Teachers"), .init("week_parity", "Weeks"), .init("note", "Note")]))),
            Command(
                "timetable.pdf", "The week's timetable drawn for the wall: A4 landscape PDF (or PNG), every role merged",
                params: [StagParams.week, StagParams.picturePath, StagParams.account],
                effect: .write, use: StagService.timetablePicture
            ).says("Drew {classes} classes of the week of {week:day} to {path} ({bytes:bytes})").writesFiles(),
            Command(
                "exams", "Exam terms visible to the student, with their state",
                params: [StagParams.subject, StagParams.account],
                effect: .read, use: StagService.exams
            )
            .view(
                ResultView(
                    rows: "terms",
                    columns: [
                        .init("date", "DATE", .when), .init("start", "FROM"), .init("subject", "SUBJECT"), .init("name", "NAME"),
                        .init("state", "STATE"), .init("occupied", "SEATS", until: "limit"), .init("room", "ROOM", optional: true),
                        .init("term_id", "TERM", optional: true),
                    ])),
            Command(
                "exams.term", "One exam term of stag.exams, by its id", params: [StagParams.termID, StagParams.account], effect: .read,
                use: StagService.examTerm
            ),
            Command(
                "exams.register", "Registers for an exam term (never retried)",
                params: [StagParams.termID, StagParams.account],
                effect: .destructive, use: StagService.register
            ).says(
                "Registered for {term.subject}[ {term.name}] on {term.date:day}[ {term.start}][ ({term.occupied} of {term.limit} seats taken)]",
                "Registered for exam term {term_id}"
            ).confirm(
                "Register for {subject}[ {name}], exam on {date:day}[ {start}][ in {room}]?", "Register for exam term {term_id}?",
                details: "stag.exams.term"),
            Command(
                "exams.unregister", "Unregisters from an exam term (never retried)",
                params: [StagParams.termID, StagParams.account],
                effect: .destructive, use: StagService.unregister
            ).says(
                "Unregistered from {term.subject}[ {term.name}] on {term.date:day}[ {term.start}]", "Unregistered from exam term {term_id}"
            ).confirm(
                "Unregister from {subject}[ {name}], exam on {date:day}[ {start}]?", "Unregister from exam term {term_id}?",
                details: "stag.exams.term"),
            Command(
                "exams.watch", "Watches a full term for a free seat (checked every watch_every_min)",
                params: [StagParams.termID, StagParams.autoRegister, StagParams.account], effect: .write,
                use: StagService.watch
            ).says(
                "Watching {watch.term.subject}[ {watch.term.name}], exam on {watch.term.date:day}[ {watch.term.start}]"
                    + "[ (auto-register: {watch.auto_register})]",
                "Watching exam term {term_id}[ (auto-register: {watch.auto_register})]"
            ).destructive(when: .equals(StagParams.autoRegister, true))
                .confirm(
                    "Watch {subject}[ {name}], exam on {date:day}[ {start}], and register you as soon as a seat is free?",
                    "Watch exam term {term_id} and register you as soon as a seat is free?", details: "stag.exams.term"),
            Command(
                "exams.watches", "Lists the watched terms",
                effect: .read, use: StagService.watches
            ),
            Command(
                "exams.unwatch", "Stops watching a term",
                params: [StagParams.termID, StagParams.account],
                effect: .write, use: StagService.unwatch
            ).says("Stopped watching exam term {term_id}"),
            Command(
                "grades", "One row per subject enrolment",
                params: [StagParams.gradesYear, StagParams.account],
                effect: .read, use: StagService.grades
            )
            .view(
                ResultView(
                    rows: "grades",
                    columns: [
                        .init("subject", "SUBJECT"), .init("name", "NAME"), .init("grade", "GRADE"), .init("credits", "CREDITS"),
                        .init("date", "DATE", .when, optional: true), .init("kind", "KIND", optional: true),
                    ])),
            Command(
                "results", "Credits and credit-weighted averages per semester and in total", params: [StagParams.account],
                effect: .read, use: StagService.results
            )
            .view(
                ResultView(
                    rows: "terms",
                    columns: [
                        .init("year", "YEAR"), .init("semester", "SEMESTER"), .init("credits_obtained", "CREDITS"),
                        .init("subjects_passed", "PASSED", until: "subjects_enrolled"), .init("weighted_average", "AVERAGE"),
                    ])),
            Command(
                "subject", "A subject's details",
                params: [StagParams.department, StagParams.code, StagParams.subjectYear, StagParams.account],
                effect: .read, use: StagService.subject
            )
            .view(
                ResultView(fields: [
                    .init("subject", "Subject"), .init("name", "Name"), .init("credits", "Credits"), .init("exam_type", "Completion"),
                    .init("exam_form", "Exam"), .init("hours.lectures.count", "Lectures"), .init("hours.seminars.count", "Seminars"),
                    .init("hours.exercises.count", "Exercises"), .init("languages", "Languages"), .init("guarantors", "Guarantors", .list),
                    .init("lecturers", "Lecturers", .list), .init("seminar_tutors", "Seminar tutors", .list), .init("url", "Link"),
                    .init(heading: "About"), .init("annotation", "Annotation"), .init("requirements", "Requirements"),
                    .init("prerequisites", "Prerequisites"),
                ])),
            Command(
                "teacher", "A teacher's details", params: [StagParams.teacherID, StagParams.account], effect: .read, use: StagService.teacher
            ),
            Command(
                "teachers.search", "Teachers by name or department, in Czech alphabetical order",
                params: [StagParams.teacherName, StagParams.searchDepartment, StagParams.account],
                example: "assistantctl stag.teachers.search name=Novák", effect: .read, use: StagService.teachersSearch
            ).checking(.anyOf(StagParams.teacherName, StagParams.searchDepartment)),
            Command(
                "students.search", "Students by name, for a teacher (a student's account gets STAG's own answer), in Czech alphabetical order",
                params: [StagParams.studentName, StagParams.studentLimit, StagParams.account],
                example: "assistantctl stag.students.search name=Nováková", effect: .read, use: StagService.studentsSearch
            )
            .view(
                ResultView(
                    rows: "students",
                    columns: [
                        .init("id", "ID"), .init("name", "NAME"), .init("faculty", "FACULTY"), .init("programme", "PROGRAMME"),
                        .init("year_of_study", "YEAR"),
                    ])),
            Command(
                "subjects.search", "Subjects by code, by department, or by words of their name across the university, with credits and semester",
                params: [StagParams.subjectQuery, StagParams.searchDepartment, StagParams.subjectYear, StagParams.subjectLimit, StagParams.account],
                example: "assistantctl stag.subjects.search department=KIV query=programování",
                effect: .read, use: StagService.subjectsSearch
            ).checking(.anyOf(StagParams.subjectQuery, StagParams.searchDepartment)),
            Command(
                "rooms.search", "Rooms with their type, capacity and building address",
                params: [StagParams.building, StagParams.roomQuery, StagParams.roomLimit, StagParams.account],
                example: "assistantctl stag.rooms.search building=UC query=laboratoř", effect: .read, use: StagService.roomsSearch
            ),
            Command(
                "rooms.timetable", "A room's timetable actions (default: this week)",
                params: [StagParams.roomBuilding, StagParams.roomNumber, StagParams.from, StagParams.to, StagParams.account],
                example: "assistantctl stag.rooms.timetable building=UC room=326", effect: .read,
                use: StagService.roomsTimetable
            ).checking(.ordered(StagParams.from, StagParams.to, maxDays: 400)),
            Command(
                "student", "A student's details (your own by default)",
                params: [StagParams.studentID, StagParams.account], effect: .read, use: StagService.student
            ),
            Command(
                "calendar", "The academic year's calendar (harmonogram)",
                params: [StagParams.calendarYear, StagParams.account], effect: .read, use: StagService.calendar
            ),
            Command(
                "export.ics", "Writes the timetable and registered exams as an iCalendar file",
                params: [StagParams.path, StagParams.firstDay, StagParams.lastDay, StagParams.account],
                effect: .write, use: StagService.exportICS
            ).says("Wrote {events} events ({from:day} – {to:day}) to {path}").writesFiles().checking(
                .ordered(StagParams.firstDay, StagParams.lastDay, maxDays: 400)),
            Command(
                "canteen", "The ZČU canteen menu",
                params: [StagParams.canteen, StagParams.day],
                effect: .read, use: StagService.canteen
            ),
            Command(
                "students", "Teacher: the students of a timetable action, in Czech alphabetical order",
                params: [StagParams.actionID, StagParams.account], effect: .read, use: StagService.students
            ),
            Command(
                "teacher.exams", "Teacher: the exam terms of your subjects (or one), with capacity and how many registered",
                params: [StagParams.subject, StagParams.subjectYear, StagParams.account],
                example: "assistantctl stag.teacher.exams", effect: .read, use: StagService.teacherExams
            ),
            Command(
                "students.mail",
                "Teacher: mails the students of a timetable action, in Bcc; dry_run (default) only lists them, dry_run=false sends",
                params: [StagParams.actionID, StagParams.mailSubject, StagParams.mailBody, StagParams.dryRun, StagParams.mailTo, StagParams.account],
                example: "assistantctl stag.students.mail action_id=700001 subject='Room change' body='We meet in PR-102.' dry_run=false",
                effect: .read, use: StagService.studentsMail
            ).destructive(when: .equals(StagParams.dryRun, false))
                .confirm("Mail “{subject}” in Bcc to the students of timetable action {action_id}[, with {to} as the visible recipient]?"),
            Command(
                "theses", "Teacher: the theses you supervise",
                params: [StagParams.thesesYear, StagParams.account],
                effect: .read, use: StagService.theses
            ),
        ]
    }
}
