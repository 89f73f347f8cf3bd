import AssistantRPC
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback HTTP server that records each request whole (method, path, headers, body) and
/// answers as `answer` says: the base of the fakes for services that cannot run here (ntfy) and
/// of webhook receivers. Tests wait for requests as events (`waitForRequests`), never by sleeping.
public final class RecordingHTTPServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        public var uri: String
        public var headers: [(String, String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Answer: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: String

        public init(_ status: Int, headers: [(String, String)] = [], body: String = "") {
            (self.status, self.headers, self.body) = (status, headers, body)
        }
    }

    let listener: LoopbackListener
    let recorded: NIOLockedValueBox<[Request]>
    let waiters: NIOLockedValueBox<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>
    public var url: String { "http://127.0.0.1:\(listener.port)" }
    public var port: Int { listener.port }
    public var requests: [Request] { recorded.withLockedValue { $0 } }

    /// `answer` is asked for each request, with how many came before it.
    public static func start(maxBody: Int = 32 << 20, answer: @escaping @Sendable (Request, Int) -> Answer) async throws -> RecordingHTTPServer {
        let recorded = NIOLockedValueBox<[Request]>([])
        let waiters = NIOLockedValueBox<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])
        let listener = try await LoopbackListener.bind { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                try channel.pipeline.syncOperations.addHandler(
                    Handler(maxBody: maxBody, answer: answer) { request in
                        let (index, ready) = recorded.withLockedValue { list -> (Int, [CheckedContinuation<Void, Never>]) in
                            list.append(request)
                            let count = list.count
                            let ready = waiters.withLockedValue { waiting -> [CheckedContinuation<Void, Never>] in
                                let done = waiting.filter { $0.count <= count }.map(\.continuation)
                                waiting.removeAll { $0.count <= count }
                                return done
                            }
                            return (count - 1, ready)
                        }
                        for continuation in ready { continuation.resume() }
                        return index
                    })
            }
        }
        return RecordingHTTPServer(listener: listener, recorded: recorded, waiters: waiters)
    }

    init(
        listener: LoopbackListener, recorded: NIOLockedValueBox<[Request]>,
        waiters: NIOLockedValueBox<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>
    ) {
        (self.listener, self.recorded, self.waiters) = (listener, recorded, waiters)
    }

    /// Returns once `count` requests have come (bounded by `timeout`).
    public func waitForRequests(_ count: Int, timeout: Double = 30) async throws {
        let recorded = self.recorded
        let waiters = self.waiters
        try await withDeadline(timeout, "\(count) requests to \(url)") {
            await withCheckedContinuation { continuation in
                let enough = recorded.withLockedValue { list in
                    if list.count >= count { return true }
                    waiters.withLockedValue { $0.append((count, continuation)) }
                    return false
                }
                if enough { continuation.resume() }
            }
        }
    }

    public func stop() async { await listener.stop() }

    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let maxBody: Int
        let answer: @Sendable (Request, Int) -> Answer
        let record: @Sendable (Request) -> Int
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(maxBody: Int, answer: @escaping @Sendable (Request, Int) -> Answer, record: @escaping @Sendable (Request) -> Int) {
            (self.maxBody, self.answer, self.record) = (maxBody, answer, record)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = []
            case .body(var buffer):
                if body.count < maxBody { body += buffer.readBytes(length: min(buffer.readableBytes, maxBody - body.count)) ?? [] }
            case .end:
                guard let head else { return }
                let request = Request(method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body)
                let index = record(request)
                let reply = answer(request, index)
                var headers = HTTPHeaders(reply.headers)
                headers.add(name: "Content-Length", value: String(reply.body.utf8.count))
                context.write(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .init(statusCode: reply.status), headers: headers))),
                    promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: reply.body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

/// A fake of an ntfy server's publishing API (docs.ntfy.sh/publish), since ntfy (one Go binary)
/// is not in this machine's registries: `POST /<topic>` with the message as the body, or `PUT`
/// with a file as the body, `Filename` and the message in `Message`; `Authorization: Bearer`
/// checked when the fake has a token (401 otherwise, as ntfy answers); attachments over
/// `attachmentLimit` refused with 413; `rateLimited` first requests answered 429 with
/// `Retry-After`; a topic over 64 characters or with other characters 400. Each accepted message
/// is answered with ntfy's JSON (id, time, event "message", topic, message).
public enum NtfyFake {
    public static func start(
        token: String? = nil, attachmentLimit: Int = 1 << 20, rateLimited: Int = 0, retryAfter: Int = 1, failing: Int = 0
    ) async throws -> RecordingHTTPServer {
        try await RecordingHTTPServer.start { request, index in
            let topic = String(request.uri.dropFirst().prefix { $0 != "?" })
            guard (1...64).contains(topic.count), topic.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                return .init(400, body: #"{"code":40009,"http":400,"error":"invalid topic"}"#)
            }
            if index < failing { return .init(502, body: "Bad Gateway") }
            if index < failing + rateLimited {
                return .init(429, headers: [("Retry-After", String(retryAfter))], body: #"{"code":42901,"http":429,"error":"limit reached"}"#)
            }
            if let token, request.header("Authorization") != "Bearer \(token)" {
                return .init(401, body: #"{"code":40101,"http":401,"error":"unauthorized"}"#)
            }
            let isFile = request.method == "PUT" && request.header("Filename") != nil
            if isFile && request.body.count > attachmentLimit {
                return .init(413, body: #"{"code":41301,"http":413,"error":"attachment too large"}"#)
            }
            let message = isFile ? (request.header("Message") ?? "") : request.text
            let json = JSONValue.object([
                "id": .string("msg\(index)"), "time": .int(Int64(Date().timeIntervalSince1970)), "event": "message", "topic": .string(topic),
                "message": .string(message),
            ])
            return .init(200, headers: [("Content-Type", "application/json")], body: json.encodedString())
        }
    }
}
