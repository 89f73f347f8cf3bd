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
