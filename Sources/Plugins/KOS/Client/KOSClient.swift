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

    func api(_ caller: Caller) async throws -> UpstreamClient {
        guard let client = try await tokens.client() else { throw KOSError.notSetUp }
        let tokens = self.tokens
        var asUser = caller == .user
        if caller == .publicData, try await tokens.readyUsername() != nil { asUser = true }
        let auth: UpstreamAuth =
            asUser
            ? .bearer(token: { try await tokens.userToken() }, refresh: { try await tokens.refresh() })
            : .bearer(token: { try await tokens.appToken() }, refresh: { await tokens.forgetAppToken() })
        return try UpstreamClient(
            plugin: "kos",
            configuration: .init(
                baseURL: client.apiURL, auth: auth, timeout: context.httpTimeout, reauthCommand: "assistantctl kos.login",
                headers: ["Accept": "application/atom+xml"]),
            http: context.http, clock: context.clock)
    }

    /// One Atom entry; 404 is -32010.
    func entry(_ caller: Caller, _ path: String, query: [(String, String)] = [], what: String) async throws -> AtomDocument.Entry {
        let client = try await api(caller)
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

    /// The logged-in user's name, or -32003 naming the fix.
    func username() async throws -> String {
        if let username = try await tokens.readyUsername() { return username }
        throw await tokens.needsLogin(try await tokens.login()?.detail ?? "no one is logged in")
    }
}
