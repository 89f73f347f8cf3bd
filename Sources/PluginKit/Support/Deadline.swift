import Foundation

/// Runs `operation` and gives up when `limit` passes on `clock` first: the operation is then
/// cancelled, and `timedOut` is thrown once it has ended (structured: nothing is left running).
/// For whole exchanges that must end in time however the other side behaves, such as an
/// upstream's answer trickled a byte a second. With a `gate`, an operation that has begun to
/// commit when the limit passes is not cut: its own answer is awaited (see `CommitGate`).
public func withDeadline<T: Sendable>(
    _ limit: Duration, clock: any HostClock = SystemClock(), gate: CommitGate? = nil, timedOut: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withDeadline(until: clock.now.addingTimeInterval(limit.timeInterval), clock: clock, gate: gate, timedOut: timedOut, operation)
}

/// `withDeadline` until a moment fixed beforehand: several operations started together (each
/// plugin's part of `today`) share one end, however late each of them gets going.
public func withDeadline<T: Sendable>(
    until deadline: Date, clock: any HostClock = SystemClock(), gate: CommitGate? = nil, timedOut: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(until: deadline)
            return nil
        }
        defer { group.cancelAll() }
        // The group has two children, so next() has a first result.
        guard let first = try await group.next(), let value = first else {
            if let gate, !gate.close() {
                // The operation committed: its answer, however late, is the true one.
                while let next = try await group.next() { if let value = next { return value } }
            }
            throw timedOut()
        }
        return value
    }
}

extension Duration {
    /// A time limit as people read it: "120 s", "250 ms".
    public var limitText: String {
        let seconds = timeInterval
        return seconds >= 1 ? "\(Int(seconds.rounded())) s" : "\(Int((seconds * 1000).rounded())) ms"
    }
}
