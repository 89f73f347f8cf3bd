import Foundation
import PluginKit

/// The EASA pilot logbook plugin.
public struct LogbookPlugin: AssistantPlugin {
    public init() {}

    public var info: PluginInfo { LogbookManifest.info }
    public var commands: [PluginCommand<LogbookService>] { LogbookManifest.commands }
    public var jobs: [PluginJob<LogbookService>] { LogbookManifest.jobs }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        LogbookSchema.register(&migrations)
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<LogbookService> {
        // The airport table is compiled in; its small index is built on first use, so the plugin
        // is ready at once and there is no file to miss.
        .ready(LogbookService(context: context))
    }
}

/// The logbook while it runs: the host's facilities and the command handlers (in `Commands/`).
public final class LogbookService: Sendable {
    let context: PluginContext

    init(context: PluginContext) { self.context = context }

    var database: DatabasePool { context.database }

    /// Today's UTC date by the host clock (tests drive it).
    var today: Day { Day(context.clock.now) }

    func day(_ params: Params, _ key: Param<String>) -> Day? { params[key].flatMap { Day($0) } }
}
