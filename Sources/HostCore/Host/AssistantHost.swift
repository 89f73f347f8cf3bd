import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ServiceLifecycle
import UnixSignals

/// The running daemon minus its process concerns: store, vault, notices, scheduler, plugins,
/// method table and socket server, wired together. `assistantd` and the tests both start this.
final class HostBox: Sendable {
    private struct Reference { weak var host: AssistantHost? }
    private let reference = NIOLockedValueBox(Reference())
    var host: AssistantHost? {
        get { reference.withLockedValue { $0.host } }
        set { reference.withLockedValue { $0.host = newValue } }
    }
}

public final class AssistantHost: Sendable {
    public let options: HostOptions
    public let store: Store
    public let vault: Vault
    public let notices: NoticeCenter
    /// The web app's paired devices (`web.pair`); the `WebApp` module serves them.
    public let webDevices: WebDevices
    public let scheduler: JobScheduler
    public let subscribers = SubscriberRegistry()
    public let supervisors: [PluginSupervisor]
    public let dispatcher: Dispatcher
    public let server: RPCServer
    public let http: HTTPClient
    public let redactor: SecretRedactor
    public let startedAt: Date
    public let warnings: [String]
    let settings: NIOLockedValueBox<HostConfiguration>

    public var clock: any HostClock { options.clock }
    public var configuration: HostConfiguration { settings.withLockedValue { $0 } }

    public init(options: HostOptions, plugins: [any AssistantPlugin], redactor: SecretRedactor = .shared) throws {
        self.options = options
        self.redactor = redactor
        let configuration = options.configuration
        settings = NIOLockedValueBox(configuration)
        startedAt = options.clock.now
        let logger = options.logger

        // Registry checks first: a duplicate id or a bad command name is a configuration error,
        // before any I/O.
        var seen = Set<String>(["host"])
        var runtimes: [PluginRuntime] = []
        // Each plugin's declarations are read once, here; the host uses only the runtime after.
        for plugin in plugins {
            let runtime = try Self.runtime(plugin)
            let id = runtime.manifest.id
            guard seen.insert(id).inserted else { throw StartupError(.configuration, RegistryError.duplicatePlugin(id).description) }
            if let block = runtime.manifest.errors?.range,
                let other = runtimes.first(where: { $0.manifest.errors.map { $0.range.overlaps(block) } ?? false })
            {
                throw StartupError(.configuration, RegistryError.errorBlocksOverlap(other.manifest.id, id).description)
            }
            runtimes.append(runtime)
        }
        var warnings: [String] = []
        for id in configuration.plugins.keys.sorted() where !seen.contains(id) {
            warnings.append(
                "[plugins.\(id)] names no plugin of this build (plugins: \(runtimes.map(\.manifest.id).sorted().joined(separator: ", ")))")
        }
        for runtime in runtimes {
            warnings += try Self.checkPluginConfig(runtime.manifest, configuration.plugins[runtime.manifest.id] ?? [:])
        }
        self.warnings = warnings

        do {
            try FileManager.default.createDirectory(
                atPath: options.dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StartupError(.cannotCreate, "cannot create the data directory \(options.dataDirectory): \(error.localizedDescription)")
        }
        let migrations = runtimes.map(\.migrations)
        let databasePath = (options.dataDirectory as NSString).appendingPathComponent("assistant.sqlite")
        do {
            store = try Store(path: databasePath, migrations: migrations, logger: logger)
        } catch let error as StoreError {
            throw StartupError(.configuration, error.description)
        }

        webDevices = WebDevices(pool: store.pool, clock: options.clock)

        let keySource = VaultKeySource.resolve(
            environment: options.environment, mode: configuration.vault.mode,
            keyFile: configuration.vault.keyFile ?? Paths.vaultKeyFile(environment: options.environment),
            logN: configuration.vault.scryptLogN)
        do {
            vault = try Vault(pool: store.pool, source: keySource, redactor: redactor, clock: options.clock)
        } catch let error as VaultError {
            throw StartupError(.configuration, error.description)
        }

        let sinks = try SinkFactory.make(
            configuration.notify, vault: vault, standardOutput: options.standardOutput, environment: options.environment, clock: options.clock)
        notices = try NoticeCenter(
            pool: store.pool, clock: options.clock, sinks: sinks, redactor: redactor, logger: logger, subscribers: subscribers,
            baseRetryDelay: options.outboxRetryBase, language: configuration.language)
        scheduler = JobScheduler(
            pool: store.pool, clock: options.clock, timeZone: configuration.timeZone, logger: logger, redactor: redactor,
            baseBackoff: options.jobBackoffBase, random: options.jobJitter)

        // The process-wide client: it needs no shutdown, so a host that fails half-way leaks nothing.
        // Plugins bound each request with `context.httpTimeout`. It is the kit's client, which
        // fails a refused connection at once instead of retrying it until the deadline.
        http = UpstreamClient.sharedHTTP

        // Plugins: one supervisor each, with a context scoped to the plugin.
        let pool = store.pool
        let vault = self.vault
        let notices = self.notices
        let scheduler = self.scheduler
        let http = self.http
        let clock = options.clock
        var supervisors: [PluginSupervisor] = []
        for runtime in runtimes {
            let manifest = runtime.manifest
            let section = configuration.plugins[manifest.id] ?? [:]
            var values: [String: JSONValue] = [:]
            for option in manifest.configOptions { values[option.key] = option.defaultValue }
            for (key, value) in section where key != "enabled" { values[key] = value }
            let config = PluginConfig(values)
            let pluginLogger = {
                var l = logger
                l[metadataKey: "plugin"] = "\(manifest.id)"
                return l
            }()
            let timeZone = configuration.timeZone
            let scopedVault = VaultScope(pluginID: manifest.id, vault: vault)
            let notifier = PluginNotifier(pluginID: manifest.id, center: notices, language: configuration.language)
            let accounts = Accounts(pluginID: manifest.id, pool: pool, vault: scopedVault, notifier: notifier, clock: clock)
            let cacheDays = config[ReadCache.cacheDays]
            let cache = ReadCache(pluginID: manifest.id, pool: pool, clock: clock, maxAge: .seconds(cacheDays * 86_400))
            let refresh = RefreshCoordinator(pluginID: manifest.id, pool: pool, scheduler: scheduler, notifier: notifier, clock: clock)
            let background = BackgroundTasks()
            supervisors.append(
                PluginSupervisor(
                    runtime: runtime, accounts: accounts, background: background, enabled: configuration.isEnabled(plugin: manifest.id), clock: clock,
                    logger: logger,
                    redactor: redactor,
                    setupCallWait: options.setupCallWait,
                    makeContext: {
                        PluginContext(
                            pluginID: manifest.id, config: config, vault: scopedVault, database: pool,
                            http: http, httpTimeout: .seconds(configuration.http.timeoutSeconds), notifier: notifier, clock: clock,
                            scheduler: PluginScheduler(pluginID: manifest.id, scheduler: scheduler), timeZone: timeZone,
                            logger: pluginLogger,
                            accounts: accounts, cache: cache, refresh: refresh, background: background)
                    },
                    onReady: { supervisor in
                        let jobs = supervisor.manifest.jobs.map { declared in
                            var job = declared
                            job.schedule = declared.schedule.resolved(with: config)
                            let localID = declared.id
                            return ScheduledJob(id: "\(supervisor.id).\(localID)", descriptor: job) {
                                try await supervisor.runJob(localID)
                            }
                        }
                        try? await scheduler.activate(jobs)
                    },
                    onLeaveReady: { supervisor in await scheduler.deactivate(prefix: supervisor.id + ".") }
                ))
        }
        self.supervisors = supervisors

        let box = HostBox()
        let table = try Self.methodTable(box: box, supervisors: supervisors, version: options.version)
        dispatcher = Dispatcher(methods: table, redactor: redactor, logger: logger)
        server = try RPCServer(
            path: options.socketPath, settings: configuration.socket, dispatcher: dispatcher, subscribers: subscribers, logger: logger,
            activatedDescriptor: options.activatedDescriptor)
        // AssistantHost methods reach the host through this box, set once every stored property is.
        box.host = self
    }

    /// Every method: the host's own, then each plugin's declared commands. Each plugin entry
    /// carries the command's local name, so nothing is matched by string again.
    static func methodTable(box: HostBox, supervisors: [PluginSupervisor], version: String = "test") throws(StartupError) -> MethodTable {
        var table = MethodTable()
        var fromTable: [(name: String, make: @Sendable (MethodTable, String) -> MethodHandler)] = []
        var entries: [MethodEntry] = HostMethods.all.map { method in
            switch method.answer {
            case .atOnce(let answer):
                return MethodEntry(pluginID: "host", descriptor: method.descriptor, handler: .immediate(answer))
            case .fromTable(let make):
                fromTable.append((method.descriptor.name, make))
                // Listed now so that the documents describe it; its handler is made below.
                return MethodEntry(pluginID: "host", descriptor: method.descriptor, handler: .constant(.null, encoded: []))
            case .byHandler:
                let handler = method.command.handler
                return MethodEntry(
                    pluginID: "host", descriptor: method.descriptor,
                    handler: .host({ params, context in
                        guard let host = box.host else { throw RPCError(code: RPCErrorCode.shuttingDown, message: "The daemon is shutting down") }
                        return try await handler(host, params, context)
                    }))
            }
        }
        for supervisor in supervisors {
            for command in supervisor.runtime.declared {
                entries.append(
                    MethodEntry(
                        pluginID: supervisor.id, descriptor: command.descriptor,
                        handler: .plugin(supervisor, command: command.local, handler: command.handler)))
            }
        }
        for entry in entries {
            let added: Result<Void, RegistryError> = Result { () throws(RegistryError) in try table.add(entry) }
            if case .failure(let error) = added { throw StartupError(.configuration, error.description) }
        }
        let whole = table
        for (name, make) in fromTable { table.replaceHandler(of: name, with: make(whole, version)) }
        return table
    }

    /// The plugin's declarations checked and erased; a bad one is a configuration error.
    static func runtime(_ plugin: any AssistantPlugin) throws(StartupError) -> PluginRuntime {
        let result: Result<PluginRuntime, RegistryError> = Result { () throws(RegistryError) in try PluginRuntime(plugin) }
        switch result {
        case .success(let runtime): return runtime
        case .failure(let error): throw StartupError(.configuration, error.description)
        }
    }

    static func checkPluginConfig(_ manifest: PluginManifest, _ section: [String: JSONValue]) throws -> [String] {
        var warnings: [String] = []
        let options = Dictionary(manifest.configOptions.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        for (key, value) in section.sorted(by: { $0.key < $1.key }) where key != "enabled" {
            guard let option = options[key] else {
                warnings.append("unknown key 'plugins.\(manifest.id).\(key)' ignored")
                continue
            }
            do { _ = try ParamValidator.check(value, option.type, name: "plugins.\(manifest.id).\(key)") } catch {
                throw StartupError(.configuration, error.message.replacingOccurrences(of: "Invalid params: ", with: "configuration: "))
            }
        }
        return warnings
    }

    // MARK: Lifecycle

    /// Shortest webhook secret accepted: HMAC-SHA256 signs with a key as long as its output.
    public static let minimumWebhookSecretBytes = 32

    /// A webhook signed with a short secret can be forged by guessing it: a stored one under
    /// 32 bytes stops the start (where the vault is open; `vault.set` refuses one anyway).
    func checkWebhookSecrets() async throws {
        guard await !vault.isLocked else { return }
        for hook in configuration.notify.webhooks {
            let name = "host/webhook/\(hook.name)/secret"
            guard let secret = try await vault.get(name), !secret.isEmpty else { continue }
            if secret.utf8.count < Self.minimumWebhookSecretBytes {
                throw StartupError(
                    .configuration,
                    "the vault entry \(name) is \(secret.utf8.count) bytes; a webhook secret needs at least \(Self.minimumWebhookSecretBytes) "
                        + "(assistantctl vault set \(name) with a longer one, e.g. from openssl rand -hex 32)")
            }
        }
    }

    /// Binds the socket and queues the host jobs and the plugins' setup; nothing runs until
    /// `run()`, but clients may connect (they wait in the backlog).
    public func start() async throws {
        try await checkWebhookSecrets()
        if let files = FileLimit.raiseToHard() {
            options.logger.info("open files limit", metadata: ["soft": "\(files.after)", "was": "\(files.before)"])
        }
        try await server.start()
        try await scheduler.activate(JobMethods.hostJobs(self))
        let language = configuration.language
        await scheduler.onStateFlip { [notices] id, failed, error in
            _ = try? await notices.post(
                NoticeDraft(
                    topic: failed ? "host.job.failed" : "host.job.recovered", plugin: "host",
                    title: (failed ? HostWords.jobFailed : HostWords.jobRecovered).text(language, ["job": id]),
                    body: failed ? (error ?? HostWords.unknownError.text(language)) : HostWords.jobRecoveredBody.text(language),
                    severity: failed ? .warning : .info))
        }
        for supervisor in supervisors { await supervisor.start() }
    }

    /// The daemon's parts as services, in start order. A `ServiceGroup` stops them in reverse:
    /// the server first (no new calls; calls in flight get `shutdown_grace_s`), then the
    /// scheduler, then the plugins (teardown, then their background work is cancelled), and
    /// the outbox last, after one final delivery pass.
    public var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        let notices = self.notices
        let supervisors = self.supervisors
        let scheduler = self.scheduler
        let server = self.server
        let settings = self.settings
        return [
            .init(
                service: HostPart(
                    name: "outbox",
                    run: {
                        await notices.runOutbox()
                        await notices.deliverDue()
                    },
                    stop: { await notices.stop() })),
            .init(
                service: HostPart(
                    name: "plugins",
                    run: {
                        await withDiscardingTaskGroup { group in
                            for supervisor in supervisors { group.addTask { await supervisor.run() } }
                        }
                    },
                    stop: { for supervisor in supervisors { await supervisor.shutdown() } })),
            .init(service: HostPart(name: "scheduler", run: { await scheduler.run() }, stop: { await scheduler.stopAll() })),
            .init(
                service: HostPart(
                    name: "server", run: { try await server.serve() },
                    stop: { await server.stop(grace: settings.withLockedValue { $0.shutdownGrace }) })),
        ]
    }

    private let running = NIOLockedValueBox<RunState>(.idle)
    private enum RunState {
        case idle
        case running(ServiceGroup, ended: [CheckedContinuation<Void, Never>])
        case ended
    }

    /// Runs the host's services, and `alongside` after them (stopped first), until graceful
    /// shutdown (one of `signals`, or `shutdown()`); then stops them in order and closes the store.
    public func run(alongside: [ServiceGroupConfiguration.ServiceConfiguration] = [], signals: [UnixSignal] = []) async throws {
        let group = ServiceGroup(
            configuration: .init(services: services + alongside, gracefulShutdownSignals: signals, logger: options.logger))
        let startNow = running.withLockedValue { state -> Bool in
            guard case .idle = state else { return false }
            state = .running(group, ended: [])
            return true
        }
        guard startNow else { return }
        defer {
            try? store.close()
            let waiting = running.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                defer { state = .ended }
                if case .running(_, let ended) = state { return ended }
                return []
            }
            for waiter in waiting { waiter.resume() }
        }
        try await group.run()
    }

    /// Graceful stop (tests; the daemon stops on a signal): no new calls, calls in flight
    /// finish (bounded), the outbox is flushed once, the socket is removed. Returns once `run()`
    /// has; a host that was started but never run is closed here.
    public func shutdown() async {
        enum Stop {
            case already
            case neverRan
            case running(ServiceGroup)
        }
        let stop = running.withLockedValue { state -> Stop in
            switch state {
            case .idle:
                state = .ended
                return .neverRan
            case .running(let group, _): return .running(group)
            case .ended: return .already
            }
        }
        switch stop {
        case .already: return
        case .neverRan:
            await server.stop(grace: .zero)
            try? store.close()
        case .running(let group):
            await group.triggerGracefulShutdown()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ended = running.withLockedValue { state -> Bool in
                    guard case .running(let group, var ended) = state else { return true }
                    ended.append(continuation)
                    state = .running(group, ended: ended)
                    return false
                }
                if ended { continuation.resume() }
            }
        }
    }

    /// SIGHUP: log level, notification routing and sinks.
    public func reload(_ newConfiguration: HostConfiguration) async throws {
        let sinks = try SinkFactory.make(
            newConfiguration.notify, vault: vault, standardOutput: options.standardOutput, environment: options.environment,
            clock: options.clock)
        await notices.reconfigure(sinks: sinks)
        await scheduler.setTimeZone(newConfiguration.timeZone)
        settings.withLockedValue {
            $0.notify = newConfiguration.notify
            $0.logLevel = newConfiguration.logLevel
            $0.timeZone = newConfiguration.timeZone
        }
    }

    public func supervisor(_ id: String) -> PluginSupervisor? { supervisors.first { $0.id == id } }
}

/// One part of the host as a service: `run` until graceful shutdown, then `stop`, which makes
/// `run` return. A `run` that throws ends the group (the daemon exits); one that returns early
/// waits for the shutdown, since the group stops its services in order.
struct HostPart: Service, CustomStringConvertible {
    let name: String
    let run: @Sendable () async throws -> Void
    let stop: @Sendable () async -> Void

    var description: String { name }

    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await run() }
            group.addTask {
                try await gracefulShutdown()
                await stop()
            }
            // A part that fails ends the group; otherwise both children end after the shutdown.
            while (try await group.next()) != nil {}
        }
    }
}
