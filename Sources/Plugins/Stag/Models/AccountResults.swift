import Foundation
import PluginKit

// Typed answers of the login, account and watch commands: a `ResultObject` is the declaration
// of its result; the rest declare theirs in StagSchemas. A field the schema gives as "or null"
// is always written.

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
struct LoginWaited: Encodable, CallResult {
    let account: String
    let state: String
    let roles: [StagRole]?
    let detail: String?

    enum CodingKeys: String, CodingKey {
        case account, state, roles, detail
        case loggedIn = "logged_in"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(account, forKey: .account)
        try o.encode(state == "logged_in", forKey: .loggedIn)
        try o.encode(state, forKey: .state)
        try o.encodeIfPresent(roles, forKey: .roles)
        try o.encodeIfPresent(detail, forKey: .detail)
    }
}

/// An account as `stag.accounts.list`, `stag.status` and the login commands show it (its roles
/// as stored at login).
struct StagAccountRow: Encodable, Sendable {
    let account: Accounts.Account
    let loggedIn: Bool
    /// `stag.status` only: when the account was last refreshed, and a login under way or failed.
    var status: (lastRefresh: String?, login: String?)?

    enum CodingKeys: String, CodingKey {
        case account, university, name, email, roles, state, detail, login
        case baseURL = "base_url"
        case loggedIn = "logged_in"
        case isDefault = "default"
        case lastRefresh = "last_refresh"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        let stored = StagAccountSettings(account)
        try o.encode(account.name, forKey: .account)
        try o.encodeOrNull(stored.university, forKey: .university)
        try o.encodeOrNull(stored.baseURL, forKey: .baseURL)
        try o.encodeOrNull(stored.name, forKey: .name)
        try o.encodeOrNull(stored.email, forKey: .email)
        try o.encode(stored.roles, forKey: .roles)
        try o.encode(loggedIn && account.state == .ready, forKey: .loggedIn)
        try o.encode(account.state.rawValue, forKey: .state)
        try o.encode(account.detail, forKey: .detail)
        try o.encode(account.isDefault, forKey: .isDefault)
        if let status {
            try o.encode(status.lastRefresh, forKey: .lastRefresh)
            try o.encodeIfPresent(status.login, forKey: .login)
        }
    }
}

struct StagAccountResult: Encodable, CallResult {
    let account: StagAccountRow
}

struct StagAccountList: Encodable, CallResult {
    let accounts: [StagAccountRow]
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
        .field("term", \.term, StagSchemas.term))
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

struct TimetableAnswer: Codable, Sendable {
    let events: [TimetableEvent]
}

struct ExamTermsAnswer: Codable, Sendable {
    let terms: [ExamTerm]
}

struct GradesAnswer: Codable, Sendable {
    let grades: [GradeRow]
}

/// `stag.register` and `stag.unregister`: STAG's answer to the change.
struct RegistrationChanged: ResultObject, CallResult {
    var termID: Int64
    var registered: Bool
    var message: String

    static let members = ResultMembers<Self>(.field("term_id", \.termID), .field("registered", \.registered), .field("message", \.message))
}
