import NIOConcurrencyHelpers

/// Work that outlives the call that starts it but never the service that owns it: a job's loop,
/// a plugin's setup, a printer's push connection, a browser login waiting for its redirect.
///
/// Each piece runs as a child task of `run()`, which the owning service runs inside the daemon's
/// `ServiceGroup`, so cancelling the group cancels them all and nothing is left running. A piece
/// can also be cancelled on its own (`cancel`), which a task group cannot do for one child, and
/// awaited (`wait`). Hand-written because neither the standard library nor Service Lifecycle has
/// an owned, individually cancellable child task; this is the discarding task group fed by a
/// stream that HummingbirdCore uses for its connections, plus a per-child cancel signal.
public final class BackgroundTasks: Sendable {
    public struct Handle: Hashable, Sendable {
        let id: UInt64
    }

    private struct Child {
        var cancelRequested = false
        /// The child's watcher, parked until cancellation is asked for.
        var watcher: CheckedContinuation<Void, Never>?
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private struct State {
        var next: UInt64 = 0
        var live: [UInt64: Child] = [:]
        var closed = false
    }

    private let state = NIOLockedValueBox(State())
    private let queue: AsyncStream<(UInt64, @Sendable () async -> Void)>
    private let enqueue: AsyncStream<(UInt64, @Sendable () async -> Void)>.Continuation

    public init() {
        (queue, enqueue) = AsyncStream.makeStream()
    }

    /// Starts `operation` as a child of `run()`. After `finish()` nothing starts; the handle is
    /// then already ended.
    @discardableResult
    public func start(_ operation: @escaping @Sendable () async -> Void) -> Handle {
        let id = state.withLockedValue { s -> UInt64? in
            guard !s.closed else { return nil }
            s.next += 1
            s.live[s.next] = Child()
            return s.next
        }
        guard let id else { return Handle(id: 0) }
        enqueue.yield((id, operation))
        return Handle(id: id)
    }

    /// Whether the piece is still queued or running.
    public func isRunning(_ handle: Handle) -> Bool { state.withLockedValue { $0.live[handle.id] != nil } }

    /// Asks the piece to stop (its task is cancelled) without waiting for it.
    public func requestCancel(_ handle: Handle) {
        let watcher = state.withLockedValue { s -> CheckedContinuation<Void, Never>? in
            guard var child = s.live[handle.id] else { return nil }
            let watcher = child.watcher
            child.cancelRequested = true
            child.watcher = nil
            s.live[handle.id] = child
            return watcher
        }
        watcher?.resume()
    }

    /// Cancels these pieces and returns once every one has ended.
    public func cancel(_ handles: [Handle]) async {
        for handle in handles { requestCancel(handle) }
        for handle in handles { await wait(handle) }
    }

    public func cancel(_ handle: Handle) async { await cancel([handle]) }

    /// Returns once the piece has ended (at once if it has).
    public func wait(_ handle: Handle) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLockedValue { s -> Bool in
                guard s.live[handle.id] != nil else { return true }
                s.live[handle.id]?.finishWaiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// No new pieces; the running ones are cancelled and awaited, and `run()` returns.
    public func finish() async {
        let handles = state.withLockedValue { s -> [Handle] in
            s.closed = true
            return s.live.keys.map(Handle.init)
        }
        enqueue.finish()
        await cancel(handles)
    }

    /// Runs the pieces until `finish()`, or until the calling task is cancelled, which cancels
    /// every piece; returns when the last has ended.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for await (id, operation) in queue {
                group.addTask { await self.runChild(id, operation) }
            }
        }
        // Pieces queued but never started (the task was cancelled first) end here.
        let left = state.withLockedValue { s -> [CheckedContinuation<Void, Never>] in
            s.closed = true
            defer { s.live.removeAll() }
            return s.live.values.flatMap(\.finishWaiters)
        }
        for waiter in left { waiter.resume() }
    }

    private func runChild(_ id: UInt64, _ operation: @escaping @Sendable () async -> Void) async {
        let cancelledBeforeStart = state.withLockedValue { $0.live[id]?.cancelRequested ?? true }
        if !cancelledBeforeStart {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await operation() }
                group.addTask { await self.watchForCancel(id) }
                await group.next()
                group.cancelAll()
            }
        }
        let waiters = state.withLockedValue { $0.live.removeValue(forKey: id)?.finishWaiters } ?? []
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when cancellation of `id` is asked for, or when this task is cancelled (the piece
    /// ended first, or the whole group is going).
    private func watchForCancel(_ id: UInt64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { s -> Bool in
                    guard let child = s.live[id], !child.cancelRequested, !Task.isCancelled else { return true }
                    s.live[id]?.watcher = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLockedValue { s -> CheckedContinuation<Void, Never>? in
                defer { s.live[id]?.watcher = nil }
                return s.live[id]?.watcher
            }
            watcher?.resume()
        }
    }
}
