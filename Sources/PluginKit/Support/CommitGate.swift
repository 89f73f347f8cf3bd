import NIOConcurrencyHelpers

/// Settles, once, the race between a call's commit and its deadline, so that a call is never
/// reported timed out after its work was committed, nor commits after it was reported timed out.
/// The call enters the gate inside its write transaction, as the last thing before the commit
/// (`CallContext.committing()`); the deadline tries to close it. Whichever comes first wins: a
/// closed gate makes the transaction roll back, an entered one makes the deadline wait for the
/// call's own answer (what follows a commit is short and bounded).
public final class CommitGate: Sendable {
    private enum Phase { case open, committing, closed }
    private struct State {
        var phase = Phase.open
        var overran = false
        var overrunWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// The call is about to commit: throws `CancellationError` (so the transaction rolls back)
    /// when the deadline came first.
    public func enter() throws {
        let entered = state.withLockedValue { state -> Bool in
            if state.phase == .closed { return false }
            state.phase = .committing
            return true
        }
        if !entered { throw CancellationError() }
    }

    /// Whether the deadline passed while the call was committing (its answer was then awaited).
    public var overran: Bool { state.withLockedValue { $0.overran } }

    /// Returns once the deadline has passed during the commit, or the task is cancelled.
    public func waitForOverrun() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { state -> Bool in
                    if state.overran || Task.isCancelled { return true }
                    state.overrunWaiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiters = state.withLockedValue { state in
                defer { state.overrunWaiters = [] }
                return state.overrunWaiters
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// The deadline passed: true when the call may be cut, because it has not begun to commit.
    func close() -> Bool {
        let (cut, waiters) = state.withLockedValue { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            if state.phase == .committing {
                state.overran = true
                defer { state.overrunWaiters = [] }
                return (false, state.overrunWaiters)
            }
            state.phase = .closed
            return (true, [])
        }
        waiters.forEach { $0.resume() }
        return cut
    }
}
