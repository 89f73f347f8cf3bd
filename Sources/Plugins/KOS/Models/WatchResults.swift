import Foundation
import PluginKit
import StudyKit

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

struct SlotsAnswer: StoredResultObject, Sendable {
    var slots: [KOSTimetableSlot] = []

    static let members = ResultMembers<Self>(.field("slots", \.slots))
}

struct KOSExamsAnswer: StoredResultObject, Sendable {
    var exams: [KOSExam] = []

    static let members = ResultMembers<Self>(.field("exams", \.exams))
}

struct CoursesAnswer: StoredResultObject, Sendable {
    var courses: [KOSEnrolment] = []
    var credits: Int64 = 0

    static let members = ResultMembers<Self>(.field("courses", \.courses), .field("credits", \.credits))
}

struct EventsAnswer: StoredResultObject, Sendable {
    var events: [KOSCourseEvent] = []

    static let members = ResultMembers<Self>(.field("events", \.events))
}

/// `kos.results`: credits and courses per semester and in total.
struct ResultsAnswer: StoredResultObject, Sendable {
    struct Summary: StoredResultObject, Sendable {
        var creditsEnrolled: Int64 = 0
        var creditsObtained: Int64 = 0
        var coursesEnrolled: Int64 = 0
        var coursesCompleted: Int64 = 0

        static let members = ResultMembers<Self>(
            .field("credits_enrolled", \.creditsEnrolled), .field("credits_obtained", \.creditsObtained),
            .field("courses_enrolled", \.coursesEnrolled), .field("courses_completed", \.coursesCompleted))

        init() {}

        init(_ rows: [KOSEnrolment]) {
            let done = rows.filter(\.completed)
            creditsEnrolled = rows.reduce(0) { $0 + ($1.credits ?? 0) }
            creditsObtained = done.reduce(0) { $0 + ($1.credits ?? 0) }
            coursesEnrolled = Int64(rows.count)
            coursesCompleted = Int64(done.count)
        }
    }

    /// One semester's summary, with the semester.
    struct Semester: StoredResultObject, Sendable {
        var summary = Summary()
        var semester = ""

        static let members = ResultMembers<Self>(.flattened(\.summary), .field("semester", \.semester))
    }

    var semesters: [Semester] = []
    var total = Summary()

    static let members = ResultMembers<Self>(.field("semesters", \.semesters), .field("total", \.total))
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
/// and every account with its state; only the first two when KOS is not set up.
struct KOSStatus: ResultObject, CallResult {
    /// nil: `kos.setup` has not been run.
    let client: (id: String, apiURL: String)?
    let shown: Accounts.Account?
    let accounts: [Accounts.Account]

    var setUp: Bool { client != nil }
    var loggedIn: Bool { client != nil && shown?.state == .ready }
    var clientID: String? { client?.id }
    var apiURL: String? { client?.apiURL }
    var username: String?? { client == nil ? nil : .some(shown?.name) }
    var expiresAt: JSONValue? { client == nil ? nil : shown?["expires_at"] ?? .null }
    var state: String? { client == nil ? nil : shown?.state.rawValue ?? "logged_out" }
    var detail: String?? { client == nil ? nil : .some(shown?.detail) }
    var accountsWhenSetUp: [Accounts.Account]? { client == nil ? nil : accounts }

    static let members = ResultMembers<Self>(
        .field("set_up", \.setUp), .field("logged_in", \.loggedIn), .omittedWhenNil("client_id", \.clientID),
        .omittedWhenNil("api_url", \.apiURL), .omittedWhenNil("username", \.username),
        .omittedWhenNil("expires_at", \.expiresAt, JSONSchema.dateTime.nullable),
        .omittedWhenNil("state", \.state, .enumeration(["ready", "needs_reauth", "failed", "logged_out"])),
        .omittedWhenNil("detail", \.detail),
        .omittedWhenNil("accounts", \.accountsWhenSetUp, .array(Accounts.accountSchema(settings: ["expires_at": .dateTime]))))
}

/// `kos.login.wait` while the browser has not come back, or when the login failed.
struct KOSLoginPending: ResultObject, CallResult {
    enum State: String, CaseIterable, Sendable, Encodable, ResultDescribing {
        case waiting, failed
    }

    let state: State
    let detail: String?
    var loggedIn: Bool { false }

    static let members = ResultMembers<Self>(.field("logged_in", \.loggedIn), .field("state", \.state), .omittedWhenNil("detail", \.detail))
}

struct KOSLoggedOut: ResultObject, CallResult {
    var loggedIn: Bool { false }
    let username: String

    static let members = ResultMembers<Self>(.field("logged_in", \.loggedIn), .field("username", \.username))
}

/// `kos.login.wait`: the status once logged in, or still waiting or failed.
typealias KOSLoginWaited = OneOf<KOSStatus, KOSLoginPending>

/// `kos.semester`: a semester's code, name and first and last day.
/// `kos.semester`: what KOSapi gives, and the schedule from the config or the defaults.
struct SemesterShown: ResultObject, Sendable {
    var semester: SemesterAnswer
    var schedule: SemesterSchedule?

    static let members = ResultMembers<Self>(
        .flattened(\.semester),
        .field("schedule", \.schedule, "teaching weeks, exam period and holidays: KOSapi gives none, so they come from the config"))
}

struct SemesterAnswer: StoredResultObject, Sendable {
    var code = ""
    var name: String?
    /// ISO dates (KOS may add a time; the first ten characters are the day).
    var start = ""
    var end = ""

    var startDay: DateOnly? { DateOnly(String(start.prefix(10))) }
    var endDay: DateOnly? { DateOnly(String(end.prefix(10))) }

    static let members = ResultMembers<Self>(
        .field("code", \.code), .field("name", \.name), .field("start", \.start, .date), .field("end", \.end, .date))
}
