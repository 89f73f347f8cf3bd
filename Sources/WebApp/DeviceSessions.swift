import Crypto
import Foundation
import HTTPTypes
import HostCore
import Hummingbird

/// Nothing is served to a device that is not paired: the session cookie names a paired device,
/// or the answer is the "not paired" page (401). A request that changes state must come from a
/// page of this app (`Origin`); its form's CSRF token is checked where the form is read.
struct DeviceSessions: RouterMiddleware {
    typealias Context = WebContext
    static let cookieName = "assistant_session"
    static let languageCookie = "assistant_language"

    let devices: WebDevices
    let pages: Pages
    let settings: WebSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.language =
            request.cookies[Self.languageCookie].flatMap { Language(rawValue: $0.value) }
            ?? Language.preferred(request.headers[.acceptLanguage])
        if request.method == .post, !Self.sameOrigin(request, settings) {
            return pages.message(.forbidden, "error.heading", "error.forbidden", context)
        }
        let path = request.uri.path
        if path == "/pair" || path.hasPrefix("/pair/") { return try await next(request, context) }
        guard let token = request.cookies[Self.cookieName]?.value, let (device, renew) = try await devices.device(session: token) else {
            return pages.message(.unauthorized, "unpaired.heading", "unpaired.text", context)
        }
        context.device = device
        context.session = token
        var response = try await next(request, context)
        if renew { response.setCookie(Self.sessionCookie(token, secure: settings.reachedOverHTTPS)) }
        return response
    }

    /// `HttpOnly`, `SameSite=Strict`, `Secure` under TLS; 30 days from the last visit.
    static func sessionCookie(_ token: String, secure: Bool) -> Cookie {
        Cookie(
            name: cookieName, value: token, maxAge: Int(WebDevices.sessionLifetime), path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The request's `Origin` is one this app is served from (the listen address, `public_url`),
    /// never merely the `Host` the request names, which a rebinding page controls. A browser sends
    /// `Origin` with every form it posts; a request without one did not come from a page of this app.
    ///
    /// Under this app's `Referrer-Policy: no-referrer` a browser posts a form with `Origin: null`
    /// (the Fetch standard's "serializing a request origin"). Such a post is taken only when the
    /// browser itself says it came from the same origin (`Sec-Fetch-Site`, which no page can set)
    /// and it was sent to a host this app is served from, which a rebinding name is not.
    static func sameOrigin(_ request: Request, _ settings: WebSettings) -> Bool {
        guard let origin = request.headers[.origin]?.lowercased() else { return false }
        let origins = settings.origins
        if origin != "null" { return origins.contains(origin) }
        guard let site = request.headers[secFetchSite], site.lowercased() == "same-origin",
            let host = (request.headers[Self.hostField] ?? request.head.authority)?.lowercased()
        else { return false }
        return origins.contains { $0.hasSuffix("://" + host) }
    }

    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    /// The host a request was sent to: HTTP/1.1's `Host`, which NIO moves into the authority; a
    /// request built in a test's router carries it as a field.
    static let hostField = HTTPField.Name("Host")!

    /// What a form of this session carries: derived from the session token, so nothing is stored,
    /// and useless to a page that cannot read the cookie.
    static func csrfToken(session: String) -> String { Base64URL.encode(Data(csrfCode(session))) }

    static func csrfCode(_ session: String) -> HashedAuthenticationCode<SHA256> {
        HMAC<SHA256>.authenticationCode(for: Data("csrf".utf8), using: SymmetricKey(data: Data(session.utf8)))
    }

    static func csrfMatches(_ given: String?, session: String) -> Bool {
        guard let given, let bytes = Base64URL.decode(given) else { return false }
        let expected = csrfCode(session)
        // The authentication code's own comparison is constant-time.
        return expected == bytes
    }
}
