import HostCore

/// Every KOS command, declared once with its parameters and its handler.
enum KOSManifest {
    static let id = "kos"
    static let version = "0.1.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version, summary: "CTU KOSapi: OAuth login (the KOSapi commands are in progress)",
            topics: [TopicDescriptor("kos.auth.expired", "the KOS login can no longer be refreshed: log in again")],
            vaultNames: ["client_secret", "access_token", "refresh_token"], configOptions: KOSConfig.all)
    }

    typealias Command = PluginCommand<KOSService>

    static var commands: [Command] {
        [
            Command("setup", "Stores the OAuth application (checked with a client-credentials token first)", params: [
                ParamSpec("client_id", .string, required: true, help: "the application's client id"),
                ParamSpec("client_secret", .secret, required: true, help: "the application's client secret"),
                ParamSpec("api_url", .string, help: "KOSapi (default https://kosapi.fit.cvut.cz/api/3)"),
                ParamSpec("auth_url", .string, help: "the OAuth server (default https://auth.fit.cvut.cz)"),
                ParamSpec("redirect_port", .integer(min: 1024, max: 65535), help: "a fixed loopback port for an exact redirect URI"),
            ], result: "{client_id, api_url, auth_url, redirect_port, checked}", use: KOSService.setup),
            Command("login", "Starts the login; open the printed address in a browser on this machine", result: "{login_url, expires_in_s}",
                    use: KOSService.login),
            Command("login.wait", "Waits until the browser login has finished", params: [
                ParamSpec("timeout_s", .integer(min: 1, max: 900), help: "how long to wait (default 600)"),
            ], result: "the status, or {state: failed, detail}", timeout: .seconds(905), use: KOSService.loginWait),
            Command("login.code", "Completes a login with the pasted address the browser was redirected to", params: [
                ParamSpec("callback_url", .string, required: true, help: "the redirect address with code and state"),
            ], result: "the status", use: KOSService.loginCode),
            Command("status", "Shows whether you are logged in, as whom, and the token's expiry", result: "{set_up, logged_in, username, expires_at, …}",
                    use: KOSService.status),
            Command("logout", "Forgets your tokens", result: "{logged_in}", use: KOSService.logout),
            Command("semester", "A semester's code, name, start and end (public data)", params: [
                ParamSpec("which", .oneOf(["current", "next", "prev"]), help: "current (default), next or prev"),
            ], result: "{code, name, start, end, stale, fetched_at}", use: KOSService.semester),
            Command("timetable", "My timetable slots, by day and start, filtered by week parity", params: [
                ParamSpec("sem", .string, help: "a semester code (B261), current (default), next, prev"),
                ParamSpec("parity", .oneOf(["even", "odd", "both"]), help: "even or odd weeks (slots of both kinds included), or both (default)"),
            ], result: "{slots:[{day, start, end, course, course_name, kind, parallel, parity, room, teachers, weeks}], stale, fetched_at}",
               use: KOSService.timetable),
            Command("courses", "My enrolled courses in a semester, with credits", params: [
                ParamSpec("sem", .string, help: "a semester code (B261), current (default), next, prev or none (all)"),
            ], result: "{courses:[{code, name, credits, completion, completed, assessment, semester, external}], credits, stale, fetched_at}",
               use: KOSService.courses),
            Command("results", "Credits enrolled and obtained per semester and in total (external enrolments count)",
                    result: "{semesters:[{semester, credits_enrolled, credits_obtained, courses_enrolled, courses_completed}], total, stale, fetched_at}",
                    use: KOSService.results),
            Command("course", "A course's details (public data)", params: [
                ParamSpec("code", .string, required: true, help: "course code, e.g. BI-OPT"),
                ParamSpec("sem", .string, help: "a semester code, current, next, prev or none (default: the course's static data)"),
            ], result: "{code, name, credits, completion, season, range, programme_type, annotation, details:{…}, stale, fetched_at}",
               use: KOSService.course),
            Command("exams", "Exams: of a course, mine only, or of all my enrolled courses", params: [
                ParamSpec("course", .string, help: "a course code"), ParamSpec("mine", .boolean, help: "only the exams I am registered for"),
                ParamSpec("sem", .string, help: "a semester code, current (default), next, prev or none"),
            ], result: "{exams:[{id, course, start, end, room, capacity, occupied, full, kind, examiners, signin_deadline, cancel_deadline, registered}], stale, fetched_at}",
               use: KOSService.exams),
            Command("profile", "Your name, username, study programme, study group, grade and status",
                    result: "{name, username, programme, study_group, grade, status, stale, fetched_at}", use: KOSService.profile),
        ]
    }
}
