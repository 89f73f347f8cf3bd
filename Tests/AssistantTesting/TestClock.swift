import Foundation
import HostCore
import NIOConcurrencyHelpers

/// A clock that only moves when a test says so. Sleepers resume in deadline order when
/// `advance` passes their deadline; `waitForSleepers` is the synchronisation point that lets a
/// test know every loop has reached its next sleep, so no real-time sleep is needed.
public final class TestClock: HostClock, @unchecked Sendable {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var sleeperWaiters: [(ready: @Sendable ([Date]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        mutating func releaseSleeperWaiters() -> [CheckedContinuation<Void, Never>] {
            let deadlines = sleepers.map(\.deadline)
            let ready = sleeperWaiters.filter { $0.ready(deadlines) }.map(\.continuation)
            sleeperWaiters.removeAll { $0.ready(deadlines) }
            return ready
        }
    }

    private let state: NIOLockedValueBox<State>

    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = NIOLockedValueBox(State(now: now))
    }

    public var now: Date { state.withLockedValue { $0.now } }

    public var sleeperCount: Int { state.withLockedValue { $0.sleepers.count } }

    public func sleep(until deadline: Date) async throws {
        let id: UInt64 = state.withLockedValue { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters) = state.withLockedValue { s -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if deadline <= s.now || Task.isCancelled { return (true, []) }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, s.releaseSleeperWaiters())
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
                waiters.forEach { $0.resume() }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { s -> Sleeper? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.sleepers.remove(at: i)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    public func advance(by interval: TimeInterval) {
        advance(to: now.addingTimeInterval(interval))
    }

    public func advance(to date: Date) {
        let due = state.withLockedValue { s -> [Sleeper] in
            s.now = max(s.now, date)
            let due = s.sleepers.filter { $0.deadline <= s.now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= s.now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Returns once at least `count` tasks are suspended in `sleep`.
    public func waitForSleepers(_ count: Int) async {
        await waitForSleepers { $0.count >= count }
    }

    /// Returns once a task sleeps until a deadline that satisfies `predicate`.
    public func waitForSleeper(until predicate: @escaping @Sendable (Date) -> Bool) async {
        await waitForSleepers { $0.contains(where: predicate) }
    }

    private func waitForSleepers(_ ready: @escaping @Sendable ([Date]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { s -> Bool in
                if ready(s.sleepers.map(\.deadline)) { return true }
                s.sleeperWaiters.append((ready, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// The earliest deadline a task is sleeping until.
    public var nextDeadline: Date? { state.withLockedValue { $0.sleepers.map(\.deadline).min() } }
}
