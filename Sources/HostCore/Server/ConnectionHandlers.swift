import NIOCore

/// Writes a connection's queued notices whenever the socket takes more (the notice queue is
/// bounded and drops the oldest when the reader is slow).
final class NoticeDrainHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let connection: ServerConnection

    init(connection: ServerConnection) { self.connection = connection }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { connection.drainNotices() }
        context.fireChannelWritabilityChanged()
    }
}

/// Answers a peer that is not allowed with -32006 and hangs up.
final class PeerRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let reason: String

    init(reason: String) { self.reason = reason }

    /// The error has `id: null` (it answers no request), then the connection closes.
    func channelActive(context: ChannelHandlerContext) {
        let error = RPCError(code: RPCErrorCode.peerNotAllowed, message: "Peer not allowed: \(reason)")
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.line(Dispatcher.response(id: .null, error: error).encodedBytes())))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// Answers on the event loop the lines that need no suspension (`ping`, parse and envelope
/// errors) and hands every other line to the connection's task, parsed once. A `ping` answered
/// here costs no hop to the connection's task and back, which was most of its latency.
///
/// A line too long to parse without holding up the event loop's other connections (or over the
/// request limit, which the connection's task refuses), or one that arrives while the socket is
/// not writable, goes to the connection's task as it is: there its reply waits for the client to
/// read, and reading stops, so a client that never reads still cannot grow the daemon's memory.
final class ImmediateReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ConnectionServer.Inbound
    typealias OutboundOut = ByteBuffer

    static let maxImmediateBytes = 16 * 1024
    let dispatcher: Dispatcher
    /// Lines up to this many bytes are answered or parsed here.
    let parseLimit: Int
    private var unflushed = false

    init(dispatcher: Dispatcher, maxLineBytes: Int) {
        self.dispatcher = dispatcher
        parseLimit = min(Self.maxImmediateBytes, maxLineBytes)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard line.readableBytes <= parseLimit, context.channel.isWritable else {
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return
        }
        let admitted = !dispatcher.isDraining
        switch dispatcher.immediateReply(to: line.readableBytesView, admitted: admitted) {
        case .now(let reply):
            guard let reply else { return }
            context.write(wrapOutboundOut(context.channel.allocator.line(reply)), promise: nil)
            unflushed = true
        case .later(let request):
            context.fireChannelRead(wrapInboundOut(.parsed(request, admitted: admitted)))
        }
    }

    /// One flush per read burst, so pipelined requests share a write.
    func channelReadComplete(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }
}
