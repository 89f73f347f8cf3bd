import NIOConcurrencyHelpers

/// Counts calls in flight so a graceful stop can wait for them (bounded by the caller).
final class InFlightTracker: Sendable {
    private struct Waiter {
        var until: @Sendable (Int) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }
    private struct State {
        var count = 0
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]

        /// Removes and returns the waiters whose condition now holds.
        mutating func satisfied() -> [CheckedContinuation<Void, Never>] {
            guard !waiters.isEmpty else { return [] }
            let count = self.count
            let ready = waiters.filter { $0.value.until(count) }
            for id in ready.keys { waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
    }
    private let state = NIOLockedValueBox(State())

    func begin() {
        let ready = state.withLockedValue { s in
            s.count += 1
            return s.satisfied()
        }
        ready.forEach { $0.resume() }
    }

    func end() {
        let ready = state.withLockedValue { s in
            s.count -= 1
            return s.satisfied()
        }
        ready.forEach { $0.resume() }
    }

    var count: Int { state.withLockedValue { $0.count } }

    /// Returns when nothing is in flight, or when the task is cancelled.
    func waitUntilIdle() async { await waitUntil { $0 == 0 } }

    /// Returns when the number of calls in flight satisfies `condition`, or when the task is cancelled.
    func waitUntil(_ condition: @escaping @Sendable (Int) -> Bool) async {
        let id = state.withLockedValue { s -> Int in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { s -> Bool in
                    if condition(s.count) || Task.isCancelled { return true }
                    s.waiters[id] = Waiter(until: condition, continuation: c)
                    return false
                }
                if resumeNow { c.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}
