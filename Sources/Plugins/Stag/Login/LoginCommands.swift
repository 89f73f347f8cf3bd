import Foundation
import NIOHTTP1
import PluginKit

/// Logging in (reference §2): through the university's own page with the redirect captured on
/// this machine, by pasting the callback address or a ticket, or once with the STAG user name and
/// password. Every way ends in `completeLogin`: the ticket is checked against STAG and its roles
/// read, then the account is saved with the ticket in the vault as `stag/<account>/ticket`.
extension StagService {
    /// Where a login goes: a known university or an address, and the account's name.
    struct Target: Sendable {
        var base: String
        var university: University?
        var account: String
    }

    func target(_ params: Params) throws(RPCError) -> Target {
        let universityID = params[StagParams.university]
        let baseURL = params[StagParams.baseURL]
        var base: String
        var university: University?
        switch (universityID, baseURL) {
        case (let id?, nil):
            guard let known = University.named(id) else {
                throw StagParams.university.invalid(
                    "'\(id)' is not a known university (\(University.known.map(\.id).joined(separator: ", "))); give base_url instead")
            }
            university = known
            base = known.baseURL
        case (nil, let url?):
            base = StagClient.normalizedBase(url)
            try UpstreamClient.checkBaseURL(base, policy: .loopbackOnly, param: StagParams.baseURL.name)
            university = University.known.first { $0.baseURL == base }
        case (.some, .some):
            throw StagParams.baseURL.invalid("give either university or base_url, not both")
        case (nil, nil):
            throw StagParams.university.invalid("is needed (or base_url for an instance not on the list; see stag.universities)")
        }
        let account = params[StagParams.newAccount] ?? university?.id ?? URL(string: base)?.host ?? "stag"
        try Accounts.checkName(account, param: StagParams.account.name)
        return Target(base: base, university: university, account: account)
    }

    func universities() async throws -> UniversityList {
        UniversityList(universities: University.known)
    }

    func login(_ params: Params) async throws -> LoginStarted {
        let target = try target(params)
        let timeout = Duration.seconds(600)
        let capture = try await LoopbackCapture.start(timeout: timeout, title: "Signed in to IS/STAG")
        // The callback encoded whole (as the reference's clients send it): URLComponents would
        // leave its ':' and '/' as they are.
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let callback = capture.url.addingPercentEncoding(withAllowedCharacters: unreserved) ?? capture.url
        let loginURL = target.base + "/ws/login?originalURL=" + callback + "&longTicket=1"
        await logins.start(target.account, capture: capture) { [self] redirect in
            let callback = try StagCallback.parse(items: Self.repairedItems(redirect))
            _ = try await completeLogin(target, ticket: callback.ticket, callbackIdentity: callback.identity)
            return target.account
        }
        return LoginStarted(loginURL: loginURL, account: target.account, expiresIn: timeout.components.seconds)
    }

    /// Waits for a browser login started by `stag.login` to finish (a script, or a person who
    /// wants to know it worked).
    func loginWait(_ params: Params) async throws -> LoginWaited {
        let name: String
        if let given = params[StagParams.loginAccount] {
            name = given
        } else if let only = await logins.keys.first, await logins.keys.count == 1 {
            name = only
        } else {
            throw StagParams.account.invalid("is needed (the account stag.login named)")
        }
        switch try await logins.settled(name, within: .seconds(params[StagParams.timeoutS] ?? 600)) {
        case nil: throw StagParams.account.invalid("'\(name)' has no login in progress or finished")
        case .waiting?: return LoginWaited(account: name, state: .waiting, roles: nil, detail: nil)
        case .succeeded?:
            let account = try await accounts.resolve(name)
            return LoginWaited(account: name, state: .loggedIn, roles: StagAccountSettings(account).roles, detail: nil)
        case .failed(let why)?: return LoginWaited(account: name, state: .failed, roles: nil, detail: why)
        }
    }

    /// The query as it arrived, decoded; `stagUserInfo` keeps a `+` that travelled as a space.
    static func repairedItems(_ redirect: LoopbackCapture.Redirect) -> [String: String] {
        var items = redirect.items
        for pair in redirect.rawQuery.split(separator: "&") where pair.hasPrefix("stagUserInfo=") {
            let raw = pair.dropFirst("stagUserInfo=".count).replacingOccurrences(of: "+", with: "%2B")
            items["stagUserInfo"] = raw.removingPercentEncoding ?? items["stagUserInfo"]
        }
        return items
    }

    func loginTicket(_ params: Params) async throws -> StagAccountResult {
        let target = try target(params)
        let callback: StagCallback
        switch (params[StagParams.callbackURL], params[StagParams.ticket]) {
        case (let url?, nil): callback = try StagCallback.parse(url: url)
        case (nil, let ticket?): callback = try StagCallback.parse(items: ["stagUserTicket": ticket])
        case (.some, .some): throw StagParams.ticket.invalid("give either callback_url or ticket, not both")
        case (nil, nil): throw StagParams.callbackURL.invalid("is needed (or ticket)")
        }
        return try await completeLogin(target, ticket: callback.ticket, callbackIdentity: callback.identity)
    }

    /// HTTP Basic with the STAG user name and password, once: STAG answers with a `WSCOOKIE`
    /// ticket, which is what is kept. The password is never stored.
    func loginPassword(_ params: Params) async throws -> StagAccountResult {
        let target = try target(params)
        let user = try params[StagParams.username]
        let password = try params[StagParams.password]
        guard !user.isEmpty, !user.contains(":") else { throw StagParams.username.invalid("is not a STAG user name") }
        let client = try UpstreamClient(
            plugin: "stag", account: target.account,
            configuration: .init(
                baseURL: target.base, auth: .basic(user: user, password: password), timeout: context.httpTimeout, retries: 0,
                reauthCommand: "check the user name and password, or use stag.login"),
            http: context.http, clock: context.clock)
        let response = try await client.get(StagClient.servicePath + "help/getStagUserForActualUser", query: [("outputFormat", "JSON")])
        guard (200..<300).contains(response.status) else {
            throw StagError.badRequest("help/getStagUserForActualUser", response.status, StagClient.excerpt(response.text))
        }
        let ticket = response.headers["Set-Cookie"].lazy.compactMap(Self.wsCookie).first
        guard let ticket else {
            throw StagError.unexpectedAnswer("help/getStagUserForActualUser", "STAG accepted the password but sent no WSCOOKIE ticket")
        }
        return try await completeLogin(target, ticket: ticket, callbackIdentity: nil)
    }

    static func wsCookie(_ header: String) -> String? {
        guard let first = header.split(separator: ";").first else { return nil }
        let pair = first.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "WSCOOKIE" else { return nil }
        let value = pair[1].trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// Reads every role of the ticket's user (V2: the person and each role), and saves the
    /// account. A refused ticket saves nothing and leaves the old account as it was.
    @discardableResult
    func completeLogin(_ target: Target, ticket: String, callbackIdentity: StagIdentity?) async throws -> StagAccountResult {
        let accountName = target.account
        let existing = try await accounts.list().first { $0.name == accountName }
        let probe = try StagClient(
            account: accountName, base: target.base, ticket: ticket, language: language, context: context,
            onReauthNeeded: { _ in })
        let identity: StagIdentity
        do {
            let v2 = try await probe.read("help/getStagUserListForActualUserV2")
            // The roles the login page sent (every one in stagUserInfo), else STAG's own list.
            guard let read = callbackIdentity ?? StagIdentity(v2) else {
                throw StagError.unexpectedAnswer("help/getStagUserListForActualUserV2", "no roles in the answer")
            }
            identity = read
        } catch let error as RPCError where error.code == RPCErrorCode.needsReauth {
            throw RPCError(
                code: RPCErrorCode.needsReauth, message: "STAG refused the ticket (401); log in again", data: ["account": .string(accountName)])
        }
        let settings = StagAccountSettings(
            baseURL: target.base, university: target.university?.id, name: identity.name, email: identity.email, roles: identity.roles,
            loggedInAt: ISO8601.string(context.clock.now))
        if let old = existing, StagAccountSettings(old).baseURL != settings.baseURL {
            // Another instance under the same name: its cached data is not this account's.
            try await context.cache.forget(account: accountName)
        }
        let saved = try await accounts.save(accountName, settings: settings.settings, secrets: ["ticket": ticket], param: StagParams.account.name)
        try await accounts.markReady(accountName)
        return StagAccountResult(account: StagAccountRow(account: saved, loggedIn: true))
    }

    func status() async throws -> StagStatusList {
        var rows: [StagAccountStatus] = []
        for account in try await accounts.list() {
            let row = StagAccountRow(account: account, loggedIn: try await accounts.secret(account.name, "ticket") != nil)
            let login: String? =
                switch await logins.outcome(account.name) {
                case .waiting?: "waiting for the browser"
                case .failed(let why)?: "last login failed: \(why)"
                default: nil
                }
            rows.append(StagAccountStatus(row: row, lastRefresh: try await lastRefresh(account.name), login: login))
        }
        return StagStatusList(accounts: rows)
    }

    func lastRefresh(_ account: String) async throws -> String? {
        try await context.database.read { db in
            try String.fetchOne(db, sql: "SELECT last_refresh FROM stag_account_state WHERE account = ?", arguments: [account])
        }
    }

    func accountsList() async throws -> StagAccountList {
        StagAccountList(accounts: try await accounts.list().map { StagAccountRow(account: $0, loggedIn: $0.state == .ready) })
    }

    func accountsDefault(_ params: Params) async throws -> StagAccountResult {
        StagAccountResult(
            account: StagAccountRow(
                account: try await accounts.setDefault(try params[StagParams.accountName], param: StagParams.account.name), loggedIn: true))
    }

    func accountsRemove(_ params: Params) async throws -> Removed {
        let name = try params[StagParams.accountName]
        _ = try await accounts.resolve(name)
        await logins.cancel(name)
        try await accounts.remove(name, param: StagParams.account.name)
        try await context.cache.forget(account: name)
        try await StagStore.forget(account: name, in: context.database)
        try await classReminders.disarm(account: name)
        return Removed(name)
    }

    /// Invalidates the ticket at STAG (best effort: the ticket is forgotten here either way).
    func logout(_ params: Params) async throws -> LoggedOut {
        let account = try await accounts.resolve(params[StagParams.account])
        var invalidated = false
        if let ticket = try await accounts.secret(account.name, "ticket") {
            let client = try session(account, ticket: nil).client
            // The one call whose API takes the ticket as a query parameter.
            if let answer = try? await client.actions.get(StagClient.servicePath + "help/invalidateTicket", query: [("ticket", ticket)]) {
                invalidated = (200..<300).contains(answer.status)
            }
            try await context.vault.delete("\(account.name)/ticket")
        }
        try await accounts.needsReauth(account.name, reason: "logged out", notify: false)
        return LoggedOut(account: account.name, invalidatedAtStag: invalidated)
    }
}
