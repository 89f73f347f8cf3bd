import Foundation
import Logging

/// Owns one plugin's lifecycle: `setup → ready | not_configured | needs_reauth | failed`, with
/// retry and exponential backoff (5 s · 2^min(n, 4), as Home Assistant's setup retry) for
/// transient failures. Calls to a plugin that is not ready get a host error, never a crash.
public actor PluginSupervisor {
    /// Set-up retries: 5 s doubling to 80 s, jittered.
    static let setupBackoff = Backoff(base: 5, maximum: 80, jitter: 0.2)

    public nonisolated let id: String
    public nonisolated let manifest: PluginManifest
    public nonisolated let accounts: Accounts
    let runtime: PluginRuntime

    public private(set) var state: PluginState = .setup
    public private(set) var detail: String?
    /// What `setup` produced, held while the plugin runs; handlers get it with every call.
    private var service: (any Sendable)?
    /// Calls that arrived during setup, waiting for it to end (at most `setupCallWait`).
    private var setupWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter: UInt64 = 0
    /// True while a setup attempt runs (not during the backoff between attempts, when waiting
    /// would only delay the -32002).
    private var attemptRunning = false
    let setupCallWait: Duration
    private var attempts = 0
    private var nextRetry: Date?
    private var lifecycle: BackgroundTasks.Handle?
    /// The setup loop and the plugin's own background work (`PluginContext.background`), as
    /// children of `run()`.
    public nonisolated let background: BackgroundTasks
    private let makeContext: @Sendable () -> PluginContext
    private let clock: any HostClock
    private let logger: Logger
    private let redactor: SecretRedactor
    private let onReady: @Sendable (PluginSupervisor) async -> Void
    private let onLeaveReady: @Sendable (PluginSupervisor) async -> Void
    let setupTimeout: Duration

    init(
        runtime: PluginRuntime, accounts: Accounts, background: BackgroundTasks, enabled: Bool, clock: any HostClock, logger: Logger,
        redactor: SecretRedactor,
        setupTimeout: Duration = .seconds(60), setupCallWait: Duration = .seconds(3), makeContext: @escaping @Sendable () -> PluginContext,
        onReady: @escaping @Sendable (PluginSupervisor) async -> Void,
        onLeaveReady: @escaping @Sendable (PluginSupervisor) async -> Void
    ) {
        self.runtime = runtime
        self.accounts = accounts
        self.background = background
        self.manifest = runtime.manifest
        self.id = runtime.manifest.id
        self.setupCallWait = setupCallWait
        self.clock = clock
        self.logger = logger
        self.redactor = redactor
        self.setupTimeout = setupTimeout
        self.makeContext = makeContext
        self.onReady = onReady
        self.onLeaveReady = onLeaveReady
        if !enabled {
            state = .disabled
            detail = "disabled in the configuration ([plugins.\(runtime.manifest.id)] enabled = false)"
        }
    }

    /// Starts setup in the background (a child of `run()`); the daemon does not wait for
    /// plugins to be ready.
    public func start() {
        guard state != .disabled, lifecycle == nil else { return }
        lifecycle = background.start { await self.setupLoop() }
    }

    /// Runs setup and the plugin's background work until `shutdown()` or cancellation.
    public nonisolated func run() async { await background.run() }

    /// Waits for the current setup attempt sequence to settle (tests, and `status` right after start).
    public func settled() async {
        if let lifecycle { await background.wait(lifecycle) }
    }

    private func setupLoop() async {
        defer { releaseSetupWaiters() }
        while !Task.isCancelled {
            state = .setup
            attemptRunning = true
            let outcome = await attemptSetup()
            attemptRunning = false
            switch outcome {
            case .success(.ready(let service)):
                attempts = 0
                nextRetry = nil
                self.service = service
                state = .ready
                detail = nil
                logger.info("plugin ready", metadata: ["plugin": "\(id)"])
                releaseSetupWaiters()
                await onReady(self)
                return
            case .success(.notConfigured(let why)):
                state = .notConfigured
                detail = redactor.redact(why)
                return
            case .failure(PluginError.needsReauth(let why)):
                state = .needsReauth
                detail = redactor.redact(why)
                logger.warning("plugin needs re-authentication", metadata: ["plugin": "\(id)", "reason": "\(detail ?? "")"])
                return
            case .failure(PluginError.notReady(let why)):
                attempts += 1
                let delay = Self.setupBackoff.delay(afterFailures: attempts)
                let retryAt = clock.now.addingTimeInterval(delay)
                nextRetry = retryAt
                detail = "\(redactor.redact(why)); retrying at \(ISO8601.string(retryAt))"
                // Log the first retry loudly, later ones quietly.
                if attempts == 1 {
                    logger.warning("plugin not ready; retrying", metadata: ["plugin": "\(id)", "reason": "\(redactor.redact(why))"])
                } else {
                    logger.debug("plugin still not ready", metadata: ["plugin": "\(id)", "attempt": "\(attempts)"])
                }
                // Calls waiting for this attempt get their answer now, not after the backoff.
                releaseSetupWaiters()
                do { try await clock.sleep(until: retryAt) } catch { return }
            case .failure(let error) where error is CancellationError || Task.isCancelled:
                // The daemon stopped (or failed to start) while the plugin was setting up: no fault of the plugin's to report.
                state = .failed
                detail = "the daemon stopped before the plugin was set up"
                logger.debug("plugin setup cancelled", metadata: ["plugin": "\(id)"])
                return
            case .failure(let error):
                state = .failed
                detail = redactor.redact(ErrorText.sentence(error))
                logger.error("plugin setup failed", metadata: ["plugin": "\(id)", "error": "\(detail ?? "")"])
                return
            }
        }
    }

    private func attemptSetup() async -> Result<PluginRuntime.Setup, any Error> {
        let context = makeContext()
        let setup = runtime.setup
        let clock = self.clock
        let timeout = setupTimeout
        do {
            let outcome = try await withThrowingTaskGroup(of: PluginRuntime.Setup?.self) { group in
                group.addTask { try await setup(context) }
                group.addTask {
                    try await clock.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next()!
                group.cancelAll()
                return first
            }
            guard let outcome else { return .failure(PluginError.notReady("setup did not finish within \(timeout)")) }
            return .success(outcome)
        } catch {
            return .failure(error)
        }
    }

    /// Re-runs setup after credentials changed (a vault entry in the plugin's scope was set).
    public func credentialsChanged() async {
        guard state == .needsReauth || state == .notConfigured || state == .setup else { return }
        if let lifecycle { await background.cancel(lifecycle) }
        lifecycle = nil
        attempts = 0
        if let service {
            self.service = nil
            await runtime.teardown(service)
        }
        start()
    }

    // MARK: Waiting for setup

    /// A call that arrives while the plugin sets up waits for the outcome, briefly.
    private func waitForSetup() async {
        guard state == .setup, attemptRunning, setupCallWait > .zero else { return }
        nextWaiter += 1
        let ticket = nextWaiter
        let wait = setupCallWait
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Real time on purpose: this bounds how long a caller waits, whatever the host clock.
                try? await Task.sleep(for: wait)
                await self.releaseSetupWaiter(ticket)
            }
            // Parked before this actor runs anything else, so neither wake-up can be missed.
            await withCheckedContinuation {
                setupWaiters[ticket] = $0
                notifyWaiterObservers()
            }
            group.cancelAll()
        }
    }

    private var waiterObservers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Returns once `count` calls wait for setup (tests).
    public func waitUntilCallsWaitForSetup(_ count: Int) async {
        await withCheckedContinuation { continuation in
            waiterObservers.append((count, continuation))
            notifyWaiterObservers()
        }
    }

    private func notifyWaiterObservers() {
        let ready = waiterObservers.filter { $0.count <= setupWaiters.count }
        waiterObservers.removeAll { $0.count <= setupWaiters.count }
        for observer in ready { observer.continuation.resume() }
    }

    private func releaseSetupWaiter(_ ticket: UInt64) {
        setupWaiters.removeValue(forKey: ticket)?.resume()
    }

    private func releaseSetupWaiters() {
        let waiting = setupWaiters.values
        setupWaiters.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    // MARK: Calls

    public func call(_ command: String, handler: @escaping PluginHandler, params: Params, context: CallContext, timeout: Duration) async throws
        -> any CallResult
    {
        await waitForSetup()
        switch state {
        case .ready:
            break
        case .needsReauth:
            throw RPCError(
                code: RPCErrorCode.needsReauth, message: "Plugin '\(id)' needs re-authentication: \(detail ?? "credentials were refused")",
                data: stateData)
        default:
            throw RPCError(
                code: RPCErrorCode.pluginNotReady, message: "Plugin '\(id)' is not ready (\(state.rawValue))\(detail.map { ": \($0)" } ?? "")",
                data: stateData)
        }
        guard let service else {
            throw RPCError(code: RPCErrorCode.pluginNotReady, message: "Plugin '\(id)' is not ready (\(state.rawValue))", data: stateData)
        }
        let clock = self.clock
        do {
            let result = try await withDeadline(
                timeout, clock: clock, gate: context.commitGate,
                timedOut: {
                    RPCError(
                        code: RPCErrorCode.timeout, message: "'\(command)' did not finish within \(timeout.limitText)",
                        data: ["method": .string(command)])
                }
            ) { try await handler(service, params, context) }
            if context.commitGate.overran {
                logger.notice(
                    "a call committed after its time limit; its answer was awaited",
                    metadata: ["plugin": "\(id)", "method": "\(command)", "limit_s": "\(Int(timeout.timeInterval))"])
            }
            return result
        } catch let error as RPCError {
            throw error
        } catch let error as any PluginErrorCase {
            throw error.rpcError
        } catch PluginError.needsReauth(let why) {
            await leaveReady(.needsReauth, why)
            throw RPCError(
                code: RPCErrorCode.needsReauth, message: "Plugin '\(id)' needs re-authentication: \(redactor.redact(why))", data: stateData)
        } catch PluginError.notReady(let why) {
            throw RPCError(
                code: RPCErrorCode.upstreamUnreachable, message: "Upstream unreachable: \(redactor.redact(why))",
                data: ["plugin": .string(id)])
        } catch is CancellationError {
            throw RPCError(code: RPCErrorCode.shuttingDown, message: "The call was cancelled because the daemon is shutting down")
        } catch {
            logger.error(
                "plugin call failed", metadata: ["plugin": "\(id)", "method": "\(command)", "error": "\(redactor.redact(ErrorText.sentence(error)))"])
            throw RPCError(
                code: RPCErrorCode.internalError, message: "Internal error in plugin '\(id)': \(redactor.redact(ErrorText.sentence(error)))",
                data: ["plugin": .string(id)])
        }
    }

    private func leaveReady(_ newState: PluginState, _ why: String) async {
        let wasReady = state == .ready
        state = newState
        detail = redactor.redact(why)
        if wasReady { await onLeaveReady(self) }
    }

    private var stateData: JSONValue {
        var data: [String: JSONValue] = ["plugin": .string(id), "state": .string(state.rawValue)]
        if let detail { data["detail"] = .string(detail) }
        return .object(data)
    }

    public func status() async -> PluginStatus {
        // Per-account states, for plugins that have accounts.
        var accounts = try? await accounts.standings()
        if accounts?.isEmpty == true { accounts = nil }
        return PluginStatus(
            id: id, version: manifest.version, state: state, summary: manifest.summary, detail: detail,
            nextRetry: nextRetry.map(ISO8601.string), accounts: accounts)
    }

    /// The plugin's part of a day (`today`): nil when it is not ready or contributes nothing.
    /// The service is taken here and asked outside the actor, so a slow upstream holds no one.
    public func dayContributor() -> (any DayContributing)? {
        guard state == .ready else { return nil }
        return service as? any DayContributing
    }

    /// Runs one of the plugin's jobs (by its local id) on the running service.
    public func runJob(_ jobID: String) async throws {
        guard let job = runtime.jobs[jobID] else { throw RPCError.internalError("plugin '\(id)' has no job '\(jobID)'") }
        guard state == .ready, let service else { throw PluginError.notReady("plugin '\(id)' is \(state.rawValue)") }
        try await job(service)
    }

    /// Ends setup, tears the plugin down, then cancels what background work it left, and
    /// `run()` returns.
    public func shutdown() async {
        if let lifecycle { await background.cancel(lifecycle) }
        if let service {
            self.service = nil
            await runtime.teardown(service)
        }
        await background.finish()
    }
}
