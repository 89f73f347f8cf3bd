import Foundation
import PluginKit

/// KOSapi through the kit's `UpstreamClient`: Atom asked for, the token only in
/// `Authorization: Bearer`. The user's token is refreshed by the keeper before it expires and
/// once after a 401; public data falls back to the application's client-credentials token when
/// no one is logged in or the login has expired.
extension KOSService {
    enum Caller {
        /// Only the logged-in user's token will do (their study data).
        case user
        /// Public data: the user's token when there is one, else the application's.
        case publicData
    }

    /// `account`: whose token a `.user` read goes with (the default account's when nil).
    func api(_ caller: Caller, account: String? = nil) async throws -> UpstreamClient {
        guard let client = try await tokens.client() else { throw KOSError.notSetUp }
        let tokens = self.tokens
        var user: String? = nil
        switch caller {
        case .user: user = try await tokens.usable(account)
        case .publicData: user = try await tokens.readyUsername()
        }
        let auth: UpstreamAuth =
            if let user {
                .bearer(token: { try await tokens.userToken(user) }, refresh: { try await tokens.refresh(user) })
            } else {
                .bearer(token: { try await tokens.appToken() }, refresh: { await tokens.forgetAppToken() })
            }
        return try UpstreamClient(
            plugin: "kos",
            configuration: .init(
                baseURL: client.apiURL, auth: auth, timeout: context.httpTimeout, reauthCommand: "assistantctl kos.login",
                headers: ["Accept": "application/atom+xml"]),
            http: context.http, clock: context.clock)
    }

    /// One Atom entry; 404 is -32010.
    func entry(_ caller: Caller, account: String? = nil, _ path: String, query: [(String, String)] = [], what: String) async throws
        -> AtomDocument.Entry
    {
        let client = try await api(caller, account: account)
        let response = try await client.get(path, query: query + localized)
        if response.status == 404 { throw RPCError.notFound(what) }
        guard (200..<300).contains(response.status) else {
            guard response.status >= 500 else { throw KOSError.refused(path, response.status) }
            throw client.unreachable("answered \(response.status) to \(path)", status: response.status)
        }
        let document: AtomDocument
        do { document = try AtomDocument(parsing: Data(response.body.readableBytesView)) } catch { throw client.unreadable(path, error) }
        guard let entry = document.entries.first else { throw KOSError.badAnswer("\(path) is a feed without an entry") }
        return entry
    }

    var language: String { context.config[KOSConfig.language] }

    /// Names in the configured language, with every language variant sent along (`multilang`) so
    /// that a name missing in one language falls back to the other.
    var localized: [(String, String)] { [("lang", language), ("multilang", "true")] }

    /// The account's (else the default account's) username when its login is usable, or -32003
    /// naming the fix.
    func username(_ account: String? = nil) async throws -> String {
        try await tokens.usable(account)
    }

    var accounts: Accounts { context.accounts }
}
