import Foundation
import NIOConcurrencyHelpers

/// Wakes one waiting loop early (new outbox work, a rescheduled job). A wake that arrives while
/// nobody waits is remembered, so it is never lost between a check and the wait.
final class Waker: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = NIOLockedValueBox(State())

    func wake() {
        let waiter = state.withLockedValue { s -> CheckedContinuation<Void, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w
            }
            s.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns on a wake, on cancellation, or never otherwise.
    private func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { s -> Bool in
                    if s.pending || Task.isCancelled {
                        s.pending = false
                        return true
                    }
                    s.waiter = c
                    return false
                }
                if resumeNow { c.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { s -> CheckedContinuation<Void, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
    }

    /// Waits for a wake or until `deadline` on `clock` (forever when nil), whichever is first.
    func wait(until deadline: Date?, clock: any HostClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            if let deadline {
                group.addTask { try? await clock.sleep(until: deadline) }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
