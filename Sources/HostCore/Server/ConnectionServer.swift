import AssistantRPC
import Foundation
import NIOCore

/// One client connection served with structured concurrency: the connection's task reads
/// newline-framed requests and runs each as a child task (at most `maxConcurrent` at once, after
/// which it stops reading), and each reply is written as soon as it is ready. Writing suspends
/// while the socket's unsent bytes are above the channel's high-water mark, so a client that does
/// not read holds at most `maxConcurrent` replies here and then is not read either: it cannot grow
/// the daemon's memory or slow anyone else.
///
/// A half-close (the client shut down only its write side, as `printf … | socat` does) ends the
/// reading; the calls in flight finish and their replies are written before the connection
/// closes. A full close (the peer went away; on Linux `EPOLLHUP`, which closes the channel)
/// cancels the calls in flight: cooperative cancellation reaches their HTTP requests, uploads,
/// file work and waits.
struct ConnectionServer: Sendable {
    typealias Wire = NIOAsyncChannel<Inbound, ByteBuffer>

    /// What `ImmediateReplyHandler` passes on: a request it parsed (with whether it was read
    /// before draining began), or a line it left whole.
    enum Inbound: Sendable {
        case parsed(JSONValue, admitted: Bool)
        case line(ByteBuffer)
    }

    let dispatcher: Dispatcher
    /// Lines read and not yet answered, for a graceful stop.
    let tracker: InFlightTracker
    let maxLineBytes: Int
    let maxConcurrent: Int

    func serve(_ wire: Wire, connection: ServerConnection) async {
        let channel = wire.channel
        // Only closing can fail here, and a connection that fails to close is gone anyway.
        try? await wire.executeThenClose { inbound, outbound in
            await withTaskGroup(of: Void.self) { group in
                // The peer hanging up (or the daemon's last word at shutdown) closes the channel.
                group.addTask { try? await channel.closeFuture.get() }
                group.addTask {
                    await serveRequests(inbound, outbound, connection: connection, channel: channel)
                    // Read side done and every reply written: close, which also ends the watcher.
                    try? await channel.close()
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private func serveRequests(
        _ inbound: NIOAsyncChannelInboundStream<Inbound>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        connection: ServerConnection, channel: any Channel
    ) async {
        let allocator = channel.allocator
        let slots = CallSlots(maxConcurrent)
        await withDiscardingTaskGroup { calls in
            do {
                readLoop: for try await inboundLine in inbound {
                    let request: JSONValue
                    let admitted: Bool
                    switch inboundLine {
                    case .parsed(let parsed, let wasAdmitted):
                        tracker.begin()
                        request = parsed
                        admitted = wasAdmitted
                    case .line(let line):
                        if line.readableBytes > maxLineBytes {
                            try? await outbound.write(refusal(allocator))
                            break readLoop
                        }
                        // A line read before draining began is served even if the daemon starts
                        // stopping before it runs: a call in flight is one the daemon has read.
                        admitted = !dispatcher.isDraining
                        tracker.begin()
                        switch dispatcher.immediateReply(to: line.readableBytesView, admitted: admitted) {
                        case .now(let reply):
                            if let reply { try? await outbound.write(allocator.line(reply)) }
                            tracker.end()
                            continue
                        case .later(let parsed):
                            request = parsed
                        }
                    }
                    // At the cap, read nothing more until a call (or a batch's member) has finished.
                    guard await slots.acquire() else {
                        tracker.end()
                        break readLoop
                    }
                    calls.addTask { [dispatcher, tracker] in
                        defer {
                            slots.release()
                            tracker.end()
                        }
                        guard let reply = await dispatcher.reply(to: request, connection: connection, admitted: admitted, slots: slots) else {
                            return
                        }
                        try? await outbound.write(allocator.line(reply))
                    }
                }
            } catch is ByteToMessageDecoderError.PayloadTooLargeError {
                try? await outbound.write(refusal(allocator))
            } catch {
                // The connection failed (reset): the watcher sees it close and cancels the calls.
            }
        }
    }

    private func refusal(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        let error = RPCError(
            code: RPCErrorCode.requestTooLarge,
            message: "Request too large: a line may hold at most \(maxLineBytes) bytes; closing this connection",
            data: ["limit": .int(Int64(maxLineBytes))])
        return allocator.line(Dispatcher.response(id: .null, error: error).encodedBytes())
    }
}
