import DequeModule
import NIOConcurrencyHelpers

/// The calls one connection may run at once (`socket.max_concurrent_requests`): a line's call
/// holds one slot, and so does each member of a batch that runs beside the others, so a batch
/// cannot start more calls than the connection may run. Written here: the listed packages offer
/// no async semaphore.
final class CallSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: Deque<(id: UInt64, continuation: CheckedContinuation<Bool, Never>)> = []
        var nextWaiter: UInt64 = 0
    }
    private let state: NIOLockedValueBox<State>

    init(_ count: Int) {
        state = NIOLockedValueBox(State(free: max(count, 1)))
    }

    /// Waits for a slot; false when the task was cancelled first (no slot is held then).
    func acquire() async -> Bool {
        let id = state.withLockedValue { s -> UInt64 in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLockedValue { s -> Bool? in
                    if Task.isCancelled { return false }
                    if s.free > 0 {
                        s.free -= 1
                        return true
                    }
                    s.waiters.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { s -> CheckedContinuation<Bool, Never>? in
                guard let index = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return s.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// A slot if one is free now, without waiting.
    func tryAcquire() -> Bool {
        state.withLockedValue { s in
            guard s.free > 0 else { return false }
            s.free -= 1
            return true
        }
    }

    /// Gives a slot back: to the longest waiter, or to the pool.
    func release() {
        let waiter = state.withLockedValue { s -> CheckedContinuation<Bool, Never>? in
            if let first = s.waiters.popFirst() { return first.continuation }
            s.free += 1
            return nil
        }
        waiter?.resume(returning: true)
    }
}
