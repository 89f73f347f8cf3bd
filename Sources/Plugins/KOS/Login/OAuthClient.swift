import Foundation
import NIOCore
import NIOHTTP1
import PluginKit

/// The OAuth 2.0 server behind KOSapi (reference §2): tokens from `<auth_url>/oauth/token` with
/// the client's id and secret as HTTP Basic, and `userinfo` with the user's token.
struct OAuthClient: Sendable {
    struct Tokens: Sendable {
        var access: String
        var refresh: String?
        var expiresIn: Double
    }

    let clientID: String
    let secret: String
    let authURL: String
    let context: PluginContext

    func tokenEndpoint() throws(RPCError) -> UpstreamClient {
        try UpstreamClient(
            plugin: "kos",
            configuration: .init(
                baseURL: authURL, auth: .basic(user: clientID, password: secret), timeout: context.httpTimeout, retries: 0,
                reauthCommand: "assistantctl kos.setup client_id=… (check the client secret)"),
            http: context.http, clock: context.clock)
    }

    /// A form POST; 400/401 from the token endpoint are the server's refusals.
    func token(_ form: [(String, String)]) async throws -> Tokens {
        var components = URLComponents()
        components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
        let body = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let endpoint = try tokenEndpoint()
        let response: UpstreamResponse
        do {
            response = try await endpoint.send(
                .POST, "/oauth/token", headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                body: ByteBuffer(string: body))
        } catch let error as RPCError where error.code == RPCErrorCode.needsReauth {
            throw KOSError.clientRefused("401 from \(endpoint.origin)")
        }
        let answer = JSONTreeDecoder.row(response.json, as: OAuthAnswer.Token.self)
        guard (200..<300).contains(response.status) else {
            let reason = answer?.error ?? "status \(response.status)"
            if response.status >= 500 { throw endpoint.unreachable("answered \(response.status)", status: response.status) }
            throw KOSError.grantRefused(reason)
        }
        guard let answer, let access = answer.accessToken, !access.isEmpty else {
            throw KOSError.badAnswer("the OAuth server sent no access_token")
        }
        return Tokens(access: access, refresh: answer.refreshToken, expiresIn: answer.expiresIn ?? 3600)
    }

    func clientCredentials() async throws -> Tokens { try await token([("grant_type", "client_credentials")]) }

    func exchange(code: String, redirectURI: String) async throws -> Tokens {
        try await token([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)])
    }

    func refresh(_ refreshToken: String) async throws -> Tokens {
        try await token([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    /// `<auth_url>/oauth/userinfo`: the username.
    func username(access: String) async throws -> String? {
        let client = try UpstreamClient(
            plugin: "kos", configuration: .init(baseURL: authURL, auth: .bearer(token: { access }), timeout: context.httpTimeout), http: context.http,
            clock: context.clock)
        let info = JSONTreeDecoder.row(try await client.json(.GET, "/oauth/userinfo"), as: OAuthAnswer.UserInfo.self)
        return info?.username ?? info?.userName
    }
}
