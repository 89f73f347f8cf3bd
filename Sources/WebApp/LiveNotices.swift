import Foundation
import HostCore
import Hummingbird
import NIOConcurrencyHelpers
import ServiceLifecycle

/// New notices streamed to the Notices page as server-sent events, through the same subscription
/// the socket's `subscribe` uses. A stream ends when its device is revoked, and the number of
/// streams is bounded, per device and in all.
final class LiveNotices: Sendable {
    static let perDevice = 4
    static let total = 64
    static let heartbeat = Duration.seconds(25)
    /// A stream's ids sit apart from the socket's connection ids.
    private static let idBase: UInt64 = 1 << 62

    private struct State {
        var next: UInt64 = 0
        var open: [UInt64: String] = [:]
    }
    private let state = NIOLockedValueBox(State())
    let host: AssistantHost
    /// Each stream's id as it starts listening (what a test waits on).
    let opened: AsyncStream<UInt64>
    private let openedContinuation: AsyncStream<UInt64>.Continuation

    init(host: AssistantHost) {
        self.host = host
        (opened, openedContinuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(16))
    }

    /// One subscriber of the host's notices: what `deliverNotice` is given goes down the stream.
    final class Subscriber: ConnectionHandle {
        let connectionID: UInt64
        let continuation: AsyncStream<JSONValue>.Continuation
        var peer: PeerCredentials? { nil }
        var droppedNotices: Int { 0 }

        init(_ id: UInt64, _ continuation: AsyncStream<JSONValue>.Continuation) { (connectionID, self.continuation) = (id, continuation) }

        func sendNotification(method: String, params: JSONValue) {}
        func deliverNotice(_ params: JSONValue) { continuation.yield(params) }
    }

    /// The event stream for `device`, or nil when it has as many as it may.
    func stream(for device: String) -> Response? {
        let id: UInt64? = state.withLockedValue { state in
            guard state.open.count < Self.total, state.open.values.filter({ $0 == device }).count < Self.perDevice else { return nil }
            state.next += 1
            state.open[Self.idBase + state.next] = device
            return Self.idBase + state.next
        }
        guard let id else { return nil }
        // The newest 100 wait for a slow reader; older ones are dropped (the page shows them on a reload).
        let (notices, continuation) = AsyncStream.makeStream(of: JSONValue.self, bufferingPolicy: .bufferingNewest(100))
        let subscriber = Subscriber(id, continuation)
        let revocation = host.webDevices.observeRevocations { revoked in if revoked == device { continuation.finish() } }
        continuation.onTermination = { [host, state] _ in
            host.subscribers.unsubscribe(id)
            host.webDevices.stopObserving(revocation)
            state.withLockedValue { _ = $0.open.removeValue(forKey: id) }
        }
        host.subscribers.subscribe(subscriber, patterns: [])
        openedContinuation.yield(id)
        let redactor = host.redactor
        let (heartbeat, clock) = (Self.heartbeat, host.clock)
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": live\n\n"))
            // A page closed without a word is noticed only when a write fails: a comment line goes
            // down every `heartbeat`, so a gone reader frees its place within one. The daemon's
            // shutdown ends the stream too, or the server would wait for it for ever.
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    // Cancelled when the stream ends: that is its way out, not a failure.
                    while (try? await clock.sleep(for: heartbeat)) != nil { continuation.yield(.null) }
                }
                for await notice in notices.cancelOnGracefulShutdown() {
                    guard notice != .null else {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        continue
                    }
                    let shown: JSONValue = [
                        "title": notice["title"] ?? "", "body": notice["body"] ?? "", "severity": notice["severity"] ?? "info",
                        "time": notice["time"] ?? .null,
                    ]
                    try await writer.write(ByteBuffer(string: "event: notice\ndata: \(redactor.redact(shown).encodedString())\n\n"))
                }
                group.cancelAll()
            }
            continuation.finish()
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"], body: body)
    }

    var count: Int { state.withLockedValue { $0.open.count } }
}
