import Foundation
import GRDB
import HostCore

/// CTU's KOSapi for a student: OAuth login through the loopback capture, the timetable by week
/// parity, courses, results, exams, people search and notices.
///
/// In progress (issue 13): the OAuth side is built and tested; the KOSapi commands are not yet,
/// so the plugin is not listed in `PluginList.swift`.
public struct KOSPlugin: AssistantPlugin {
    public init() {}

    public var info: PluginInfo { KOSManifest.info }
    public var commands: [PluginCommand<KOSService>] { KOSManifest.commands }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        KOSSchema.register(&migrations)
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<KOSService> {
        .ready(KOSService(context: context))
    }

    public func teardown(_ service: KOSService) async {
        await service.logins.cancelAll()
    }
}

enum KOSConfig {
    static let language = ConfigKey<String>("language", .oneOf(["cs", "en"]), default: "cs", help: "language of KOS's names and texts")
    static var all: [ConfigOption] { [language.option] }
}

/// The KOS plugin while it runs.
public final class KOSService: Sendable {
    let context: PluginContext
    let logins: PendingLogins
    let tokens: TokenKeeper

    init(context: PluginContext) {
        self.context = context
        logins = PendingLogins(clock: context.clock)
        tokens = TokenKeeper(context: context)
    }
}
