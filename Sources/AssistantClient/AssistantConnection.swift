@_exported import AssistantRPC
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix

public enum ClientError: LocalizedError, CustomStringConvertible, Equatable {
    /// Nothing answers at the socket path.
    case unreachable(path: String, reason: String)
    /// The daemon closed the connection before replying.
    case disconnected
    case malformedReply(String)
    /// The socket's server runs as another user (nil: its credentials could not be read).
    case untrustedServer(path: String, uid: uid_t?)

    public var description: String {
        switch self {
        case .untrustedServer(let path, let uid?):
            "the server at \(path) runs as uid \(uid), neither you (uid \(getuid())) nor root: nothing was sent to it"
        case .untrustedServer(let path, nil): "the server at \(path) could not show who it runs as: nothing was sent to it"
        case .unreachable(let path, let reason): "cannot reach assistantd at \(path): \(reason)"
        case .disconnected: "assistantd closed the connection before replying"
        case .malformedReply(let text): "assistantd sent a reply that is not JSON-RPC: \(text)"
        }
    }

    /// What Foundation's `localizedDescription` shows ("error 2" otherwise).
    public var errorDescription: String? { description }
}

/// A server-to-client notification (`notice`, `progress`).
public struct ServerNotification: Sendable {
    public var method: String
    public var params: JSONValue
}

/// A connection to the daemon's socket: concurrent calls matched to replies by id, and a stream
/// of the notifications the daemon pushes.
public final class AssistantConnection: Sendable {
    let channel: any Channel
    let state: NIOLockedValueBox<ClientState>
    public let notifications: AsyncStream<ServerNotification>

    struct ClientState {
        var nextID: Int64 = 0
        var pending: [Int64: CheckedContinuation<Answer, any Error>] = [:]
        var closed = false
        /// An error the daemon sent with `id: null` (peer refused, request too large).
        var unsolicitedError: RPCError?
    }

    /// A reply as the event loop hands it over: parsed, or (a large one) its line, which the
    /// caller's task parses. Parsing a reply of megabytes on the event loop held up every other
    /// channel on that loop for as long (a test's TLS handshake timed out behind one).
    enum Answer: Sendable {
        case outcome(Result<JSONValue, RPCError>)
        case line(ByteBuffer)
    }

    init(channel: any Channel, state: NIOLockedValueBox<ClientState>, notifications: AsyncStream<ServerNotification>) {
        self.channel = channel
        self.state = state
        self.notifications = notifications
    }

    /// `serverUIDs`: when given, the users the daemon on the other end may run as (read from the
    /// socket's `SO_PEERCRED` before anything is sent); another's is refused with
    /// `ClientError.untrustedServer`, so no request, and no secret, ever reaches it.
    public static func connect(
        socketPath: String, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, maxReplyBytes: Int = 256 << 20,
        serverUIDs: Set<uid_t>? = nil
    ) async throws -> AssistantConnection {
        let state = NIOLockedValueBox(ClientState())
        let (stream, continuation) = AsyncStream<ServerNotification>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        do {
            let channel = try await ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: maxReplyBytes))
                        try channel.pipeline.syncOperations.addHandler(ReplyHandler(state: state, notifications: continuation))
                    }
                }
                .connect(unixDomainSocketPath: socketPath).get()
            if let serverUIDs {
                let uid = try? await peerUID(channel)
                guard let uid, serverUIDs.contains(uid) else {
                    try? await channel.close()
                    continuation.finish()
                    throw ClientError.untrustedServer(path: socketPath, uid: uid)
                }
            }
            return AssistantConnection(channel: channel, state: state, notifications: stream)
        } catch let error as ClientError {
            continuation.finish()
            throw error
        } catch {
            continuation.finish()
            throw ClientError.unreachable(path: socketPath, reason: Self.describe(error))
        }
    }

    /// `struct ucred` as `SO_PEERCRED` fills it.
    private struct PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// The uid of the process on the other end of a Unix socket.
    static func peerUID(_ channel: any Channel) async throws -> uid_t? {
        #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider else { return nil }
            let credentials: PeerCredentials = try await provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
            ).get()
            return credentials.uid
        #else
            return nil
        #endif
    }

    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError {
            switch io.errnoCode {
            case ENOENT: return "no socket file (is assistantd running?)"
            case ECONNREFUSED: return "connection refused (stale socket: assistantd is not running)"
            case EACCES: return "permission denied"
            default: return io.description
            }
        }
        return String(describing: error)
    }

    /// Calls a method; returns its result or throws the daemon's `RPCError`.
    public func call(_ method: String, params: JSONValue? = nil) async throws -> JSONValue {
        try await callResult(method, params: params).get()
    }

    /// Whether the daemon has closed this connection (a line over its limit, a restart).
    public var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Calls a method and returns the result or the error reply without throwing on the latter.
    public func callResult(_ method: String, params: JSONValue? = nil) async throws -> Result<JSONValue, RPCError> {
        let id = state.withLockedValue { s -> Int64 in
            s.nextID += 1
            return s.nextID
        }
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        if let params { request["params"] = params }
        let data = JSONValue.object(request).encoded()
        let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
            let closed = state.withLockedValue { s -> (Bool, RPCError?) in
                if s.closed { return (true, s.unsolicitedError) }
                s.pending[id] = continuation
                return (false, nil)
            }
            if closed.0 {
                if let error = closed.1 {
                    continuation.resume(returning: .outcome(.failure(error)))
                } else {
                    continuation.resume(throwing: ClientError.disconnected)
                }
                return
            }
            var buffer = channel.allocator.buffer(capacity: data.count + 1)
            buffer.writeBytes(data)
            buffer.writeInteger(UInt8(ascii: "\n"))
            channel.writeAndFlush(buffer, promise: nil)
        }
        switch answer {
        case .outcome(let outcome): return outcome
        case .line(let line):
            let object = try await Self.replyParsers.runIfActive { () throws -> [String: JSONValue] in
                guard let message = try? JSONValue.decode(Data(line.readableBytesView)), case .object(let object) = message else {
                    throw ClientError.malformedReply(String(decoding: line.readableBytesView.prefix(200), as: UTF8.self))
                }
                return object
            }
            return ReplyHandler.outcome(object)
        }
    }

    /// Where large replies are parsed: threads of their own, so that parsing megabytes holds up
    /// neither an event loop nor the few threads every task shares (a process that is a daemon
    /// and its clients at once, as the tests are, stalled its other work behind them). Lives as
    /// long as the process, as `NIOThreadPool.singleton` does.
    static let replyParsers: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    /// Sends a notification (no reply expected).
    public func notify(_ method: String, params: JSONValue? = nil) {
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { request["params"] = params }
        let data = JSONValue.object(request).encoded()
        var buffer = channel.allocator.buffer(capacity: data.count + 1)
        buffer.writeBytes(data)
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(buffer, promise: nil)
    }

    public func close() async {
        try? await channel.close()
    }

    /// Closes the connection without waiting (a cancellation handler cannot wait): the daemon
    /// cancels the calls in flight on it, and the waiting calls here end with `disconnected`.
    public func hangUp() {
        channel.close(promise: nil)
    }

    /// Completes when the daemon closes the connection.
    public func closed() async {
        try? await channel.closeFuture.get()
    }
}

final class ReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let state: NIOLockedValueBox<AssistantConnection.ClientState>
    let notifications: AsyncStream<ServerNotification>.Continuation

    init(state: NIOLockedValueBox<AssistantConnection.ClientState>, notifications: AsyncStream<ServerNotification>.Continuation) {
        self.state = state
        self.notifications = notifications
    }

    /// A reply longer than this is parsed by its caller, off the event loop.
    static let parsedOnTheLoop = 64 << 10

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if buffer.readableBytes > Self.parsedOnTheLoop, let id = Self.leadingID(buffer) {
            let continuation = state.withLockedValue { $0.pending.removeValue(forKey: id) }
            continuation?.resume(returning: .line(buffer))
            return
        }
        guard let message = try? JSONValue.decode(Data(buffer.readableBytesView)), case .object(let object) = message else { return }
        if let method = object["method"]?.stringValue, object["id"] == nil {
            notifications.yield(ServerNotification(method: method, params: object["params"] ?? .null))
            return
        }
        let outcome = Self.outcome(object)
        guard case .int(let id)? = object["id"] else {
            // An error with id null (peer refused, request too large): it answers everyone waiting.
            if case .failure(let error) = outcome {
                let waiting = state.withLockedValue { s -> [CheckedContinuation<AssistantConnection.Answer, any Error>] in
                    s.unsolicitedError = error
                    defer { s.pending = [:] }
                    return Array(s.pending.values)
                }
                waiting.forEach { $0.resume(returning: .outcome(outcome)) }
            }
            return
        }
        let continuation = state.withLockedValue { $0.pending.removeValue(forKey: id) }
        continuation?.resume(returning: .outcome(outcome))
    }

    /// A reply object's outcome: its error, or its result.
    static func outcome(_ object: [String: JSONValue]) -> Result<JSONValue, RPCError> {
        if let error = object["error"].flatMap(RPCError.init(json:)) { return .failure(error) }
        return .success(object["result"] ?? .null)
    }

    /// The id of a reply written as the daemon writes them (`{"id":N,…`), read without parsing
    /// the rest; nil for any other form (parsed whole, on the loop).
    static func leadingID(_ buffer: ByteBuffer) -> Int64? {
        let prefix = Array(#"{"id":"#.utf8)
        let view = buffer.readableBytesView
        guard view.starts(with: prefix) else { return nil }
        var id: Int64 = 0
        var digits = 0
        for byte in view.dropFirst(prefix.count).prefix(19) {
            guard (48...57).contains(byte) else { return digits > 0 && byte == UInt8(ascii: ",") ? id : nil }
            id = id * 10 + Int64(byte - 48)
            digits += 1
        }
        return nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        let waiting = state.withLockedValue { s -> [CheckedContinuation<AssistantConnection.Answer, any Error>] in
            s.closed = true
            defer { s.pending = [:] }
            return Array(s.pending.values)
        }
        let error = state.withLockedValue { $0.unsolicitedError }
        waiting.forEach { c in
            if let error { c.resume(returning: .outcome(.failure(error))) } else { c.resume(throwing: ClientError.disconnected) }
        }
        notifications.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
