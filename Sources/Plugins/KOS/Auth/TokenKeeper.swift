import Foundation
import GRDB
import PluginKit

/// The application's client and the user's tokens. Refreshes are serialised here: the user's
/// token is refreshed shortly before it expires and once after a 401; a refused refresh marks
/// the login as needing re-auth (one `kos.auth.expired` notice). The client-credentials token
/// for public data is kept in memory only.
actor TokenKeeper {
    struct Client: Sendable {
        var id: String
        var apiURL: String
        var authURL: String
        var redirectPort: Int?
    }

    struct Login: Sendable {
        var username: String?
        var expiresAt: Date
        var state: String
        var detail: String?
    }

    let context: PluginContext
    private var publicToken: (token: String, expiresAt: Date)?
    private var refreshing = false
    private var refreshWaiters: [CheckedContinuation<Void, any Error>] = []
    /// Refresh this long before expiry.
    static let margin: TimeInterval = 60

    init(context: PluginContext) { self.context = context }

    /// The two rows as last read. This actor is their only writer, so they are read once and
    /// again only after it changes them, not on every request of every command. The read stays
    /// synchronous on purpose: the token logic decides on what it read without a suspension in
    /// between (a second refresh would spend a grant), and the read happens once, not per call.
    private var rows: (client: Client?, login: Login?)?

    private func stored() throws -> (client: Client?, login: Login?) {
        if let rows { return rows }
        let fresh = try context.database.read { db in
            let client = try GRDB.Row.fetchOne(db, sql: "SELECT * FROM kos_client").map {
                Client(id: $0["client_id"], apiURL: $0["api_url"], authURL: $0["auth_url"], redirectPort: $0["redirect_port"])
            }
            let login = try GRDB.Row.fetchOne(db, sql: "SELECT * FROM kos_login").map {
                Login(username: $0["username"], expiresAt: Date(timeIntervalSince1970: $0["expires_at"]), state: $0["state"], detail: $0["detail"])
            }
            return (client, login)
        }
        rows = fresh
        return fresh
    }

    func client() throws -> Client? { try stored().client }

    func login() throws -> Login? { try stored().login }

    /// The logged-in user's name when the login is usable, else nil.
    func readyUsername() throws -> String? {
        guard let login = try login(), login.state == "ready" else { return nil }
        return login.username
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
        rows = nil
        publicToken = nil
    }

    func store(_ tokens: OAuthClient.Tokens, username: String?) async throws {
        try await context.vault.set("access_token", secret: tokens.access)
        if let refresh = tokens.refresh { try await context.vault.set("refresh_token", secret: refresh) }
        let expires = context.clock.now.addingTimeInterval(tokens.expiresIn).timeIntervalSince1970
        try await context.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO kos_login(one, username, expires_at, state, detail) VALUES (1, ?, ?, 'ready', NULL)
                    ON CONFLICT(one) DO UPDATE SET username = coalesce(excluded.username, username), expires_at = excluded.expires_at,
                        state = 'ready', detail = NULL
                    """, arguments: [username, expires])
        }
        rows = nil
    }

    /// The user's token, refreshed first when it is about to expire; -32003 when there is no
    /// usable login.
    func userToken() async throws -> String {
        guard let login = try login(), login.state == "ready", let access = try await context.vault.get("access_token") else {
            throw needsLogin(try login()?.detail ?? "no one is logged in")
        }
        if isFresh(login) { return access }
        try await refreshIfStillExpiring()
        guard let fresh = try await context.vault.get("access_token") else { throw needsLogin("the token was not stored") }
        return fresh
    }

    /// Refreshes unless another caller's refresh has finished since this caller read the expiry
    /// (it read it before a suspension): a second refresh would only spend a grant.
    private func refreshIfStillExpiring() async throws {
        if !refreshing, let login = try login(), login.state == "ready", isFresh(login) { return }
        try await refresh()
    }

    /// More than `margin` left before the token expires.
    private func isFresh(_ login: Login) -> Bool {
        login.expiresAt.timeIntervalSince(context.clock.now) > Self.margin
    }

    /// Uses the refresh token once; a refusal ends the login (needs re-auth, one notice).
    /// Callers that arrive while a refresh is under way wait for it: the server rotates refresh
    /// tokens, so a second refresh with the same token would be refused and end the login.
    func refresh() async throws {
        if refreshing {
            try await withCheckedThrowingContinuation { refreshWaiters.append($0) }
            return
        }
        refreshing = true
        let result: Result<Void, any Error>
        do {
            try await refreshOnce()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        refreshing = false
        let waiters = refreshWaiters
        refreshWaiters = []
        for waiter in waiters { waiter.resume(with: result) }
        try result.get()
    }

    private func refreshOnce() async throws {
        guard let refreshToken = try await context.vault.get("refresh_token") else { throw await expire("there is no refresh token") }
        let tokens: OAuthClient.Tokens
        do {
            tokens = try await oauth().refresh(refreshToken)
        } catch let error as KOSError where error.refusesCredentials {
            throw await expire("the refresh token was refused (\(error.message))")
        }
        try await store(tokens, username: nil)
    }

    /// A client-credentials token for public data (kept in memory until shortly before expiry).
    func appToken() async throws -> String {
        if let publicToken, publicToken.expiresAt.timeIntervalSince(context.clock.now) > Self.margin { return publicToken.token }
        let tokens = try await oauth().clientCredentials()
        publicToken = (tokens.access, context.clock.now.addingTimeInterval(tokens.expiresIn))
        return tokens.access
    }

    func forgetAppToken() { publicToken = nil }

    func logout() async throws {
        try await context.vault.delete("access_token")
        try await context.vault.delete("refresh_token")
        try await context.database.write { db in try db.execute(sql: "DELETE FROM kos_login") }
        rows = nil
    }

    func expire(_ reason: String) async -> RPCError {
        let flipped =
            (try? await context.database.write { db -> Bool in
                try db.execute(sql: "UPDATE kos_login SET state = 'needs_reauth', detail = ? WHERE state != 'needs_reauth'", arguments: [reason])
                return db.changesCount == 1
            }) ?? false
        rows = nil
        if flipped {
            _ = try? await context.notifier.post(
                topic: KOSTopic.authExpired, title: "kos: log in again", body: "\(reason). Run: assistantctl kos.login", severity: .warning)
        }
        return needsLogin(reason)
    }

    func needsLogin(_ reason: String) -> RPCError {
        RPCError(
            code: RPCErrorCode.needsReauth, message: "KOS needs you to log in: \(reason); run: assistantctl kos.login",
            data: ["plugin": "kos", "state": "needs_reauth", "fix": "assistantctl kos.login", "detail": .string(reason)])
    }
}
