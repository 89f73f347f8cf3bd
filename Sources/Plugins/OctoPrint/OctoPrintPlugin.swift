import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PluginKit

/// OctoPrint printers: every REST function of OctoPrint 1.11.
public struct OctoPrintPlugin: AssistantPlugin {
    public init() {}

    public var info: PluginInfo { OctoPrintManifest.info }
    public var commands: [PluginCommand<OctoPrintService>] { OctoPrintManifest.commands }
    public var jobs: [PluginJob<OctoPrintService>] { OctoPrintManifest.jobs }

    public func registerMigrations(_ migrations: inout PluginMigrations) { PrinterStore.register(&migrations) }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<OctoPrintService> {
        let service = OctoPrintService(context: context)
        for printer in try await service.printers() {
            // A printer whose CA file went missing is reported (status, the log) and skipped; the
            // others, and the plugin, work on.
            if let problem = printer.problem {
                context.logger.warning("printer cannot be used", metadata: ["printer": "\(printer.name)", "problem": "\(problem)"])
                try await context.accounts.markFailed(printer.name, reason: problem)
                continue
            }
            try await context.accounts.markReady(printer.name)
            await service.startLive(printer)
        }
        return .ready(service)
    }

    public func teardown(_ service: OctoPrintService) async {
        await service.live.stopAll()
    }
}

public final class OctoPrintService: Sendable {
    let context: PluginContext
    let live: LiveMonitor

    init(context: PluginContext) {
        self.context = context
        live = LiveMonitor(background: context.background)
    }

    var limits: TemperatureLimits {
        TemperatureLimits(
            tool: context.config[OctoPrintConfig.maxToolTemp], bed: context.config[OctoPrintConfig.maxBedTemp],
            chamber: context.config[OctoPrintConfig.maxChamberTemp])
    }

    func printers() async throws -> [Printer] { try await context.accounts.list().map(Printer.init(account:)) }

    func client(for printer: Printer) async throws -> OctoPrintClient {
        if let problem = printer.problem {
            throw RPCError(
                code: RPCErrorCode.pluginNotReady,
                message:
                    "Printer '\(printer.name)' cannot be used: \(problem); "
                    + "fix it with assistantctl octoprint.printers.update name=\(printer.name) ca_file=…",
                data: ["plugin": "octoprint", "account": .string(printer.name), "state": "failed", "detail": .string(problem)])
        }
        return OctoPrintClient(
            printer: printer, apiKey: try await context.vault.get(Printer.keyName(printer.name)),
            basicPassword: try await context.vault.get(Printer.basicPasswordName(printer.name)), http: context.http,
            timeout: context.httpTimeout)
    }

    func client(_ params: Params) async throws -> OctoPrintClient {
        try await client(for: try PrinterStore.resolve(try await printers(), params[OctoPrintParams.printer]))
    }

    /// One OctoPrint REST call: everything is checked before anything is sent.
    func rest(_ r: RESTCommand, _ params: Params) async throws -> JSONValue {
        let path = try r.path(params)
        let body = try r.body?(params, limits)
        let client = try await client(params)
        return OctoPrintClient.result(
            try await client.call(r.method, path, query: r.query(params), body: body, conflict: r.conflict, notFound: r.onNotFound?(params)))
    }
}
