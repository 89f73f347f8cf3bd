import Foundation
import GRDB
import PluginKit

/// The application's client and each account's tokens. An account is one KOS login, named by its
/// username, kept by the kit's `Accounts` (its state per account in `kos.status` and `status`,
/// one re-auth path): the tokens are its secrets (`kos/<username>/access_token`, `…/refresh_token`)
/// and their expiry its setting. Refreshes are serialised here, per account: a token is refreshed
/// shortly before it expires and once after a 401; a refused refresh marks the account as needing
/// re-auth (one `kos.auth.expired` notice). The client-credentials token for public data is kept
/// in memory only.
actor TokenKeeper {
    struct Client: Sendable {
        var id: String
        var apiURL: String
        var authURL: String
        var redirectPort: Int?
    }

    let context: PluginContext
    var accounts: Accounts { context.accounts }
    private var publicToken: (token: String, expiresAt: Date)?
    /// The accounts whose refresh is under way, and who waits for each.
    private var refreshing: Set<String> = []
    private var refreshWaiters: [String: [CheckedContinuation<Void, any Error>]] = [:]
    /// Refresh this long before expiry.
    static let margin: TimeInterval = 60
    static let fix = "assistantctl kos.login"

    init(context: PluginContext) { self.context = context }

    /// The application row as last read. This actor is its only writer, so it is read once and
    /// again only after it changes, not on every request of every command.
    private var clientRow: Client??

    func client() throws -> Client? {
        if let clientRow { return clientRow }
        let fresh = try context.database.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT * FROM kos_client").map {
                Client(id: $0["client_id"], apiURL: $0["api_url"], authURL: $0["auth_url"], redirectPort: $0["redirect_port"])
            }
        }
        clientRow = .some(fresh)
        return fresh
    }

    /// The account (a KOS username) whose study data a command reads: the named one, or the
    /// default; -32003 naming the fix when it needs a new login or there is none.
    func usable(_ name: String?) async throws -> String {
        if name == nil, try await accounts.list().isEmpty { throw needsLogin("no one is logged in") }
        return try await accounts.usable(name).name
    }

    /// The default account when its login is usable (public data), else nil.
    func readyUsername() async throws -> String? {
        guard let account = try? await accounts.resolve(nil), account.state == .ready else { return nil }
        return account.name
    }

    /// Every account whose login is usable (the refresh and evening jobs walk them).
    func readyUsernames() async throws -> [String] {
        try await accounts.list().filter { $0.state == .ready }.map(\.name)
    }

    func oauth() async throws -> OAuthClient {
        guard let client = try client(), let secret = try await context.vault.get("client_secret") else { throw KOSError.notSetUp }
        return OAuthClient(clientID: client.id, secret: secret, authURL: client.authURL, context: context)
    }

    func saveClient(_ client: Client, secret: String) async throws {
        try await context.vault.set("client_secret", secret: secret)
        try await context.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO kos_client(one, client_id, api_url, auth_url, redirect_port) VALUES (1, ?, ?, ?, ?)
                    ON CONFLICT(one) DO UPDATE SET client_id = excluded.client_id, api_url = excluded.api_url, auth_url = excluded.auth_url,
                        redirect_port = excluded.redirect_port
                    """, arguments: [client.id, client.apiURL, client.authURL, client.redirectPort])
        }
        clientRow = nil
        publicToken = nil
    }

    /// Saves a login's tokens as the account `username` (a new login, or a refresh of one): the
    /// account is ready again.
    func store(_ tokens: OAuthClient.Tokens, username: String) async throws {
        var secrets = ["access_token": tokens.access]
        if let refresh = tokens.refresh { secrets["refresh_token"] = refresh }
        let expires = context.clock.now.addingTimeInterval(tokens.expiresIn)
        try await accounts.save(
            username, settings: ["expires_at": .string(ISO8601.string(expires))], secrets: secrets, param: KOSParams.teacherUsername.name)
    }

    /// The account's token, refreshed first when it is about to expire; -32003 when its login is
    /// not usable.
    func userToken(_ username: String) async throws -> String {
        let account = try await accounts.usable(username)
        guard let access = try await accounts.secret(username, "access_token") else {
            throw await expire(username, "the token was not stored")
        }
        if isFresh(account) { return access }
        try await refreshIfStillExpiring(username)
        guard let fresh = try await accounts.secret(username, "access_token") else { throw await expire(username, "the token was not stored") }
        return fresh
    }

    /// Refreshes unless another caller's refresh has finished since this caller read the expiry
    /// (it read it before a suspension): a second refresh would only spend a grant.
    private func refreshIfStillExpiring(_ username: String) async throws {
        if !refreshing.contains(username), let account = try? await accounts.resolve(username), account.state == .ready, isFresh(account) {
            return
        }
        try await refresh(username)
    }

    /// More than `margin` left before the account's token expires.
    private func isFresh(_ account: Accounts.Account) -> Bool {
        guard let text = account["expires_at"]?.stringValue, let expires = ISO8601.date(text) else { return false }
        return expires.timeIntervalSince(context.clock.now) > Self.margin
    }

    /// Uses the account's refresh token once; a refusal ends its login (needs re-auth, one
    /// notice). Callers that arrive while a refresh is under way wait for it: the server rotates
    /// refresh tokens, so a second refresh with the same token would be refused and end the login.
    func refresh(_ username: String) async throws {
        if refreshing.contains(username) {
            try await withCheckedThrowingContinuation { refreshWaiters[username, default: []].append($0) }
            return
        }
        refreshing.insert(username)
        let result: Result<Void, any Error>
        do {
            try await refreshOnce(username)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        refreshing.remove(username)
        let waiters = refreshWaiters.removeValue(forKey: username) ?? []
        for waiter in waiters { waiter.resume(with: result) }
        try result.get()
    }

    private func refreshOnce(_ username: String) async throws {
        guard let refreshToken = try await accounts.secret(username, "refresh_token") else {
            throw await expire(username, "there is no refresh token")
        }
        let tokens: OAuthClient.Tokens
        do {
            tokens = try await oauth().refresh(refreshToken)
        } catch let error as KOSError where error.refusesCredentials {
            throw await expire(username, "the refresh token was refused (\(error.message))")
        }
        try await store(tokens, username: username)
    }

    /// A client-credentials token for public data (kept in memory until shortly before expiry).
    func appToken() async throws -> String {
        if let publicToken, publicToken.expiresAt.timeIntervalSince(context.clock.now) > Self.margin { return publicToken.token }
        let tokens = try await oauth().clientCredentials()
        publicToken = (tokens.access, context.clock.now.addingTimeInterval(tokens.expiresIn))
        return tokens.access
    }

    func forgetAppToken() { publicToken = nil }

    /// Forgets the account and its tokens.
    func logout(_ username: String) async throws {
        try await accounts.remove(username, param: KOSParams.account.name)
    }

    /// The account's login is over: it needs re-auth (the kit posts `kos.auth.expired` once), and
    /// the caller gets -32003 naming the fix.
    func expire(_ username: String, _ reason: String) async -> RPCError {
        do {
            try await accounts.needsReauth(username, reason: reason)
            _ = try await accounts.usable(username)
        } catch {
            return RPCError(sending: error)
        }
        return needsLogin(reason)
    }

    func needsLogin(_ reason: String) -> RPCError {
        RPCError(
            code: RPCErrorCode.needsReauth, message: "KOS needs you to log in: \(reason); run: \(Self.fix)",
            data: ["plugin": "kos", "state": "needs_reauth", "fix": .string(Self.fix), "detail": .string(reason)])
    }

    /// A login kept by an earlier version (one row in `kos_login`, tokens as `kos/access_token`
    /// and `kos/refresh_token`) becomes the account of its username, once, at start: the tokens
    /// are re-encrypted under their new names (the vault binds each secret to its name), and a
    /// login that needed re-auth still does.
    func adoptEarlierLogin() async throws {
        struct EarlierLogin: Sendable {
            var username: String?
            var expiresAt: Double
            var state: String?
            var detail: String?
        }
        let earlier = try await context.database.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT username, expires_at, state, detail FROM kos_login").map {
                EarlierLogin(username: $0["username"], expiresAt: $0["expires_at"], state: $0["state"], detail: $0["detail"])
            }
        }
        guard let earlier else { return }
        let username = earlier.username
        let access = try await context.vault.get("access_token")
        if let username, let access, try await accounts.list().allSatisfy({ $0.name != username }) {
            var secrets = ["access_token": access]
            if let refresh = try await context.vault.get("refresh_token") { secrets["refresh_token"] = refresh }
            let expires = Date(timeIntervalSince1970: earlier.expiresAt)
            try await accounts.save(
                username, settings: ["expires_at": .string(ISO8601.string(expires))], secrets: secrets, param: KOSParams.teacherUsername.name)
            if earlier.state == "needs_reauth" {
                try await accounts.needsReauth(username, reason: earlier.detail ?? "the login had expired", notify: false)
            }
        }
        try await context.vault.delete("access_token")
        try await context.vault.delete("refresh_token")
        try await context.database.write { db in try db.execute(sql: "DELETE FROM kos_login") }
    }
}
