import Foundation
import PluginKit

/// `kos.setup`, `kos.login` (the authorization-code flow through the loopback capture),
/// `kos.login.code`, `kos.status`, `kos.logout`.
extension KOSService {
    static let scope = "cvut:kosapi:read"

    func setup(_ params: Params) async throws -> SetupResult {
        let id = try params[KOSParams.clientID].trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty, id.count <= 200, !id.contains(where: \.isWhitespace) else {
            throw KOSParams.clientID.invalid("is not an OAuth client id")
        }
        let secret = try params[KOSParams.clientSecret]
        guard !secret.isEmpty else { throw KOSParams.clientSecret.invalid("is empty") }
        var apiURL = params[KOSParams.apiURL] ?? "https://kosapi.fit.cvut.cz/api/3"
        var authURL = params[KOSParams.authURL] ?? "https://auth.fit.cvut.cz"
        while apiURL.hasSuffix("/") { apiURL.removeLast() }
        while authURL.hasSuffix("/") { authURL.removeLast() }
        try UpstreamClient.checkBaseURL(apiURL, policy: .loopbackOnly, param: KOSParams.apiURL.name)
        try UpstreamClient.checkBaseURL(authURL, policy: .loopbackOnly, param: KOSParams.authURL.name)
        let port = params[KOSParams.redirectPort]  // 1024–65535, checked against the manifest
        // Checked before anything is saved: a wrong secret (1402) is told apart from an
        // unreachable server (-32004).
        _ = try await OAuthClient(clientID: id, secret: secret, authURL: authURL, context: context).clientCredentials()
        try await tokens.saveClient(.init(id: id, apiURL: apiURL, authURL: authURL, redirectPort: port.map(Int.init)), secret: secret)
        return SetupResult(clientID: id, apiURL: apiURL, authURL: authURL, redirectPort: port)
    }

    func login(_ params: Params) async throws -> KOSLoginStarted {
        guard let client = try await tokens.client() else { throw KOSError.notSetUp }
        let timeout = Duration.seconds(600)
        let capture = try await LoopbackCapture.start(port: client.redirectPort ?? 0, timeout: timeout, title: "Signed in to KOS")
        // An OAuth client registered with an exact redirect URI needs the fixed port and a fixed path.
        let redirectURI = capture.url
        let state = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        guard var components = URLComponents(string: client.authURL + "/oauth/authorize") else {
            throw KOSError.loginFailed("the stored OAuth address '\(client.authURL)' is not an address; run kos.setup again")
        }
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: client.id),
            URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "scope", value: Self.scope),
            URLQueryItem(name: "state", value: state),
        ]
        let url = (components.url?.absoluteString ?? "").replacingOccurrences(of: "+", with: "%2B")
        try await rememberPending(state: state, redirectURI: redirectURI)
        await logins.start("user", capture: capture) { [self] redirect in
            try await complete(items: redirect.items).shown?.name
        }
        return KOSLoginStarted(loginURL: url, expiresIn: timeout.components.seconds)
    }

    /// The state and redirect URI of the login in progress, for the pasted-callback path too.
    func rememberPending(state: String, redirectURI: String) async throws {
        try await context.vault.set(
            "pending_login", secret: JSONValue.object(["state": .string(state), "redirect_uri": .string(redirectURI)]).encodedString())
    }

    func loginCode(_ params: Params) async throws -> KOSStatus {
        let text = try params[KOSParams.callbackURL]
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)), let items = components.queryItems,
            items.contains(where: { $0.name == "code" || $0.name == "error" })
        else { throw KOSParams.callbackURL.invalid("is not the address the login page redirected to (it has no code)") }
        var values: [String: String] = [:]
        for item in items { values[item.name] = item.value ?? "" }
        return try await complete(items: values)
    }

    /// Checks `state`, exchanges the code, reads the username, stores both tokens.
    func complete(items: [String: String]) async throws -> KOSStatus {
        if let error = items["error"] { throw KOSError.loginFailed(error == "access_denied" ? "access was denied at the login page" : error) }
        guard let pendingText = try await context.vault.get("pending_login"), let pending = try? JSONValue.decode(pendingText),
            let state = pending["state"]?.stringValue, let redirectURI = pending["redirect_uri"]?.stringValue
        else { throw KOSError.loginFailed("no login is in progress; run kos.login first") }
        guard items["state"] == state else { throw KOSError.loginFailed("the state does not match this login (a stale or forged redirect)") }
        guard let code = items["code"], !code.isEmpty else { throw KOSError.loginFailed("the redirect has no code") }
        let oauth = try await tokens.oauth()
        let fresh = try await oauth.exchange(code: code, redirectURI: redirectURI)
        // The username names the account: a login without one cannot be kept apart from others.
        guard let username = try await oauth.username(access: fresh.access) else {
            throw KOSError.badAnswer("the OAuth server's userinfo has no username")
        }
        try await tokens.store(fresh, username: username)
        try await context.vault.delete("pending_login")
        return try await status(account: username)
    }

    func loginWait(_ params: Params) async throws -> KOSLoginWaited {
        switch try await logins.settled("user", within: .seconds(params[KOSParams.timeoutS] ?? 600)) {
        case nil: throw RPCError.invalidParams("no login was started; run kos.login")
        case .waiting?: return .second(KOSLoginPending(state: .waiting, detail: nil))
        case .succeeded(_, let username)?: return .first(try await status(account: username))
        case .failed(let why)?: return .second(KOSLoginPending(state: .failed, detail: why))
        }
    }

    func status(_ params: Params) async throws -> KOSStatus {
        try await status(account: params[KOSParams.account])
    }

    /// The named account's login (else the default one's) at the top, and every account with its
    /// state: one that needs a new login does not hide the others.
    func status(account name: String?) async throws -> KOSStatus {
        guard let client = try await tokens.client() else { return KOSStatus(client: nil, shown: nil, accounts: []) }
        let all = try await accounts.list()
        let shown = name == nil ? all.first(where: \.isDefault) : try await accounts.resolve(name)
        return KOSStatus(client: (client.id, client.apiURL), shown: shown, accounts: all)
    }

    func logout(_ params: Params) async throws -> KOSLoggedOut {
        let username = try await accounts.resolve(params[KOSParams.account]).name
        try await tokens.logout(username)
        // The account is gone with its login: so are its class reminders.
        try await classReminders.disarm(account: username)
        return KOSLoggedOut(username: username)
    }
}
