import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A loopback websocket server that misbehaves, for a push client's tests (OctoPrint's
/// `/sockjs/websocket`): it never answers the upgrade, sends a message that never ends, or sends
/// JSON nested past any parser's limit before a good message and a close.
public final class HostileWebSocket: Sendable {
    public enum Behaviour: Sendable {
        /// Accepts the connection, reads the upgrade request, answers nothing.
        case silent
        /// Upgrades, then sends one text message in 1 MiB frames that never say `fin`.
        case endlessMessage
        /// Upgrades, sends `[[[…]]]` nested `depth` deep, then `{"ok": 1}`, then closes.
        case deepJSON(depth: Int)
    }

    public let port: Int
    let listener: LoopbackListener

    /// `http://127.0.0.1:<port>`: the address a printer would have.
    public var url: String { "http://127.0.0.1:\(port)" }

    init(listener: LoopbackListener) {
        self.listener = listener
        self.port = listener.port
    }

    public static func start(_ behaviour: Behaviour) async throws -> HostileWebSocket {
        let listener = try await LoopbackListener.bind { channel in
            if case .silent = behaviour {
                return channel.pipeline.addHandler(Swallower())
            }
            let upgrader = NIOWebSocketServerUpgrader(
                maxFrameSize: 1 << 24, shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                upgradePipelineHandler: { channel, _ in channel.pipeline.addHandler(Sender(behaviour: behaviour)) })
            return channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        }
        return HostileWebSocket(listener: listener)
    }

    public func stop() async { await listener.stop() }

    public static func with<T>(_ behaviour: Behaviour, _ body: (HostileWebSocket) async throws -> T) async throws -> T {
        try await LoopbackListener.scoped(try await start(behaviour), stop: { await $0.stop() }, body)
    }

    /// Reads and drops everything.
    final class Swallower: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }

    /// Writes the behaviour's frames once the client has spoken (its subscription, login and
    /// throttle): the upgrade is over by then, and the client is reading.
    final class Sender: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame
        let behaviour: Behaviour
        /// Only touched on the channel's event loop.
        private var heard = 0

        init(behaviour: Behaviour) { self.behaviour = behaviour }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            heard += 1
            guard heard == 3 else { return }
            let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
            switch behaviour {
            case .silent:
                break
            case .endlessMessage:
                Self.pump(bound, first: true)
            case .deepJSON(let depth):
                let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: deep))), promise: nil)
                context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "{\"ok\": 1}"))), promise: nil)
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer())))
                    .whenComplete { _ in channel.close(promise: nil) }
            }
        }

        /// A 1 MiB frame per event-loop tick, until the client goes.
        static func pump(_ bound: NIOLoopBound<(ChannelHandlerContext, Sender)>, first: Bool) {
            let (context, sender) = bound.value
            guard context.channel.isActive else { return }
            let frame = WebSocketFrame(
                fin: false, opcode: first ? .text : .continuation, data: ByteBuffer(repeating: UInt8(ascii: " "), count: 1 << 20))
            let loop = context.eventLoop
            context.writeAndFlush(sender.wrapOutboundOut(frame)).whenComplete { result in
                guard case .success = result else { return }
                loop.execute { pump(bound, first: false) }
            }
        }
    }
}
