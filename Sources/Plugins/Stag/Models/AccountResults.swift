import Foundation
import PluginKit

// Typed answers of the login, account and watch commands, written straight into the reply;
// their schemas are in StagSchemas. A field the schema gives as "or null" is always written.

extension University: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, name
        case baseURL = "base_url"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(id, forKey: .id)
        try o.encode(name, forKey: .name)
        try o.encode(baseURL, forKey: .baseURL)
    }
}

struct UniversityList: Encodable, CallResult {
    let universities: [University]
}

/// `stag.login`: the address to open, and how long the listener waits for the browser.
struct LoginStarted: Encodable, CallResult {
    let loginURL: String
    let account: String
    let expiresIn: Int64

    enum CodingKeys: String, CodingKey {
        case account
        case loginURL = "login_url"
        case expiresIn = "expires_in_s"
    }
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

struct LoggedOut: Encodable, CallResult {
    let account: String
    let loggedIn = false
    let invalidatedAtStag: Bool

    enum CodingKeys: String, CodingKey {
        case account
        case loggedIn = "logged_in"
        case invalidatedAtStag = "invalidated_at_stag"
    }
}

/// `stag.exams.watch`: the watch as saved, with the term as `stag.exams` shows it.
struct WatchSaved: Encodable, CallResult {
    struct Watch: Encodable, Sendable {
        let account: String
        let termID: Int64
        let autoRegister: Bool
        let state: ExamState
        let term: ExamTerm

        enum CodingKeys: String, CodingKey {
            case account, state, term
            case termID = "term_id"
            case autoRegister = "auto_register"
        }
    }

    let watch: Watch
}

/// A watch as `stag.exams.watches` lists it.
struct WatchRow: Encodable, Sendable {
    let watch: ExamWatches.Watch

    enum CodingKeys: String, CodingKey {
        case account, state, subject, since
        case termID = "term_id"
        case autoRegister = "auto_register"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(watch.account, forKey: .account)
        try o.encode(Int64(watch.item) ?? 0, forKey: .termID)
        try o.encode(watch.autoRegister, forKey: .autoRegister)
        try o.encode(watch.lastState, forKey: .state)
        try o.encode(watch.label, forKey: .subject)
        try o.encode(watch.since, forKey: .since)
    }
}

struct WatchList: Encodable, CallResult {
    let watches: [WatchRow]
}

struct Unwatched: Encodable, CallResult {
    let termID: Int64
    let watched = false

    enum CodingKeys: String, CodingKey {
        case watched
        case termID = "term_id"
    }
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
struct RegistrationChanged: Encodable, CallResult {
    var termID: Int64
    var registered: Bool
    var message: String

    enum CodingKeys: String, CodingKey {
        case registered, message
        case termID = "term_id"
    }
}
