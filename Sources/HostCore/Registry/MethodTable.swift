/// A plugin command's handler over the plugin's running service.
public typealias PluginHandler = @Sendable (any Sendable, Params, CallContext) async throws -> any CallResult

/// How a method is carried out: by a plugin, through its supervisor, or by the host itself.
public enum MethodHandler: Sendable {
    /// A plugin's command: its local name (`flights.add`, for messages) and its handler, found
    /// once when the table is built, so a call looks nothing up again.
    case plugin(PluginSupervisor, command: String, handler: PluginHandler)
    case host(@Sendable (Params, CallContext) async throws -> any CallResult)
    /// A host method that never suspends (`ping`): answered at once, on the event loop, with no
    /// child task (see `Dispatcher.immediateReply`).
    case immediate(@Sendable (Params) throws -> JSONValue)
    /// A result that never changes while the daemon runs (`rpc.discover`), encoded once: the
    /// reply is its bytes. It holds only what the manifests say, never a secret, so it needs no
    /// scrubbing.
    case constant(JSONValue, encoded: [UInt8])
}

public struct MethodEntry: Sendable {
    public let pluginID: String
    public let descriptor: CommandDescriptor
    public let handler: MethodHandler
}

public enum RegistryError: Error, CustomStringConvertible, Equatable {
    case duplicatePlugin(String)
    case duplicateMethod(String, first: String, second: String)
    case badMethodName(String, plugin: String)
    case badJobID(String, plugin: String)
    case errorBlockOutsidePluginSpace(ClosedRange<Int>, plugin: String)
    case errorCodeOutsideBlock(Int, ClosedRange<Int>, plugin: String)
    case errorBlocksOverlap(String, String)

    public var description: String {
        switch self {
        case .duplicatePlugin(let id): "two plugins have the id '\(id)'"
        case .duplicateMethod(let name, let first, let second): "method '\(name)' is declared by both '\(first)' and '\(second)'"
        case .badMethodName(let name, let plugin):
            "plugin '\(plugin)' declares a command '\(name)'; "
                + "command names are lower-case dotted words such as 'flights.add' (the host adds '\(plugin).')"
        case .badJobID(let id, let plugin): "plugin '\(plugin)' declares job '\(id)'; job ids are plain names such as 'sync'"
        case .errorBlockOutsidePluginSpace(let range, let plugin):
            "plugin '\(plugin)' declares error codes \(range.lowerBound)…\(range.upperBound); "
                + "a plugin's block lies within \(ErrorBlock.pluginSpace.lowerBound)…\(ErrorBlock.pluginSpace.upperBound)"
        case .errorCodeOutsideBlock(let code, let range, let plugin):
            "plugin '\(plugin)' declares error code \(code), outside its block \(range.lowerBound)…\(range.upperBound)"
        case .errorBlocksOverlap(let first, let second): "plugins '\(first)' and '\(second)' declare overlapping error code blocks"
        }
    }
}

/// Every method the daemon answers, built once at start-up from the manifests.
public struct MethodTable: Sendable {
    public private(set) var entries: [String: MethodEntry] = [:]

    public init() {}

    public mutating func add(_ entry: MethodEntry) throws(RegistryError) {
        let name = entry.descriptor.name
        if let existing = entries[name] {
            throw .duplicateMethod(name, first: existing.pluginID, second: entry.pluginID)
        }
        entries[name] = entry
    }

    public subscript(name: String) -> MethodEntry? { entries[name] }

    /// Gives a method another handler (one built from the finished table, such as its own document).
    mutating func replaceHandler(of name: String, with handler: MethodHandler) {
        guard let entry = entries[name] else { return }
        entries[name] = MethodEntry(pluginID: entry.pluginID, descriptor: entry.descriptor, handler: handler)
    }

    public var sortedNames: [String] { entries.keys.sorted() }
}
