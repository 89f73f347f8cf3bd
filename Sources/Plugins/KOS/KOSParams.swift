import PluginKit

/// Every parameter of the KOS plugin's commands, declared once and read typed (`p[KOSParams.examID]`).
enum KOSParams {
    static let clientID = Param<String>.required("client_id", help: "the application's client id")
    static let account = Param<String>("account", help: "whose KOS login (a username, as kos.status lists them); the default one when left out")
    static let clientSecret = Param<String>.required("client_secret", .secret, help: "the application's client secret")
    static let apiURL = Param<String>("api_url", help: "KOSapi (default https://kosapi.fit.cvut.cz/api/3)")
    static let authURL = Param<String>("auth_url", help: "the OAuth server (default https://auth.fit.cvut.cz)")
    static let redirectPort = Param<Int64>("redirect_port", .integer(min: 1024, max: 65535), help: "a fixed loopback port for an exact redirect URI")
    static let timeoutS = Param<Int64>("timeout_s", .integer(min: 1, max: 900), help: "how long to wait (default 600)")
    static let callbackURL = Param<String>.required("callback_url", help: "the redirect address with code and state")

    static let which = Param<String>("which", .oneOf(["current", "next", "prev"]), help: "current (default), next or prev")
    static let semester = Param<String>("sem", help: "a semester code (B251), current (default), next, prev")
    static let anySemester = Param<String>("sem", help: "a semester code (B261), current (default), next, prev or none (all)")
    static let courseSemester = Param<String>("sem", help: "a semester code, current, next, prev or none (default: the course's static data)")
    static let examSemester = Param<String>("sem", help: "a semester code, current (default), next, prev or none")
    static let parity = Param<String>(
        "parity", .oneOf(["even", "odd", "both"]), help: "even or odd weeks (slots of both kinds included), or both (default)")
    static let code = Param<String>.required("code", help: "course code, e.g. BI-OPT")
    static let course = Param<String>("course", help: "a course code")
    static let mine = Param<Bool>("mine", help: "only the exams I am registered for")
    static let query = Param<String>("q", help: "part of a name or username, e.g. novak")
    static let division = Param<String>("division", help: "a division's code, e.g. 18102")
    static let limit = Param<Int64>("limit", .integer(min: 1, max: 1000), help: "at most this many (default 200)")
    static let path = Param<String>.required("path", .path, help: "the .ics file to write (replaced atomically)")
    static let week = Param<DateOnly>("week", help: "a day of the week to draw, YYYY-MM-DD (default: this week)")
    static let picturePath = Param<String>.required("path", .path, help: "the PDF (A4 landscape) or PNG to write, by its extension")
    static let examID = Param<String>.required("exam_id", help: "an exam's id from kos.exams")
    static let courseQuery = Param<String>.required("query", help: "words of a course's name or its code, accents optional")
    static let courseLimit = Param<Int64>("limit", .integer(min: 1, max: 500), help: "at most this many (default 50)")
    static let teacherUsername = Param<String>.required("username", help: "the teacher's KOS username, e.g. novakpet")
    static let roomCode = Param<String>.required("code", help: "a room's code, e.g. TH:A-1442")
    static let requiredSemester = Param<String>.required("sem", help: "a semester code (B252), current, next or prev")
}
