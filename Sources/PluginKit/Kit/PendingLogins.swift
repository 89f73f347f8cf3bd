import Foundation
import NIOConcurrencyHelpers

/// Browser logins that are waiting for their redirect (IS/STAG's ticket login, an OAuth
/// authorization code). A login command starts a `LoopbackCapture`, returns its address at once,
/// and hands the wait to this: one wait per key (an account), a new login for the same key
/// cancels the old one, and `cancelAll` at the plugin's teardown ends every wait, so no listener
/// or task outlives the plugin.
///
/// The login must outlive the command that started it, so each wait is a piece of the plugin's
/// background work (`PluginContext.background`): a child of the plugin's service, cancelled here.
public actor PendingLogins {
    /// How the last login for a key ended, for `status`.
    public enum Outcome: Sendable, Equatable {
        case waiting(since: Date)
        /// `account`: who signed in, when the login learns it only from the upstream (an OAuth username).
        case succeeded(at: Date, account: String?)
        case failed(String)
    }

    private var waits: [String: (id: UUID, task: BackgroundTasks.Handle, capture: LoopbackCapture)] = [:]
    private var outcomes: [String: Outcome] = [:]
    /// Callers waiting for a key to settle. Behind a lock rather than on the actor, so a waiter
    /// whose task is cancelled (its client hung up, the daemon is stopping) can leave at once.
    private struct Observers {
        var next = 0
        var byKey: [String: [Int: CheckedContinuation<Outcome?, Never>]] = [:]
    }
    private nonisolated let observers = NIOLockedValueBox(Observers())

    private nonisolated func resumeObservers(_ key: String, with outcome: Outcome) {
        let waiting = observers.withLockedValue { $0.byKey.removeValue(forKey: key) } ?? [:]
        for observer in waiting.values { observer.resume(returning: outcome) }
    }
    let clock: any HostClock
    private let background: BackgroundTasks

    public init(clock: any HostClock, background: BackgroundTasks) {
        self.clock = clock
        self.background = background
    }

    /// Waits for `capture`'s redirect in the background and runs `complete` with it, which returns
    /// the account that signed in when only the upstream knows it. `complete` throwing (a cancelled
    /// login, a refused ticket) records the failure's message.
    public func start(
        _ key: String, capture: LoopbackCapture, complete: @escaping @Sendable (LoopbackCapture.Redirect) async throws -> String?
    ) async {
        if let old = waits.removeValue(forKey: key) {
            background.requestCancel(old.task)
            await old.capture.cancel()
        }
        let id = UUID()
        outcomes[key] = .waiting(since: clock.now)
        let task = background.start { [weak self] in
            let outcome: Outcome
            do {
                let redirect = try await capture.redirect()
                let account = try await complete(redirect)
                outcome = .succeeded(at: self?.clock.now ?? Date(), account: account)
            } catch {
                outcome = .failed(Self.describe(error))
            }
            await self?.finish(key, id: id, outcome)
        }
        waits[key] = (id, task, capture)
    }

    private func finish(_ key: String, id: UUID, _ outcome: Outcome) {
        guard waits[key]?.id == id else { return }
        waits[key] = nil
        outcomes[key] = outcome
        resumeObservers(key, with: outcome)
    }

    public func outcome(_ key: String) -> Outcome? { outcomes[key] }

    /// Keys with a login waiting or finished since start.
    public var keys: [String] { outcomes.keys.sorted() }

    /// Resolves when the login for `key` is no longer waiting (tests, and a CLI that waits);
    /// nil at once when the waiting task is cancelled.
    public func settled(_ key: String) async -> Outcome? {
        guard case .waiting = outcomes[key], waits[key] != nil else { return outcomes[key] }
        let id = observers.withLockedValue { o -> Int in
            o.next += 1
            return o.next
        }
        let observers = self.observers
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
                let cancelled = observers.withLockedValue { o -> Bool in
                    if Task.isCancelled { return true }
                    o.byKey[key, default: [:]][id] = continuation
                    return false
                }
                if cancelled { continuation.resume(returning: nil) }
            }
        } onCancel: {
            observers.withLockedValue { $0.byKey[key]?.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }

    /// `settled`, waiting at most `timeout` on the host clock (a `…login.wait` command): still
    /// `.waiting` when the browser has not come back by then.
    public nonisolated func settled(_ key: String, within timeout: Duration) async throws -> Outcome? {
        try await withThrowingTaskGroup(of: Outcome?.self) { group in
            group.addTask { await self.settled(key) }
            group.addTask {
                try await self.clock.sleep(for: timeout)
                return .waiting(since: self.clock.now)
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// Ends the wait for `key` (an account removed), leaving no listener.
    public func cancel(_ key: String) async {
        guard let wait = waits.removeValue(forKey: key) else { return }
        await wait.capture.cancel()
        await background.cancel(wait.task)
        outcomes[key] = .failed("the login was cancelled")
        resumeObservers(key, with: .failed("the login was cancelled"))
    }

    /// Teardown: every wait ends and every listener closes.
    public func cancelAll() async {
        for key in Array(waits.keys) { await cancel(key) }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as RPCError: error.message
        case let error as LoopbackCapture.Failure: error.description
        case is CancellationError: "the login was cancelled"
        default: ErrorText.sentence(error)
        }
    }
}
