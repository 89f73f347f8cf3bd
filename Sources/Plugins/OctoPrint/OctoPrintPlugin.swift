import AsyncHTTPClient
import Foundation
import HostCore
import NIOCore
import NIOHTTP1
import Synchronization

/// OctoPrint printers: every REST function of OctoPrint 1.11.
public final class OctoPrintPlugin: AssistantPlugin {
    private let running = Mutex<OctoPrintService?>(nil)

    public init() {}

    public var manifest: PluginManifest { OctoPrintManifest.manifest }

    public func registerMigrations(_ migrations: inout PluginMigrations) { PrinterStore.register(&migrations) }

    public func setup(_ context: PluginContext) async throws -> SetupOutcome {
        let service = OctoPrintService(context: context)
        running.withLock { $0 = service }
        for printer in try await service.printers() { await service.startLive(printer) }
        return .ready
    }

    public func runJob(_ id: String) async throws {
        guard let service = running.withLock({ $0 }) else { throw PluginError.notReady("OctoPrint is starting") }
        try await service.pollWithoutPush()
    }

    public func call(_ command: String, params: Params, context: CallContext) async throws -> JSONValue {
        guard let service = running.withLock({ $0 }) else { throw PluginError.notReady("OctoPrint is starting") }
        return try await service.call(command, params: params, context: context)
    }

    public func teardown() async {
        let service = running.withLock { s -> OctoPrintService? in
            defer { s = nil }
            return s
        }
        await service?.live.stopAll()
    }
}

final class OctoPrintService: Sendable {
    let context: PluginContext
    let rest: [String: RESTCommand]
    let live = LiveMonitor()

    init(context: PluginContext) {
        self.context = context
        rest = Dictionary(uniqueKeysWithValues: RESTCatalog.all.map { ($0.name, $0) })
    }

    var limits: TemperatureLimits {
        TemperatureLimits(
            tool: context.config.double("max_tool_temp") ?? 300, bed: context.config.double("max_bed_temp") ?? 120,
            chamber: context.config.double("max_chamber_temp") ?? 80)
    }

    func printers() async throws -> [Printer] { try await context.database.read { db in try PrinterStore.all(db) } }

    func client(for printer: Printer) async throws -> OctoPrintClient {
        if let problem = printer.problem {
            throw RPCError(
                code: RPCErrorCode.pluginNotReady,
                message: "Printer '\(printer.name)' cannot be used: \(problem); fix it with assistantctl octoprint.printers.update name=\(printer.name) ca_file=…",
                data: ["plugin": "octoprint", "account": .string(printer.name), "state": "failed", "detail": .string(problem)])
        }
        return OctoPrintClient(
            printer: printer, apiKey: try await context.vault.get(Printer.keyName(printer.name)),
            basicPassword: try await context.vault.get(Printer.basicPasswordName(printer.name)), http: context.http,
            timeout: context.httpTimeout)
    }

    func client(_ params: Params) async throws -> OctoPrintClient {
        try await client(for: try PrinterStore.resolve(try await printers(), params.string("printer")))
    }

    func call(_ command: String, params: Params, context call: CallContext) async throws -> JSONValue {
        if let r = rest[command] {
            // Everything is checked before anything is sent.
            let path = try r.path(params)
            let body = try r.body?(params, limits)
            let client = try await client(params)
            return OctoPrintClient.result(
                try await client.call(r.method, path, query: r.query(params), body: body, conflict: r.conflict, notFound: r.onNotFound?(params)))
        }
        switch command {
        case "printers.add": return try await printersAdd(params)
        case "printers.request_key": return try await requestKey(params, call: call)
        case "discover":
            let found = try await Discovery.browse(
                interface: params.string("interface"), timeout: .milliseconds(Int64((params.double("timeout_s") ?? 3) * 1000)))
            return ["printers": .array(found)]
        case "printers.list": return ["printers": .array(try await printers().map(\.json))]
        case "printers.update": return try await printersUpdate(params)
        case "printers.remove": return try await printersRemove(params)
        case "printers.default": return try await printersDefault(params)
        case "status": return try await status(params)
        case "files.upload": return try await upload(params, call: call)
        case "files.mkdir": return try await mkdir(params)
        case "files.download":
            return try await download(params, path: "/downloads/files/\(params.string("location") ?? "local")/\(REST.encoded(try REST.required(params, "path")))")
        case "timelapse.download": return try await download(params, path: "/downloads/timelapse/\(REST.encoded(try REST.required(params, "name")))")
        case "webcam.info": return try await webcamInfo(params)
        case "webcam.snapshot": return try await webcamSnapshot(params)
        case "webcam.frames": return try await webcamFrames(params)
        case "logs.download": return try await download(params, path: "/downloads/logs/\(REST.encoded(try REST.required(params, "name")))")
        default: throw RPCError.methodNotFound("octoprint.\(command)")
        }
    }
}
