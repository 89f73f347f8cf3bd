import PluginKit

/// Every parameter of the Stag plugin's commands, declared once and read typed (`p[StagParams.termID]`).
enum StagParams {
    static let account = Param<String>("account", help: "which account (default: the default account)")
    static let accountName = Param<String>.required("account", help: "account name")
    static let loginAccount = Param<String>("account", help: "the account stag.login named")
    static let newAccount = Param<String>("account", help: "the account's name (default: the university's id, or the host)")
    static let university = Param<String>("university", help: "a known university's id (stag.universities), e.g. zcu")
    static let baseURL = Param<String>("base_url", help: "an instance not on the list, https://host")
    static let timeoutS = Param<Int64>("timeout_s", .integer(min: 1, max: 900), help: "how long to wait (default 600)")
    /// A secret: the address carries the login's ticket (never from argv).
    static let callbackURL = Param<String>("callback_url", .secret, help: "the address the login page sent the browser to (read from stdin)")
    static let ticket = Param<String>("ticket", .secret, help: "a STAG ticket")
    static let username = Param<String>.required("username", help: "STAG user name")
    static let password = Param<String>.required("password", .secret, help: "STAG password (used once)")

    static let from = Param<DateOnly>("from", help: "first day, YYYY-MM-DD (default: this Monday)")
    static let to = Param<DateOnly>("to", help: "last day, inclusive (default: a week from `from`)")
    static let role = Param<String>("role", .oneOf(["student", "teacher", "all"]), help: "whose timetable (default: all roles)")
    static let subject = Param<String>("subject", help: "only this subject, KAT/CODE")
    static let termID = Param<Int64>.required("term_id", .integer(min: 1), help: "the term")
    static let autoRegister = Param<Bool>("auto_register", help: "register at once when a seat frees")

    static let academicYear = ParamType.integer(min: 1990, max: 2100)
    static let gradesYear = Param<Int64>("year", academicYear, help: "academic year (the year it starts)")
    static let subjectYear = Param<Int64>("year", academicYear, help: "academic year (default: STAG's current)")
    static let calendarYear = Param<Int64>("year", academicYear, help: "academic year (default: the current one)")
    static let thesesYear = Param<Int64>("year", academicYear, help: "year assigned")
    static let department = Param<String>.required("department", help: "department code, e.g. KIV")
    static let code = Param<String>.required("code", help: "subject code, e.g. UPA")
    static let teacherID = Param<Int64>.required("id", .integer(min: 1), help: "ucitIdno")
    static let studentID = Param<String>("id", help: "osCislo (default: your own)")
    static let actionID = Param<Int64>.required("action_id", .integer(min: 1), help: "the action (action_id in stag.timetable)")

    static let path = Param<String>.required("path", .path, help: "the .ics file to write (replaced atomically)")
    static let week = Param<DateOnly>("week", help: "a day of the week to draw, YYYY-MM-DD (default: this week)")
    static let picturePath = Param<String>.required("path", .path, help: "the PDF (A4 landscape) or PNG to write, by its extension")
    static let firstDay = Param<DateOnly>.required("from", help: "first day")
    static let lastDay = Param<DateOnly>.required("to", help: "last day, inclusive")

    static let teacherName = Param<String>("name", help: "a teacher's surname, or first name and surname (Jan Novák)")
    static let searchDepartment = Param<String>("department", help: "department code, e.g. KIV")
    static let studentName = Param<String>.required("name", help: "a student's surname, or first name and surname (Jana Nováková)")
    static let studentLimit = Param<Int64>.defaulted("limit", .integer(min: 1, max: 200), default: 50, help: "most students shown")
    static let building = Param<String>("building", help: "building code, e.g. UC")
    static let roomQuery = Param<String>("query", help: "part of the room's number or name, or its type (326, UC-3, laboratoř)")
    static let roomLimit = Param<Int64>("limit", .integer(min: 1, max: 1000), help: "most rooms shown (default 100)")
    static let roomBuilding = Param<String>.required("building", help: "building code, e.g. UC")
    static let roomNumber = Param<String>.required("room", help: "room number, e.g. 326")
    static let subjectQuery = Param<String>(
        "query", help: "a code (KIV/UPA, UPA), or words of the name (accents optional; every faculty's list is read at most daily)")
    static let subjectLimit = Param<Int64>("limit", .integer(min: 1, max: 50), help: "most subjects shown, each read in detail (default 20)")

    static let mailSubject = Param<String>.required("subject", help: "the mail's subject")
    static let mailBody = Param<String>.required("body", help: "the mail's text")
    static let dryRun = Param<Bool>.defaulted("dry_run", default: true, help: "only list who would get it (default); false sends")
    static let mailTo = Param<String>("to", help: "the visible recipient (default: your own e-mail in STAG)")

    static let canteen = Param<String>.required("canteen", .oneOf(["B", "K", "b", "k"]), help: "B (Bory) or K (Kollárova)")
    static let day = Param<Int64>("day", .integer(min: 0, max: 14), help: "0 today (default), 1 tomorrow, …")

    static var instance: [any ParamDeclaration] { [university, baseURL, newAccount] }
}
