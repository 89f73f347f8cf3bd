import NIOConcurrencyHelpers

/// Counts calls in flight so a graceful stop can wait for them (bounded by the caller).
final class InFlightTracker: Sendable {
    private struct State {
        var count = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = NIOLockedValueBox(State())

    func begin() { state.withLockedValue { $0.count += 1 } }

    func end() {
        let waiters = state.withLockedValue { s -> [CheckedContinuation<Void, Never>] in
            s.count -= 1
            guard s.count == 0 else { return [] }
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    var count: Int { state.withLockedValue { $0.count } }

    /// Returns when nothing is in flight, or when the task is cancelled.
    func waitUntilIdle() async {
        let id = state.withLockedValue { s -> Int in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { s -> Bool in
                    if s.count == 0 || Task.isCancelled { return true }
                    s.waiters[id] = c
                    return false
                }
                if resumeNow { c.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
