import Foundation

/// How long to wait after failures in a row, for every retry in the daemon (upstream requests,
/// plugin set-up, notice delivery, jobs, push reconnects): `base` doubling per failure up to
/// `maximum`, then up to `jitter` of that added at random, so that many accounts or printers
/// failing together (a network that came back) do not all retry in the same second.
public struct Backoff: Sendable, Equatable {
    public var base: TimeInterval
    public var maximum: TimeInterval
    /// The fraction of the delay added at random, 0 (none) to 1 (up to double).
    public var jitter: Double

    public init(base: TimeInterval, maximum: TimeInterval, jitter: Double = 0.2) {
        self.base = base
        self.maximum = max(base, maximum)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The wait after `failures` failures in a row (1: after the first). `random` gives a value
    /// in `0...bound` (injectable so tests can pin it).
    public func delay(afterFailures failures: Int, random: (Double) -> Double = { Double.random(in: 0...$0) }) -> TimeInterval {
        // Capped before doubling further, so any count of failures is safe.
        let doublings = min(max(failures, 1) - 1, 62)
        let plain = min(maximum, base * pow(2, Double(doublings)))
        return plain + (jitter > 0 ? random(plain * jitter) : 0)
    }
}

extension HostClock {
    /// Sleeps for `backoff`'s wait after `failures` failures in a row.
    public func sleep(_ backoff: Backoff, afterFailures failures: Int) async throws {
        try await sleep(for: Duration(timeInterval: backoff.delay(afterFailures: failures)))
    }
}
