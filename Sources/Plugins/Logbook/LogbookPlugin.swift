import Foundation
import HostCore
import Synchronization

/// The EASA pilot logbook plugin.
public final class LogbookPlugin: AssistantPlugin {
    private let running = Mutex<LogbookService?>(nil)

    public init() {}

    public var manifest: PluginManifest { LogbookManifest.manifest }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        LogbookSchema.register(&migrations)
    }

    public func setup(_ context: PluginContext) async throws -> SetupOutcome {
        // The airport table is compiled in; its small index is built on first use, so the plugin
        // is ready at once and there is no file to miss.
        running.withLock { $0 = LogbookService(context: context) }
        return .ready
    }

    public func call(_ command: String, params: Params, context: CallContext) async throws -> JSONValue {
        guard let service = running.withLock({ $0 }) else { throw PluginError.notReady("the logbook is starting") }
        return try await service.call(command, params: params, context: context)
    }

    public func runJob(_ id: String) async throws {
        guard let service = running.withLock({ $0 }) else { throw PluginError.notReady("the logbook is starting") }
        guard id == "reminders" else { throw RPCError.internalError("unknown job \(id)") }
        try await service.runReminders()
    }

    public func teardown() async {
        running.withLock { $0 = nil }
    }
}

/// The logbook while it runs: the host's facilities and the command handlers (in `Commands/`).
final class LogbookService: Sendable {
    let context: PluginContext

    init(context: PluginContext) { self.context = context }

    var database: DatabasePool { context.database }

    /// Today's UTC date by the host clock (tests drive it).
    var today: Day { Day(context.clock.now) }

    func day(_ params: Params, _ name: String) -> Day? { params.string(name).flatMap { Day($0) } }

    func call(_ command: String, params: Params, context call: CallContext) async throws -> JSONValue {
        switch command {
        case "profile.get": return try await profileGet()
        case "profile.set": return try await profileSet(params)
        case "aircraft.add": return try await aircraftAdd(params)
        case "aircraft.list": return try await aircraftList()
        case "aircraft.update": return try await aircraftUpdate(params)
        case "aircraft.delete": return try await aircraftDelete(params)
        case "flights.add": return try await flightsAdd(params)
        case "flights.get": return try await flightsGet(params)
        case "flights.update": return try await flightsUpdate(params)
        case "flights.delete", "fstd.delete": return try await entryDelete(params, kind: command.hasPrefix("fstd") ? .fstd : nil)
        case "flights.restore": return try await flightsRestore(params)
        case "flights.purge": return try await flightsPurge(params)
        case "flights.list": return try await flightsList(params)
        case "fstd.add": return try await fstdAdd(params)
        case "fstd.list": return try await fstdList(params)
        case "certificates.add": return try await certificatesAdd(params)
        case "certificates.list": return try await certificatesList(params)
        case "certificates.delete": return try await certificatesDelete(params)
        case "airports.search": return try await airportsSearch(params)
        case "airports.add": return try await airportsAdd(params)
        case "totals": return try await totals(params)
        case "totals.starting.set": return try await startingTotalsSet(params)
        case "limits": return try await limits(params)
        case "currency": return try await currency(params)
        case "medical": return try await medical(params)
        case "night": return try await night(params)
        case "import": return try await importFile(params, call: call)
        case "export": return try await export(params)
        case "report.mail": return try await reportMail(params)
        default: throw RPCError.methodNotFound("logbook.\(command)")
        }
    }
}
