import Foundation
import GRDB

/// A domain plugin. `assistantd` lists the plugin instances; HostCore never names one.
///
/// A plugin describes itself (`info`), declares its commands and jobs once, each with its handler
/// (`commands`, `jobs`), and turns a `PluginContext` into its running `Service` in `setup`. The
/// host keeps the service while the plugin is ready and hands it to every handler, so a command
/// without a handler, or a handler without a service, cannot exist.
///
/// The lifecycle mirrors Home Assistant's config entries: `setup` either returns (ready or not
/// configured) or throws `PluginError.notReady` (retried with backoff), `PluginError.needsReauth`
/// (parked until its credentials change) or anything else (failed). A plugin that throws never
/// takes the daemon down.
public protocol AssistantPlugin: Sendable {
    /// What the plugin runs on once set up: its client, store and state.
    associatedtype Service: Sendable

    var info: PluginInfo { get }

    /// Every command, declared once with its handler. Names are local (`flights.add`); the host
    /// adds the `<plugin>.` prefix.
    var commands: [PluginCommand<Service>] { get }

    /// Periodic jobs, declared once with their handler.
    var jobs: [PluginJob<Service>] { get }

    /// Registers the plugin's database migrations; identifiers are namespaced by plugin id.
    func registerMigrations(_ migrations: inout PluginMigrations)

    func setup(_ context: PluginContext) async throws -> PluginSetup<Service>

    /// Called once on shutdown or before a re-setup, with the service `setup` returned.
    func teardown(_ service: Service) async
}

extension AssistantPlugin {
    public var jobs: [PluginJob<Service>] { [] }
    public func registerMigrations(_ migrations: inout PluginMigrations) {}
    public func teardown(_ service: Service) async {}

    /// The whole description, as `help`, `rpc.discover`, the CLI and the README see it: the info
    /// with the declared commands (full names) and jobs.
    public var manifest: PluginManifest { manifest(declaring: commands) }

    package func manifest(declaring commands: [PluginCommand<Service>]) -> PluginManifest {
        let info = self.info
        return PluginManifest(
            id: info.id, version: info.version, summary: info.summary,
            commands: commands.map { command in
                var descriptor = command.descriptor
                descriptor.name = "\(info.id).\(descriptor.name)"
                descriptor.reachesOutside = descriptor.reachesOutside || info.reachesOutside
                return descriptor
            },
            jobs: jobs.map(\.descriptor), topics: info.topics, vaultNames: info.vaultNames,
            configOptions: info.configOptions, errors: info.errors, resources: info.resources, resourcesSetUp: info.resourcesSetUp,
            pages: info.pages)
    }
}

/// Who a plugin is: everything but its commands and jobs, which are declared with their handlers.
public struct PluginInfo: Sendable {
    public var id: String
    public var version: String
    public var summary: String
    public var topics: [TopicDescriptor]
    /// Vault names the plugin reads or writes, relative to its scope (`<printer>/api_key`).
    public var vaultNames: [String]
    public var configOptions: [ConfigOption]
    /// The plugin's own error codes (nil: it sends only the host's).
    public var errors: ErrorBlock?
    /// The views an AI assistant can attach (MCP resources), and what says the plugin is set up
    /// enough to have them (nil: ready is enough).
    public var resources: [ResourceDeclaration]
    public var resourcesSetUp: ResourceDeclaration.SetUp?
    /// Every command talks to a service beyond this machine (`CommandDescriptor.reachesOutside`).
    public var reachesOutside: Bool
    /// Its parts of the web app's pages.
    public var pages: [PageDeclaration]

    /// `topics` is the plugin's topic enum and `options` its configuration keys: the manifest
    /// lists the cases and the keys.
    public init<Topic: PluginTopic, Options: PluginOptions>(
        id: String, version: String, summary: String, topics: Topic.Type = NoTopics.self, errors: ErrorBlock? = nil,
        vaultNames: [String] = [], options: Options.Type = NoOptions.self, resources: [ResourceDeclaration] = [],
        resourcesSetUp: ResourceDeclaration.SetUp? = nil, reachesOutside: Bool = false, pages: [PageDeclaration] = []
    ) {
        self.pages = pages
        self.reachesOutside = reachesOutside
        self.errors = errors
        self.resources = resources
        self.resourcesSetUp = resourcesSetUp
        self.id = id
        self.version = version
        self.summary = summary
        self.topics = Topic.descriptors
        self.vaultNames = vaultNames
        self.configOptions = Options.declared
    }
}

/// What `setup` gives the host.
public enum PluginSetup<Service: Sendable>: Sendable {
    case ready(Service)
    /// The plugin needs configuration or credentials before it can work (not an error).
    case notConfigured(String)
}

public enum PluginError: Error, Sendable, Equatable {
    /// Transient: retried with exponential backoff.
    case notReady(String)
    /// Credentials were refused: the plugin waits until its vault entries change.
    case needsReauth(String)
}

public enum PluginState: String, Sendable, Codable, CaseIterable {
    case setup, ready
    case notConfigured = "not_configured"
    case needsReauth = "needs_reauth"
    case failed, disabled
}

/// Per-call facilities: progress to the caller, the request id, and the caller's connection.
public struct CallContext: Sendable {
    public let method: String
    public let requestID: RPCID?
    public let connection: (any ConnectionHandle)?
    public let logger: Logger
    /// Settles a commit against the call's deadline (see `committing()`).
    public let commitGate: CommitGate

    public init(
        method: String, requestID: RPCID?, connection: (any ConnectionHandle)?, logger: Logger, commitGate: CommitGate = CommitGate()
    ) {
        self.method = method
        self.requestID = requestID
        self.connection = connection
        self.logger = logger
        self.commitGate = commitGate
    }

    /// Call inside a write transaction, as its last step before the commit, in commands whose
    /// work can outlast their time limit (imports, syncs): if the limit already passed, this
    /// throws and the transaction rolls back, so the caller's -32005 is true; otherwise the call
    /// is no longer cut by its limit, so a commit is never reported as a failure.
    public func committing() throws {
        try commitGate.enter()
    }

    /// Sends `{"method":"progress","params":{request_id, message?, done?, total?}}` to the caller.
    public func progress(_ message: String? = nil, done: Int64? = nil, total: Int64? = nil) {
        guard let connection, let requestID else { return }
        var params: [String: JSONValue] = ["request_id": requestID.json]
        if let message { params["message"] = .string(message) }
        if let done { params["done"] = .int(done) }
        if let total { params["total"] = .int(total) }
        connection.sendNotification(method: "progress", params: .object(params))
    }
}

/// Namespaced migrations: a plugin's `register("v1")` becomes `<plugin>/v1` in the shared database.
public struct PluginMigrations: Sendable {
    package let pluginID: String
    package var entries: [(String, @Sendable (Database) throws -> Void)] = []

    public init(pluginID: String) { self.pluginID = pluginID }

    public mutating func register(_ name: String, _ migrate: @escaping @Sendable (Database) throws -> Void) {
        entries.append(("\(pluginID)/\(name)", migrate))
    }

    /// The migrations of a part several plugins share (the study kit's tables), under that part's
    /// own namespace, run before this plugin's next ones; the store runs each identifier once,
    /// whichever plugin includes it first.
    public mutating func include(_ shared: PluginMigrations) {
        entries += shared.entries
    }
}
