import Foundation
import GRDB

/// A domain plugin. `assistantd` lists the plugin instances; HostCore never names one.
///
/// The lifecycle mirrors Home Assistant's config entries: `setup` either returns (ready or not
/// configured) or throws `PluginError.notReady` (retried with backoff), `PluginError.needsReauth`
/// (parked until its credentials change) or anything else (failed). A plugin that throws never
/// takes the daemon down.
public protocol AssistantPlugin: Sendable {
    var manifest: PluginManifest { get }

    /// Registers the plugin's database migrations; identifiers are namespaced by plugin id.
    func registerMigrations(_ migrations: inout PluginMigrations)

    func setup(_ context: PluginContext) async throws -> SetupOutcome

    /// Runs one of the plugin's commands with parameters already validated against the manifest.
    func call(_ command: String, params: Params, context: CallContext) async throws -> JSONValue

    /// Runs one of the plugin's periodic jobs (by its local id).
    func runJob(_ id: String) async throws

    /// Called once on shutdown or before a re-setup.
    func teardown() async
}

extension AssistantPlugin {
    public func registerMigrations(_ migrations: inout PluginMigrations) {}
    public func runJob(_ id: String) async throws {
        throw RPCError.internalError("job '\(id)' is declared but not implemented")
    }
    public func teardown() async {}
}

public enum SetupOutcome: Sendable, Equatable {
    case ready
    /// The plugin needs configuration or credentials before it can work (not an error).
    case notConfigured(String)
}

public enum PluginError: Error, Sendable, Equatable {
    /// Transient: retried with exponential backoff.
    case notReady(String)
    /// Credentials were refused: the plugin waits until its vault entries change.
    case needsReauth(String)
}

public enum PluginState: String, Sendable, Codable {
    case setup, ready, notConfigured = "not_configured", needsReauth = "needs_reauth", failed, disabled
}

/// Per-call facilities: progress to the caller, the request id, and the caller's connection.
public struct CallContext: Sendable {
    public let method: String
    public let requestID: RPCID?
    public let connection: (any ConnectionHandle)?
    public let logger: Logger

    public init(method: String, requestID: RPCID?, connection: (any ConnectionHandle)?, logger: Logger) {
        self.method = method
        self.requestID = requestID
        self.connection = connection
        self.logger = logger
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
public struct PluginMigrations {
    let pluginID: String
    var entries: [(String, @Sendable (Database) throws -> Void)] = []

    public init(pluginID: String) { self.pluginID = pluginID }

    public mutating func register(_ name: String, _ migrate: @escaping @Sendable (Database) throws -> Void) {
        entries.append(("\(pluginID)/\(name)", migrate))
    }
}
