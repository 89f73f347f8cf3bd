import NIOCore

/// Writes a connection's queued notices whenever the socket takes more (the notice queue is
/// bounded and drops the oldest when the reader is slow).
final class NoticeDrainHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
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

    func channelActive(context: ChannelHandlerContext) {
        let error = RPCError(code: RPCErrorCode.peerNotAllowed, message: "Peer not allowed: \(reason)")
        writeErrorAndClose(error, context: context, wrap: wrapOutboundOut)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// Sends an error with `id: null` (the daemon could not tie it to a request) and hangs up.
func writeErrorAndClose(_ error: RPCError, context: ChannelHandlerContext, wrap: (ByteBuffer) -> NIOAny) {
    let reply = JSONValue.object(["jsonrpc": "2.0", "id": .null, "error": error.json]).encoded()
    let channel = context.channel
    context.writeAndFlush(wrap(channel.allocator.line(reply))).whenComplete { _ in channel.close(promise: nil) }
}
