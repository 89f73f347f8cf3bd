import Foundation
import PluginKit
import StudyKit

// Typed answers of the login, account and watch commands, and the study reads' answers as the
// cache keeps them: each is the declaration of its result (`ResultObject`). A field STAG may not
// give is written as null.

struct UniversityList: ResultObject, CallResult {
    let universities: [University]

    static let members = ResultMembers<Self>(.field("universities", \.universities))
}

/// `stag.login`: the address to open, and how long the listener waits for the browser.
struct LoginStarted: ResultObject, CallResult {
    let loginURL: String
    let account: String
    let expiresIn: Int64

    static let members = ResultMembers<Self>(
        .field("login_url", \.loginURL, "open it in a browser"),
        .field("account", \.account),
        .field("expires_in_s", \.expiresIn))
}

/// `stag.login.wait`: how the browser login ended, or that it still waits.
struct LoginWaited: ResultObject, CallResult {
    enum State: String, CaseIterable, Sendable, Encodable, ResultDescribing {
        case loggedIn = "logged_in", failed, waiting
    }

    let account: String
    let state: State
    let roles: [StagRole]?
    let detail: String?

    var loggedIn: Bool { state == .loggedIn }

    static let members = ResultMembers<Self>(
        .field("account", \.account), .field("logged_in", \.loggedIn), .field("state", \.state), .omittedWhenNil("detail", \.detail),
        .omittedWhenNil("roles", \.roles))
}

/// An account as `stag.accounts.list` and the login commands show it (its roles as stored at
/// login).
struct StagAccountRow: ResultObject, Sendable {
    let account: Accounts.Account
    let loggedIn: Bool
    let stored: StagAccountSettings

    init(account: Accounts.Account, loggedIn: Bool) {
        self.account = account
        self.loggedIn = loggedIn
        stored = StagAccountSettings(account)
    }

    var name: String { account.name }
    var loggedInNow: Bool { loggedIn && account.state == .ready }

    static let members = ResultMembers<Self>(
        .field("account", \.name), .field("university", \.stored.university), .field("base_url", \.stored.baseURL),
        .field("name", \.stored.name), .field("email", \.stored.email), .field("roles", \.stored.roles), .field("logged_in", \.loggedInNow),
        .field("state", \.account.state), .field("detail", \.account.detail), .field("default", \.account.isDefault))
}

/// An account as `stag.status` shows it: when it was last refreshed, and a login under way or
/// failed.
struct StagAccountStatus: ResultObject, Sendable {
    let row: StagAccountRow
    let lastRefresh: String?
    let login: String?

    static let members = ResultMembers<Self>(
        .flattened(\.row), .field("last_refresh", \.lastRefresh, .dateTime), .omittedWhenNil("login", \.login, "a browser login under way or failed"))
}

struct StagAccountResult: ResultObject, CallResult {
    let account: StagAccountRow

    static let members = ResultMembers<Self>(.field("account", \.account))
}

struct StagAccountList: ResultObject, CallResult {
    let accounts: [StagAccountRow]

    static let members = ResultMembers<Self>(.field("accounts", \.accounts))
}

struct StagStatusList: ResultObject, CallResult {
    let accounts: [StagAccountStatus]

    static let members = ResultMembers<Self>(.field("accounts", \.accounts))
}

struct LoggedOut: ResultObject, CallResult {
    let account: String
    var loggedIn: Bool { false }
    let invalidatedAtStag: Bool

    static let members = ResultMembers<Self>(
        .field("account", \.account),
        .field("logged_in", \.loggedIn),
        .field("invalidated_at_stag", \.invalidatedAtStag))
}

/// `stag.exams.watch`: the watch as saved, with the term as `stag.exams` shows it.
struct WatchSaved: ResultObject, CallResult {
    let watch: StagWatch

    static let members = ResultMembers<Self>(.field("watch", \.watch))
}

struct StagWatch: ResultObject, Sendable {
    let account: String
    let termID: Int64
    let autoRegister: Bool
    let state: ExamState
    let term: ExamTerm

    static let members = ResultMembers<Self>(
        .field("account", \.account),
        .field("term_id", \.termID),
        .field("auto_register", \.autoRegister),
        .field("state", \.state),
        .field("term", \.term))
}

/// A watch as `stag.exams.watches` lists it.
struct WatchRow: ResultObject, Sendable {
    let account: String
    let termID: Int64
    let autoRegister: Bool
    let state: String?
    let label: String?
    let since: String

    init(_ watch: ExamWatches.Watch) {
        account = watch.account
        termID = Int64(watch.item) ?? 0
        autoRegister = watch.autoRegister
        state = watch.lastState
        label = watch.label
        since = watch.since
    }

    static let members = ResultMembers<Self>(
        .field("account", \.account),
        .field("term_id", \.termID),
        .field("auto_register", \.autoRegister),
        .field("state", \.state, .enumeration(ExamState.self)),
        .field("subject", \.label),
        .field("since", \.since, .dateTime))
}

struct WatchList: ResultObject, CallResult {
    let watches: [WatchRow]

    static let members = ResultMembers<Self>(.field("watches", \.watches))
}

struct Unwatched: ResultObject, CallResult {
    let termID: Int64
    var watched: Bool { false }

    static let members = ResultMembers<Self>(.field("term_id", \.termID), .field("watched", \.watched))
}

// The answers of the study reads, cached as they are and answered with `stale` and `fetched_at`.

struct TimetableAnswer: StoredResultObject, Sendable {
    var events: [TimetableEvent] = []

    static let members = ResultMembers<Self>(.field("events", \.events))
}

struct ExamTermsAnswer: StoredResultObject, Sendable {
    var terms: [ExamTerm] = []

    static let members = ResultMembers<Self>(.field("terms", \.terms))
}

struct GradesAnswer: StoredResultObject, Sendable {
    var grades: [GradeRow] = []

    static let members = ResultMembers<Self>(.field("grades", \.grades))
}

/// `stag.register` and `stag.unregister`: STAG's answer to the change.
struct RegistrationChanged: ResultObject, CallResult {
    var termID: Int64
    var registered: Bool
    var message: String
    /// The term as STAG lists it after the change; nil when it could not be read again.
    var term: ExamTerm?

    static let members = ResultMembers<Self>(
        .field("term_id", \.termID), .field("registered", \.registered), .field("message", \.message),
        .field("term", \.term, "the term as STAG lists it after the change; null when it could not be read again"))
}
