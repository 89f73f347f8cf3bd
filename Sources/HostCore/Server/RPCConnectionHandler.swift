import Foundation
import NIOCore

/// Reads newline-framed requests, runs them concurrently (up to a per-connection limit, after
/// which it stops reading: back-pressure instead of unbounded memory) and writes each reply as
/// soon as it is ready; replies carry their request's id.
final class RPCConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connection: ServerConnection
    private let dispatcher: Dispatcher
    private let tracker: InFlightTracker
    private let maxLineBytes: Int
    private let maxConcurrent: Int
    private let onClose: @Sendable (ServerConnection) -> Void
    private var inFlight = 0
    private var readPending = false
    private var context: ChannelHandlerContext?

    init(
        connection: ServerConnection, dispatcher: Dispatcher, tracker: InFlightTracker, maxLineBytes: Int, maxConcurrent: Int,
        onClose: @escaping @Sendable (ServerConnection) -> Void
    ) {
        self.connection = connection
        self.dispatcher = dispatcher
        self.tracker = tracker
        self.maxLineBytes = maxLineBytes
        self.maxConcurrent = maxConcurrent
        self.onClose = onClose
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if buffer.readableBytes > maxLineBytes {
            refuseOversized(context: context)
            return
        }
        // Blank lines (keep-alives, a stray "\r\n") are not requests.
        if buffer.readableBytesView.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let line = Data(buffer.readableBytesView)
        inFlight += 1
        tracker.begin()
        let connection = self.connection
        let dispatcher = self.dispatcher
        let tracker = self.tracker
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let admitted = !dispatcher.isDraining
        Task {
            let reply = await dispatcher.handle(line: line, connection: connection, admitted: admitted)
            // One hop back to the event loop both writes the reply and accounts for the call.
            eventLoop.execute {
                loopBound.value.requestFinished(reply: reply)
                tracker.end()
            }
        }
    }

    private func requestFinished(reply: Data?) {
        if let reply, let context {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.line(reply)), promise: nil)
        }
        inFlight -= 1
        if readPending && inFlight < maxConcurrent, let context {
            readPending = false
            context.read()
        }
    }

    func read(context: ChannelHandlerContext) {
        if inFlight >= maxConcurrent {
            readPending = true
        } else {
            context.read()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { connection.drainNotices() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is ByteToMessageDecoderError.PayloadTooLargeError {
            refuseOversized(context: context)
        } else {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose(connection)
        context.fireChannelInactive()
    }

    private func refuseOversized(context: ChannelHandlerContext) {
        let error = RPCError(
            code: RPCErrorCode.requestTooLarge,
            message: "Request too large: a line may hold at most \(maxLineBytes) bytes; closing this connection",
            data: ["limit": .int(Int64(maxLineBytes))])
        writeErrorAndClose(error, context: context, wrap: wrapOutboundOut)
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
