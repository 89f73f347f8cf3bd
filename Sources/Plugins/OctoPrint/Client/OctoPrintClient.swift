import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import PluginKit

/// What a 409 means for the request that got it.
enum ConflictMeaning: Sendable { case printerNotOperational, fileInUse, other }

/// One printer's REST API: `X-Api-Key`, optional HTTP basic auth in front of OctoPrint, optional
/// private CA, every status mapped to a clear error.
struct OctoPrintClient: Sendable {
    let printer: Printer
    let apiKey: String?
    let basicPassword: String?
    let http: HTTPClient
    let timeout: Duration

    struct Response: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer
        var json: JSONValue? {
            guard body.readableBytes > 0 else { return nil }
            return try? JSONValue.decode(bytes: body.readableBytesView)
        }
        var errorText: String {
            if let message = json?["error"]?.stringValue { return message }
            let text = String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? HTTPResponseStatus(statusCode: status).reasonPhrase : String(text.prefix(300))
        }
    }

    /// The kit's client for this printer: its address, basic auth in front of OctoPrint, its CA.
    /// OctoPrint gives 401, 403 and 409 meanings of their own, so this client only builds the
    /// requests; `send` and `check` map the answers.
    var upstream: UpstreamClient {
        get throws {
            let auth: UpstreamAuth = printer.basicUser.flatMap { user in basicPassword.map { .basic(user: user, password: $0) } } ?? .none
            return try UpstreamClient(
                plugin: "octoprint", account: printer.name,
                configuration: .init(baseURL: printer.url, auth: auth, caFile: printer.caFile, timeout: timeout, plainHTTP: .allowed),
                http: http, clock: SystemClock())
        }
    }

    func makeRequest(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [], withKey: Bool = true) async throws -> HTTPClientRequest {
        var headers = HTTPHeaders()
        if withKey, let apiKey { headers.add(name: "X-Api-Key", value: apiKey) }
        return try await upstream.request(method, path, query: query, headers: headers)
    }

    /// Sends, reads the whole answer (bounded), and maps transport failures.
    func send(_ request: HTTPClientRequest, limit: Int = 64 << 20, timeout: Duration? = nil) async throws -> Response {
        do {
            let answer = try await UpstreamClient.exchange(request, http: http, timeout: timeout ?? self.timeout, maxBytes: limit)
            return Response(status: answer.status, headers: answer.headers, body: answer.body)
        } catch let error where error is RPCError || error is CancellationError {
            throw error
        } catch {
            throw OctoPrintError.unreachable(printer.name, printer.url, Self.describe(error))
        }
    }

    /// Why a request failed, from the error's type (the kit's `UpstreamFailure`), in the words the
    /// plugin's messages have always used.
    static func describe(_ error: any Error) -> String {
        let failure = UpstreamFailure(error)
        switch failure.kind {
        case .timeout: return "timed out"
        case .refused: return "connection refused"
        case .tls: return "TLS failed (\(String(describing: error).prefix(160)))"
        default: return String(failure.reason.prefix(200))
        }
    }

    /// A JSON call whose non-2xx answers become errors.
    func call(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: JSONValue? = nil, conflict: ConflictMeaning = .other,
        notFound: OctoPrintError? = nil
    ) async throws -> Response {
        var request = try await makeRequest(method, path, query: query)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body.encodedBytes()))
        }
        let response = try await send(request)
        try check(response, conflict: conflict, notFound: notFound)
        return response
    }

    /// Maps an answer to an error. `notFound` replaces the generic 404 where the command knows
    /// what was missing (a slicer, rather than "the requested URL").
    func check(_ response: Response, conflict: ConflictMeaning, notFound: OctoPrintError? = nil) throws {
        switch response.status {
        case 200..<300: return
        case 401, 403: throw OctoPrintError.keyRefused(printer.name)
        case 404:
            if let notFound { throw notFound }
            throw RPCError.notFound("OctoPrint at '\(printer.name)': \(response.errorText)")
        case 409:
            switch conflict {
            case .printerNotOperational: throw OctoPrintError.notOperational(printer.name)
            case .fileInUse: throw OctoPrintError.fileInUse(response.errorText)
            case .other: throw OctoPrintError.refused(409, response.errorText)
            }
        case 415: throw OctoPrintError.wrongFileType(response.errorText)
        default: throw OctoPrintError.refused(response.status, response.errorText)
        }
    }

    /// The result as JSON: the body, or `{"ok": true}` for an empty 2xx (OctoPrint's 204s).
    static func result(_ response: Response) -> JSONValue {
        response.json ?? ["ok": true, "status": .int(Int64(response.status))]
    }
}
