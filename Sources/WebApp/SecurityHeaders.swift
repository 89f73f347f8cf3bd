import HTTPTypes
import HostCore
import Hummingbird

/// The headers every answer carries: a strict CSP (no inline script; the one inline style by its
/// hash), no framing, no referrer, and the rest of what Mozilla's Observatory grades A+.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = WebContext
    let headers: HTTPFields

    /// `https`: the app is reached over HTTPS (its own TLS, or a proxy's), so HSTS is sent.
    init(https: Bool, styleHash: String) {
        var headers: HTTPFields = [
            .contentSecurityPolicy:
                "default-src 'none'; script-src 'self'; style-src 'sha256-\(styleHash)'; img-src 'self' data:; connect-src 'self'; "
                + "manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("X-Frame-Options")!: "DENY",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("Cross-Origin-Opener-Policy")!: "same-origin",
            HTTPField.Name("Cross-Origin-Resource-Policy")!: "same-origin",
            HTTPField.Name("Permissions-Policy")!: "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
            .cacheControl: "no-store",
        ]
        if https { headers[HTTPField.Name("Strict-Transport-Security")!] = "max-age=63072000" }
        self.headers = headers
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // An error answered by the framework (a body too long, no route) gets the headers too.
            response = try error.response(from: request, context: context)
        } catch {
            // Anything else (the daemon draining, a store that failed) is a plain 500 with the
            // headers, its words only in the log: a page never shows an internal error's text.
            context.logger.error("web request failed", metadata: ["path": "\(request.uri.path)", "error": "\(ErrorText.sentence(error))"])
            response = Response(
                status: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "The assistant could not answer; try again.")))
        }
        for field in headers where response.headers[field.name] == nil { response.headers.append(field) }
        return response
    }
}
