import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// How a plugin's client proves who it is to its upstream. Secrets go in headers, never in URLs.
public enum UpstreamAuth: Sendable {
    case none
    case basic(user: String, password: String)
    /// `Authorization: Bearer <token>`. `refresh`, when given, runs once after a 401 and the
    /// request is repeated with the token `token()` then returns; a second 401 needs re-auth.
    case bearer(token: @Sendable () async throws -> String, refresh: (@Sendable () async throws -> Void)? = nil)
    /// A session cookie, `name=value`.
    case cookie(String)
    /// A named header, such as OctoPrint's `X-Api-Key`.
    case header(name: String, value: String)
}

/// Whether plain http is acceptable: the plugin's policy, per account. OctoPrint and CalDAV on a
/// LAN use http; study systems accept only https, or http to this machine (tests, tunnels).
public enum PlainHTTPPolicy: Sendable {
    case allowed
    case loopbackOnly
}

/// An answer, read whole (bounded).
public struct UpstreamResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: ByteBuffer

    public var json: JSONValue? { try? decodedJSON() }
    /// The body as JSON, nil when empty; the failure says why it cannot be read (nesting deeper
    /// than the parser's limit, invalid UTF-8, …) for an error naming the server.
    public func decodedJSON() throws(JSONParseError) -> JSONValue? {
        body.readableBytes == 0 ? nil : try JSONValue.parse(bytes: body.readableBytesView)
    }
    public var text: String { String(buffer: body) }
}

/// The HTTP client every plugin that talks to a remote service uses: one base URL and account,
/// its auth, its CA file, bounded answers, the host's timeout, retries with backoff on the host
/// clock for idempotent requests only, and errors mapped from AsyncHTTPClient's and NIO's error
/// types to the host's codes:
///
/// - refused or unreachable → -32004, naming the plugin, the account and the origin;
/// - a timeout → -32005;
/// - 401 → the auth's refresh once, then -32003 with the command that fixes it;
/// - 5xx → -32004 after the retries (a read cache answers it from its last copy).
public struct UpstreamClient: Sendable {
    public struct Configuration: Sendable {
        public var baseURL: String
        public var auth: UpstreamAuth
        public var caFile: String?
        public var timeout: Duration
        public var maxResponseBytes: Int
        /// Extra attempts for idempotent requests after a fast failure (a refused or reset
        /// connection, a 502–504). A request that ran out of time is never repeated: a person
        /// waiting for a call waits at most its timeout, plus one retry of a fast failure; a
        /// background refresh tries again at its next run, with the scheduler's backoff.
        public var retries: Int
        public var retryDelay: Duration
        /// The share of each retry's delay added at random (`Backoff.jitter`).
        public var retryJitter: Double
        public var plainHTTP: PlainHTTPPolicy
        /// The command a person runs when the credentials are refused (`stag.login account=zcu`).
        public var reauthCommand: String?
        public var headers: HTTPHeaders

        public init(
            baseURL: String, auth: UpstreamAuth = .none, caFile: String? = nil, timeout: Duration = .seconds(30),
            maxResponseBytes: Int = 16 << 20, retries: Int = 1, retryDelay: Duration = .milliseconds(500), retryJitter: Double = 0.2,
            plainHTTP: PlainHTTPPolicy = .loopbackOnly, reauthCommand: String? = nil, headers: HTTPHeaders = [:]
        ) {
            self.retryJitter = retryJitter
            self.baseURL = baseURL
            self.auth = auth
            self.caFile = caFile
            self.timeout = timeout
            self.maxResponseBytes = maxResponseBytes
            self.retries = retries
            self.retryDelay = retryDelay
            self.plainHTTP = plainHTTP
            self.reauthCommand = reauthCommand
            self.headers = headers
        }
    }

    public let plugin: String
    public let account: String?
    public let configuration: Configuration
    let http: HTTPClient
    let clock: any HostClock
    /// Told when the upstream refused the credentials for good (the account then needs re-auth).
    let onReauthNeeded: @Sendable (String) async -> Void

    /// The process-wide client the kit's upstreams share. AsyncHTTPClient's own retrying of failed
    /// connection attempts is off: it would hold a refused connection until the request's deadline,
    /// while this client retries idempotent requests itself, with backoff on the host clock, and a
    /// refresh coordinator backs off between polls.
    public static let sharedHTTP: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        // Redirects are followed by `send`, within the account's origin only: credentials never
        // follow a redirect to another server, and nothing is fetched from a `file:` URL.
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public init(
        plugin: String, account: String? = nil, configuration: Configuration, http: HTTPClient = UpstreamClient.sharedHTTP,
        clock: any HostClock,
        onReauthNeeded: @escaping @Sendable (String) async -> Void = { _ in }
    ) throws(RPCError) {
        try Self.checkBaseURL(configuration.baseURL, policy: configuration.plainHTTP, param: "url")
        self.plugin = plugin
        self.account = account
        self.configuration = configuration
        self.http = http
        self.clock = clock
        self.onReauthNeeded = onReauthNeeded
    }

    /// Checks an address a person gave (a setup command's parameter) against the policy.
    public static func checkBaseURL(_ text: String, policy: PlainHTTPPolicy, param: String) throws(RPCError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw RPCError.invalidParam(param, "'\(text)' is not an http(s) address such as https://example.org")
        }
        guard url.user == nil, url.password == nil, url.query == nil else {
            throw RPCError.invalidParam(param, "must not carry credentials or a query (credentials go in the vault)")
        }
        switch scheme {
        case "https": return
        case "http":
            if policy == .allowed || isLoopback(host) { return }
            throw RPCError.invalidParam(param, "must use https (plain http is accepted only for this machine, 127.0.0.1 or localhost)")
        default:
            throw RPCError.invalidParam(param, "must start with https:// (got \(scheme)://)")
        }
    }

    /// Whether `host` is this machine: an IPv4 address in 127.0.0.0/8, `::1` (or 127/8 mapped
    /// into IPv6), or the name `localhost`. Any other name is not, whatever it starts with
    /// (`127.evil.example` is a name a remote DNS answers for).
    static func isLoopback(_ host: String) -> Bool {
        let h = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if h == "localhost" || h == "localhost." { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, h, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, h, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes == Array(repeating: 0, count: 15) + [1] { return true }
        // ::ffff:127.x.y.z
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// The base URL's origin, for messages (no path, no query, never a secret).
    public var origin: String {
        guard let url = URL(string: configuration.baseURL), let scheme = url.scheme, let host = url.host else { return configuration.baseURL }
        return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    // MARK: Requests

    public func get(_ path: String, query: [(String, String)] = [], headers: HTTPHeaders = [:]) async throws -> UpstreamResponse {
        try await send(.GET, path, query: query, headers: headers)
    }

    /// Sends a request and reads the answer. Non-2xx answers are returned, except 401 (re-auth),
    /// and 502–504 after the retries (-32004); the caller maps the rest to its own meanings.
    public func send(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], headers: HTTPHeaders = [:], body: ByteBuffer? = nil
    ) async throws -> UpstreamResponse {
        let idempotent = [.GET, .HEAD, .PUT, .DELETE, .OPTIONS].contains(method)
        // An upstream that just failed every attempt gets one attempt, not the retries and their
        // backoff: a read then falls back to its cached copy at once instead of after seconds.
        let retries = UpstreamHealth.isDown(healthKey, now: clock.now) ? 0 : configuration.retries
        var refreshed = false
        var attempt = 0
        var (method, path, query, body) = (method, path, query, body)
        var redirects = 0
        while true {
            try Task.checkCancellation()
            let request = try await self.request(method, path, query: query, headers: headers, body: body)
            let outcome: Result<UpstreamResponse, RPCError>
            do {
                outcome = .success(try await execute(request))
            } catch let error as RPCError {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let response) where response.status == 401:
                if !refreshed, case .bearer(_, let refresh?) = configuration.auth {
                    refreshed = true
                    do { try await refresh() } catch let error as RPCError where error.code != RPCErrorCode.needsReauth {
                        throw error
                    } catch {
                        throw await needsReauth("the token could not be refreshed (\(error))")
                    }
                    continue
                }
                throw await needsReauth("\(origin) answered 401 (the credentials were refused)")
            case .success(let response) where (502...504).contains(response.status):
                if idempotent, attempt < retries {
                    attempt += 1
                    try await clock.sleep(retryBackoff, afterFailures: attempt)
                    continue
                }
                UpstreamHealth.failed(healthKey, now: clock.now)
                throw unreachable(
                    "answered \(response.status) \(HTTPResponseStatus(statusCode: response.status).reasonPhrase)"
                        + (attempt > 0 ? Self.attempts(attempt + 1) : ""),
                    status: response.status)
            case .success(let response) where Self.redirectStatuses.contains(response.status) && response.headers.first(name: "Location") != nil:
                UpstreamHealth.answered(healthKey)
                redirects += 1
                let target = try redirectTarget(response, from: request.url, count: redirects)
                (path, query) = (target, [])
                if response.status == 303 || (response.status != 307 && response.status != 308 && method == .POST) {
                    (method, body) = (.GET, nil)
                }
            case .success(let response):
                UpstreamHealth.answered(healthKey)
                return response
            case .failure(let error) where idempotent && attempt < retries && error.code == RPCErrorCode.upstreamUnreachable:
                attempt += 1
                try await clock.sleep(retryBackoff, afterFailures: attempt)
            case .failure(let error):
                guard error.code == RPCErrorCode.upstreamUnreachable || error.code == RPCErrorCode.timeout else { throw error }
                UpstreamHealth.failed(healthKey, now: clock.now)
                // The message says how often it was tried where that is news: after retries, or
                // after a timeout (which is never repeated).
                guard attempt > 0 || error.code == RPCErrorCode.timeout else { throw error }
                throw RPCError(code: error.code, message: error.message + Self.attempts(attempt + 1), data: error.data)
            }
        }
    }

    /// " (1 attempt)", " (2 attempts)": how often a failed request was sent.
    static func attempts(_ count: Int) -> String { " (\(count) attempt\(count == 1 ? "" : "s"))" }

    var retryBackoff: Backoff {
        Backoff(base: configuration.retryDelay.timeInterval, maximum: configuration.retryDelay.timeInterval * 8, jitter: configuration.retryJitter)
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    static let maxRedirects = 5

    /// Where a redirect leads, as a path and query on this client's origin; -32004 naming the
    /// target's origin (never its path or query) when it leads elsewhere or loops.
    func redirectTarget(_ response: UpstreamResponse, from url: String, count: Int) throws(RPCError) -> String {
        let location = response.headers.first(name: "Location") ?? ""
        guard count <= Self.maxRedirects else {
            throw unreachable("redirected more than \(Self.maxRedirects) times (a redirect loop?); the last redirect was not followed")
        }
        guard let target = URL(string: location, relativeTo: URL(string: url))?.absoluteURL, let scheme = target.scheme?.lowercased() else {
            throw unreachable("answered \(response.status) with a Location that is not an address; it was not followed")
        }
        let components = URLComponents(url: target, resolvingAgainstBaseURL: true)
        let targetOrigin = "\(scheme)://\(target.host ?? "")\(target.port.map { ":\($0)" } ?? "")"
        guard scheme == "http" || scheme == "https", targetOrigin.lowercased() == origin.lowercased(), let found = components else {
            let shown = scheme == "http" || scheme == "https" ? targetOrigin : "a \(scheme): address"
            throw unreachable(
                "redirected to \(shown), which is not followed: only redirects within \(origin) are (set the address to where it now is)")
        }
        // The base URL's own path is added back by `request`.
        var basePath = URL(string: configuration.baseURL)?.path ?? ""
        while basePath.hasSuffix("/") { basePath.removeLast() }
        var path = found.percentEncodedPath
        if !basePath.isEmpty {
            guard path.hasPrefix(basePath + "/") || path == basePath else {
                throw unreachable("redirected outside \(configuration.baseURL), which is not followed")
            }
            path = String(path.dropFirst(basePath.count))
        }
        return path + (found.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// A JSON answer; non-2xx becomes -32004 with the status (plugins with their own meanings
    /// for statuses use `send`).
    public func json(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: JSONValue? = nil
    ) async throws -> JSONValue {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "application/json")
        var bytes: ByteBuffer?
        if let body {
            headers.add(name: "Content-Type", value: "application/json")
            bytes = ByteBuffer(bytes: body.encodedBytes())
        }
        let response = try await send(method, path, query: query, headers: headers, body: bytes)
        guard (200..<300).contains(response.status) else {
            throw unreachable("answered \(response.status): \(response.text.prefix(200))", status: response.status)
        }
        if response.body.readableBytes == 0 { return .null }
        do { return try JSONValue.parse(bytes: response.body.readableBytesView) } catch { throw unreadable(path, UnreadableJSON(error)) }
    }

    /// A request to the upstream with the base URL, the auth, the configured headers and the CA
    /// applied, for a plugin that sends it itself (a streamed upload, a download, a status its
    /// contract gives its own meaning). An unreadable CA file is -32002 naming the account.
    public func request(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], headers: HTTPHeaders = [:], body: ByteBuffer? = nil
    ) async throws -> HTTPClientRequest {
        var base = configuration.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        var url = base + (path.isEmpty || path.hasPrefix("/") ? path : "/" + path)
        if !query.isEmpty {
            var components = URLComponents()
            components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
            // '+' is a space to most servers; send it encoded.
            url += "?" + (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        }
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers = configuration.headers
        request.headers.add(contentsOf: headers)
        switch configuration.auth {
        case .none: break
        case .basic(let user, let password):
            request.headers.replaceOrAdd(name: "Authorization", value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        case .bearer(let token, _):
            request.headers.replaceOrAdd(name: "Authorization", value: "Bearer " + (try await token()))
        case .cookie(let cookie):
            request.headers.add(name: "Cookie", value: cookie)
        case .header(let name, let value):
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let caFile = configuration.caFile {
            if let problem = SafeFile.problem(reading: caFile) {
                throw RPCError(
                    code: RPCErrorCode.pluginNotReady, message: "\(subject) cannot be used: its CA file \(problem)",
                    data: errorData(["state": "failed", "detail": .string("CA file \(problem)")]))
            }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(caFile)
            request.tlsConfiguration = tls
        }
        if let body { request.body = .bytes(body) }
        return request
    }

    /// One exchange, its body included, within `timeout`: AsyncHTTPClient's own deadline ends
    /// with the head, so a server trickling its body a byte a second would otherwise hold the
    /// call until the host's limit for the whole command.
    func execute(_ request: HTTPClientRequest) async throws -> UpstreamResponse {
        do {
            return try await Self.exchange(request, http: http, timeout: configuration.timeout, maxBytes: configuration.maxResponseBytes)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw map(error)
        }
    }

    /// Sends `request` and reads its whole answer, at most `maxBytes`, all within `timeout`; for
    /// plugins that map statuses and failures themselves. Errors are AsyncHTTPClient's and NIO's
    /// (`HTTPClientError.deadlineExceeded` at the deadline), for `UpstreamFailure` to read.
    public static func exchange(_ request: HTTPClientRequest, http: HTTPClient, timeout: Duration, maxBytes: Int) async throws -> UpstreamResponse {
        try await withDeadline(timeout, timedOut: { HTTPClientError.deadlineExceeded }) {
            let response = try await http.execute(request, timeout: TimeAmount(timeout))
            let body = try await response.body.collect(upTo: maxBytes)
            return UpstreamResponse(status: Int(response.status.code), headers: response.headers, body: body)
        }
    }

    var healthKey: String { "\(plugin)|\(account ?? "")|\(origin)" }

    // MARK: Errors

    var subject: String { account.map { "Account '\($0)' of '\(plugin)'" } ?? "'\(plugin)'" }

    func errorData(_ extra: [String: JSONValue] = [:]) -> JSONValue {
        var data: [String: JSONValue] = ["plugin": .string(plugin), "url": .string(origin)]
        if let account { data["account"] = .string(account) }
        return .object(data.merging(extra) { $1 })
    }

    /// -32004 naming the plugin, the account and the origin (never a path or a query): for a
    /// plugin that reads a status itself (`send`) and finds the upstream failing. With a 5xx
    /// `status`, a cached read is answered from its last copy.
    public func unreachable(_ reason: String, status: Int? = nil) -> RPCError {
        RPCError(
            code: RPCErrorCode.upstreamUnreachable, message: "Upstream unreachable: \(origin) \(reason)",
            data: errorData(status.map { ["status": .int(Int64($0))] } ?? [:]))
    }

    /// -32004 for an answer that came but cannot be read (malformed, over a parser's limit),
    /// naming the origin and the path asked for (never the query, which may hold search terms).
    public func unreadable(_ path: String, _ why: some Error & CustomStringConvertible) -> RPCError {
        var path = path
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        return RPCError(
            code: RPCErrorCode.upstreamUnreachable, message: "Upstream answer unreadable: \(origin)\(path) \(why)",
            data: errorData(["reason": .string(why.description)]))
    }

    func needsReauth(_ reason: String) async -> RPCError {
        await onReauthNeeded(reason)
        let fix = configuration.reauthCommand ?? "assistantctl vault set \(plugin)/\(account.map { "\($0)/" } ?? "")…"
        var extra: [String: JSONValue] = ["reason": .string(reason), "fix": .string(fix)]
        extra["state"] = "needs_reauth"
        return RPCError(
            code: RPCErrorCode.needsReauth, message: "\(subject) needs re-authentication: \(reason); run: \(fix)", data: errorData(extra))
    }

    /// From the error types of AsyncHTTPClient, NIO and NIOSSL, never from their text.
    func map(_ error: any Error) -> RPCError {
        if error is RPCError || error is any PluginErrorCase { return RPCError(sending: error) }
        let failure = UpstreamFailure(error)
        switch failure.kind {
        case .timeout:
            return RPCError(
                code: RPCErrorCode.timeout, message: "\(origin) did not answer within \(Int(configuration.timeout.timeInterval)) s",
                data: errorData())
        case .tooLarge:
            return unreachable("answered more than \(configuration.maxResponseBytes) bytes")
        case .refused, .unreachable, .tls, .closed, .compressionBomb, .other:
            return unreachable(failure.reason)
        }
    }
}

/// A JSON answer that cannot be read, in an error's words ("is not JSON: nesting deeper than 512 at byte 513").
struct UnreadableJSON: Error, CustomStringConvertible {
    let failure: JSONParseError
    init(_ failure: JSONParseError) { self.failure = failure }
    var description: String { "is not JSON that can be read: \(failure)" }
}

/// What went wrong on the way to an upstream, read from the error's type (AsyncHTTPClient, NIO,
/// NIOSSL), never from its text. Plugins with their own transport use it for their messages.
public struct UpstreamFailure: Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case refused, unreachable, timeout, tls, closed, tooLarge, compressionBomb, other
    }

    public var kind: Kind
    /// Words for a person: "refused the connection", "did not answer in time", …
    public var reason: String

    public var description: String { reason }

    public init(_ error: any Error) {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                self.init(.timeout, "did not answer in time")
            case .remoteConnectionClosed:
                self.init(.closed, "closed the connection before answering")
            default:
                self.init(.other, "failed: \(error)")
            }
        case HTTPParserError.invalidEOFState:
            self.init(.closed, "closed the connection before the whole answer came")
        case is HTTPParserError:
            self.init(.other, "answered something that is not valid HTTP (\(error))")
        case is NIOTooManyBytesError:
            self.init(.tooLarge, "answered more than the limit")
        case NIOHTTPDecompression.DecompressionError.limit:
            self.init(.compressionBomb, "answered a compressed body that inflates more than 25 times its size")
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first {
                self.init(first.error)
            } else if error.dnsAError != nil || error.dnsAAAAError != nil {
                self.init(.unreachable, "cannot be resolved (DNS)")
            } else {
                self.init(.unreachable, "cannot be connected to")
            }
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: self.init(.refused, "refused the connection")
            case EHOSTUNREACH, ENETUNREACH: self.init(.unreachable, "cannot be reached (no route)")
            case ETIMEDOUT: self.init(.timeout, "did not answer in time")
            case ECONNRESET, EPIPE: self.init(.closed, "closed the connection")
            default: self.init(.other, "failed: \(String(cString: strerror(error.errnoCode)))")
            }
        case let error as ChannelError:
            if case .connectTimeout = error {
                self.init(.timeout, "did not accept a connection in time")
            } else {
                self.init(.other, "failed: \(error)")
            }
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            self.init(.tls, "failed the TLS handshake (\(error)); is the CA file right?")
        default:
            self.init(.other, "failed: \(error)")
        }
    }

    init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
}

/// Which upstreams failed their last request after every retry (Home Assistant's coordinator
/// marks an integration unavailable the same way): for `downFor` after such a failure, requests
/// to the same plugin, account and origin make one attempt. Any answer clears it.
enum UpstreamHealth {
    static let downFor: TimeInterval = 30
    private static let failures = NIOLockedValueBox<[String: Date]>([:])

    static func isDown(_ key: String, now: Date) -> Bool {
        failures.withLockedValue { map in
            guard let at = map[key] else { return false }
            if now.timeIntervalSince(at) < downFor { return true }
            map[key] = nil
            return false
        }
    }

    static func failed(_ key: String, now: Date) { failures.withLockedValue { $0[key] = now } }

    static func answered(_ key: String) { failures.withLockedValue { _ = $0.removeValue(forKey: key) } }
}
