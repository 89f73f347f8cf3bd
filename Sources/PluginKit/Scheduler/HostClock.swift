import Foundation
import NIOConcurrencyHelpers

/// Wall-clock time for the scheduler and plugins. Injectable so tests move time by hand.
public protocol HostClock: Sendable {
    var now: Date { get }
    /// Suspends until `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

extension HostClock {
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now.addingTimeInterval(duration.timeInterval))
    }
}

extension Duration {
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    public init(timeInterval: TimeInterval) {
        self = .nanoseconds(Int64((timeInterval * 1e9).rounded()))
    }
}

public struct SystemClock: HostClock {
    public init() {}
    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let delay = deadline.timeIntervalSinceNow
        if delay > 0 {
            try await Task.sleep(for: Duration(timeInterval: delay))
        } else {
            try Task.checkCancellation()
        }
    }
}
