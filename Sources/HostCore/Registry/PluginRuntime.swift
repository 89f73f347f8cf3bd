/// A plugin with its service type erased, so that one host holds plugins of different services.
/// Built once per plugin from its declarations; the handlers get back the service type `setup`
/// produced.
struct PluginRuntime: Sendable {
    enum Setup: Sendable {
        case ready(any Sendable)
        case notConfigured(String)
    }

    typealias Handler = PluginHandler

    let manifest: PluginManifest
    /// Each declared command's local name (`flights.add`) with its full descriptor and its
    /// handler, in order.
    let declared: [(local: String, descriptor: CommandDescriptor, handler: Handler)]
    let migrations: PluginMigrations
    let jobs: [String: @Sendable (any Sendable) async throws -> Void]
    let setup: @Sendable (PluginContext) async throws -> Setup
    let teardown: @Sendable (any Sendable) async -> Void

    init<Plugin: AssistantPlugin>(_ plugin: Plugin) throws(RegistryError) {
        let declarations = plugin.commands
        let manifest = plugin.manifest(declaring: declarations)
        self.manifest = manifest
        if let errors = manifest.errors {
            guard ErrorBlock.pluginSpace.contains(errors.range.lowerBound), ErrorBlock.pluginSpace.contains(errors.range.upperBound) else {
                throw .errorBlockOutsidePluginSpace(errors.range, plugin: manifest.id)
            }
            if let stray = errors.codes.keys.sorted().first(where: { !errors.range.contains($0) }) {
                throw .errorCodeOutsideBlock(stray, errors.range, plugin: manifest.id)
            }
        }
        var migrations = PluginMigrations(pluginID: manifest.id)
        plugin.registerMigrations(&migrations)
        self.migrations = migrations
        var declared: [(local: String, descriptor: CommandDescriptor, handler: Handler)] = []
        var names = Set<String>()
        for (command, descriptor) in zip(declarations, manifest.commands) {
            let name = command.descriptor.name
            guard Self.isValidName(name) else { throw .badMethodName(name, plugin: manifest.id) }
            guard names.insert(name).inserted else { throw .duplicateMethod("\(manifest.id).\(name)", first: manifest.id, second: manifest.id) }
            let handler = command.handler
            declared.append(
                (
                    name, descriptor,
                    { service, params, call in
                        try await handler(try Self.cast(service, to: Plugin.Service.self, plugin: manifest.id), params, call)
                    }
                ))
        }
        self.declared = declared
        var jobs: [String: @Sendable (any Sendable) async throws -> Void] = [:]
        for job in plugin.jobs {
            let id = job.descriptor.id
            guard !id.isEmpty, !id.contains("."), jobs[id] == nil else { throw .badJobID(id, plugin: manifest.id) }
            let handler = job.handler
            jobs[id] = { service in try await handler(try Self.cast(service, to: Plugin.Service.self, plugin: manifest.id)) }
        }
        self.jobs = jobs
        setup = { context in
            switch try await plugin.setup(context) {
            case .ready(let service): .ready(service)
            case .notConfigured(let why): .notConfigured(why)
            }
        }
        teardown = { service in
            guard let service = service as? Plugin.Service else { return }
            await plugin.teardown(service)
        }
    }

    /// `area.verb` names: lower-case letters, digits and `_`, in dot-separated parts.
    static func isValidName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty && part.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
            }
    }

    private static func cast<Service>(_ service: any Sendable, to: Service.Type, plugin: String) throws -> Service {
        guard let typed = service as? Service else {
            throw RPCError.internalError("plugin '\(plugin)' holds a \(type(of: service)), not its \(Service.self)")
        }
        return typed
    }
}
