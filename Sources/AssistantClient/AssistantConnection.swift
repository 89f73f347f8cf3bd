@_exported import AssistantRPC
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix

public enum ClientError: Error, CustomStringConvertible, Equatable {
    /// Nothing answers at the socket path.
    case unreachable(path: String, reason: String)
    /// The daemon closed the connection before replying.
    case disconnected
    case malformedReply(String)

    public var description: String {
        switch self {
        case .unreachable(let path, let reason): "cannot reach assistantd at \(path): \(reason)"
        case .disconnected: "assistantd closed the connection before replying"
        case .malformedReply(let text): "assistantd sent a reply that is not JSON-RPC: \(text)"
        }
    }
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
        var pending: [Int64: CheckedContinuation<Result<JSONValue, RPCError>, any Error>] = [:]
        var closed = false
        /// An error the daemon sent with `id: null` (peer refused, request too large).
        var unsolicitedError: RPCError?
    }

    init(channel: any Channel, state: NIOLockedValueBox<ClientState>, notifications: AsyncStream<ServerNotification>) {
        self.channel = channel
        self.state = state
        self.notifications = notifications
    }

    public static func connect(
        socketPath: String, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, maxReplyBytes: Int = 256 << 20
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
            return AssistantConnection(channel: channel, state: state, notifications: stream)
        } catch {
            continuation.finish()
            throw ClientError.unreachable(path: socketPath, reason: Self.describe(error))
        }
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
        return try await withCheckedThrowingContinuation { continuation in
            let closed = state.withLockedValue { s -> (Bool, RPCError?) in
                if s.closed { return (true, s.unsolicitedError) }
                s.pending[id] = continuation
                return (false, nil)
            }
            if closed.0 {
                if let error = closed.1 {
                    continuation.resume(returning: .failure(error))
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
    }

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

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let message = try? JSONValue.decode(Data(buffer.readableBytesView)), case .object(let object) = message else { return }
        if let method = object["method"]?.stringValue, object["id"] == nil {
            notifications.yield(ServerNotification(method: method, params: object["params"] ?? .null))
            return
        }
        let outcome: Result<JSONValue, RPCError>
        if let error = object["error"].flatMap(RPCError.init(json:)) {
            outcome = .failure(error)
        } else {
            outcome = .success(object["result"] ?? .null)
        }
        guard case .int(let id)? = object["id"] else {
            // An error with id null (peer refused, request too large): it answers everyone waiting.
            if case .failure(let error) = outcome {
                let waiting = state.withLockedValue { s -> [CheckedContinuation<Result<JSONValue, RPCError>, any Error>] in
                    s.unsolicitedError = error
                    defer { s.pending = [:] }
                    return Array(s.pending.values)
                }
                waiting.forEach { $0.resume(returning: outcome) }
            }
            return
        }
        let continuation = state.withLockedValue { $0.pending.removeValue(forKey: id) }
        continuation?.resume(returning: outcome)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let waiting = state.withLockedValue { s -> [CheckedContinuation<Result<JSONValue, RPCError>, any Error>] in
            s.closed = true
            defer { s.pending = [:] }
            return Array(s.pending.values)
        }
        let error = state.withLockedValue { $0.unsolicitedError }
        waiting.forEach { c in
            if let error { c.resume(returning: .failure(error)) } else { c.resume(throwing: ClientError.disconnected) }
        }
        notifications.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
