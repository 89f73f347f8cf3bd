import DequeModule
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// One client connection, as calls and the notice fan-out see it. Thread-safe: replies are written
/// from whichever task finished the call; notices queue here (bounded, oldest dropped first) and
/// drain on the event loop while the socket is writable.
final class ServerConnection: ConnectionHandle {
    let connectionID: UInt64
    let peer: PeerCredentials?
    let channel: any Channel
    private let queueLimit: Int
    private struct NoticeQueue {
        var pending = Deque<ByteBuffer>()
        var dropped = 0
    }
    private let notices = NIOLockedValueBox(NoticeQueue())

    init(id: UInt64, peer: PeerCredentials?, channel: any Channel, queueLimit: Int) {
        connectionID = id
        self.peer = peer
        self.channel = channel
        self.queueLimit = queueLimit
    }

    var droppedNotices: Int { notices.withLockedValue { $0.dropped } }

    func sendNotification(method: String, params: JSONValue) {
        channel.writeAndFlush(
            channel.allocator.line(JSONValue.object(["jsonrpc": "2.0", "method": .string(method), "params": params]).encodedBytes()), promise: nil)
    }

    func deliverNotice(_ params: JSONValue) {
        let buffer = channel.allocator.line(JSONValue.object(["jsonrpc": "2.0", "method": "notice", "params": params]).encodedBytes())
        notices.withLockedValue { queue in
            if queue.pending.count >= queueLimit {
                queue.pending.removeFirst()
                queue.dropped += 1
            }
            queue.pending.append(buffer)
        }
        channel.eventLoop.execute { self.drainNotices() }
    }

    /// On the event loop: write queued notices while the socket takes them.
    func drainNotices() {
        var wrote = false
        while channel.isWritable, let next = notices.withLockedValue({ $0.pending.popFirst() }) {
            channel.write(next, promise: nil)
            wrote = true
        }
        if wrote { channel.flush() }
    }
}

extension ByteBufferAllocator {
    /// One newline-terminated protocol line.
    func line(_ bytes: some Collection<UInt8>) -> ByteBuffer {
        var buffer = buffer(capacity: bytes.count + 1)
        buffer.writeBytes(bytes)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}
