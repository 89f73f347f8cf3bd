import Foundation
import PluginKit

// Typed answers of the exam watch commands: each type is the declaration of its result.

/// `kos.exams.watch`: the watch as saved, with the exam as `kos.exams` shows it.
struct KOSWatchSaved: ResultObject, CallResult {
    let watch: KOSWatch

    static let members = ResultMembers<Self>(.field("watch", \.watch))
}

struct KOSWatch: ResultObject, Sendable {
    let examID: String
    let full: Bool
    let exam: KOSExam

    static let members = ResultMembers<Self>(.field("exam_id", \.examID), .field("full", \.full), .field("exam", \.exam))
}

/// A watch as `kos.exams.watches` lists it.
struct KOSWatchRow: ResultObject, Sendable {
    let examID: String
    let course: String?
    let start: String?
    let full: Bool
    let freed: Int64
    let since: String

    init(_ watch: ExamWatches.Watch) {
        examID = watch.item
        course = watch.label
        start = watch.startsAt
        full = watch.lastState == "full"
        freed = watch.freed
        since = watch.since
    }

    static let members = ResultMembers<Self>(
        .field("exam_id", \.examID),
        .field("course", \.course),
        .field("start", \.start, .pragueTime),
        .field("full", \.full),
        .field("seats_freed", \.freed),
        .field("since", \.since, .dateTime))
}

struct KOSWatchList: ResultObject, CallResult {
    let watches: [KOSWatchRow]

    static let members = ResultMembers<Self>(.field("watches", \.watches))
}

struct KOSUnwatched: ResultObject, CallResult {
    let examID: String
    var watched: Bool { false }

    static let members = ResultMembers<Self>(.field("exam_id", \.examID), .field("watched", \.watched))
}

// The answers of the study reads, cached as they are and answered with `stale` and `fetched_at`.

struct SlotsAnswer: Codable, Sendable {
    let slots: [KOSTimetableSlot]
}

struct KOSExamsAnswer: Codable, Sendable {
    let exams: [KOSExam]
}

struct CoursesAnswer: Codable, Sendable {
    let courses: [KOSEnrolment]
    let credits: Int64
}

struct EventsAnswer: Codable, Sendable {
    let events: [KOSCourseEvent]
}

/// `kos.results`: credits and courses per semester and in total.
struct ResultsAnswer: Codable, Sendable {
    struct Summary: Codable, Sendable {
        var semester: String?
        let creditsEnrolled: Int64
        let creditsObtained: Int64
        let coursesEnrolled: Int64
        let coursesCompleted: Int64

        enum CodingKeys: String, CodingKey {
            case semester
            case creditsEnrolled = "credits_enrolled"
            case creditsObtained = "credits_obtained"
            case coursesEnrolled = "courses_enrolled"
            case coursesCompleted = "courses_completed"
        }

        init(_ rows: [KOSEnrolment], semester: String? = nil) {
            let done = rows.filter(\.completed)
            self.semester = semester
            creditsEnrolled = rows.reduce(0) { $0 + ($1.credits ?? 0) }
            creditsObtained = done.reduce(0) { $0 + ($1.credits ?? 0) }
            coursesEnrolled = Int64(rows.count)
            coursesCompleted = Int64(done.count)
        }
    }

    let semesters: [Summary]
    let total: Summary
}

/// `kos.setup`: the OAuth client as saved, after the server accepted it.
struct SetupResult: ResultObject, CallResult {
    let clientID: String
    let apiURL: String
    let authURL: String
    let redirectPort: Int64?
    var checked: Bool { true }

    static let members = ResultMembers<Self>(
        .field("client_id", \.clientID),
        .field("api_url", \.apiURL),
        .field("auth_url", \.authURL),
        .field("redirect_port", \.redirectPort),
        .field("checked", \.checked))
}

/// `kos.login`: the address to open, and how long the listener waits for the browser.
struct KOSLoginStarted: ResultObject, CallResult {
    let loginURL: String
    let expiresIn: Int64

    static let members = ResultMembers<Self>(.field("login_url", \.loginURL, "open it in a browser"), .field("expires_in_s", \.expiresIn))
}

/// `kos.status` (and what a login ends with): whether KOS is set up, the shown account's login,
/// and every account with its state.
struct KOSStatus: Encodable, CallResult {
    /// nil: `kos.setup` has not been run.
    let client: (id: String, apiURL: String)?
    let shown: Accounts.Account?
    let accounts: [Accounts.Account]

    enum CodingKeys: String, CodingKey {
        case username, state, detail, accounts
        case setUp = "set_up"
        case clientID = "client_id"
        case apiURL = "api_url"
        case loggedIn = "logged_in"
        case expiresAt = "expires_at"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        guard let client else {
            try o.encode(false, forKey: .setUp)
            try o.encode(false, forKey: .loggedIn)
            return
        }
        try o.encode(true, forKey: .setUp)
        try o.encode(client.id, forKey: .clientID)
        try o.encode(client.apiURL, forKey: .apiURL)
        try o.encode(shown?.state == .ready, forKey: .loggedIn)
        try o.encode(shown?.name, forKey: .username)
        try o.encode(shown?["expires_at"] ?? .null, forKey: .expiresAt)
        try o.encode(shown?.state.rawValue ?? "logged_out", forKey: .state)
        try o.encode(shown?.detail, forKey: .detail)
        try o.encode(accounts, forKey: .accounts)
    }
}

/// `kos.login.wait` while the browser has not come back, or when the login failed.
struct KOSLoginPending: Encodable, CallResult {
    let state: String
    let detail: String?

    enum CodingKeys: String, CodingKey {
        case state, detail
        case loggedIn = "logged_in"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(false, forKey: .loggedIn)
        try o.encode(state, forKey: .state)
        try o.encodeIfPresent(detail, forKey: .detail)
    }
}

struct KOSLoggedOut: ResultObject, CallResult {
    var loggedIn: Bool { false }
    let username: String

    static let members = ResultMembers<Self>(.field("logged_in", \.loggedIn), .field("username", \.username))
}

/// `kos.login.wait`: still waiting or failed, or the status once logged in.
enum KOSLoginWaited: Encodable, CallResult {
    case pending(KOSLoginPending)
    case loggedIn(KOSStatus)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .pending(let pending): try pending.encode(to: encoder)
        case .loggedIn(let status): try status.encode(to: encoder)
        }
    }
}

/// `kos.semester`: a semester's code, name and first and last day.
struct SemesterAnswer: Codable, Sendable {
    let code: String
    let name: String?
    /// ISO dates (KOS may add a time; the first ten characters are the day).
    let start: String
    let end: String

    var startDay: DateOnly? { DateOnly(String(start.prefix(10))) }
    var endDay: DateOnly? { DateOnly(String(end.prefix(10))) }

    enum CodingKeys: String, CodingKey { case code, name, start, end }

    init(code: String, name: String?, start: String, end: String) {
        self.code = code
        self.name = name
        self.start = start
        self.end = end
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(code, forKey: .code)
        try o.encode(name, forKey: .name)
        try o.encode(start, forKey: .start)
        try o.encode(end, forKey: .end)
    }
}
