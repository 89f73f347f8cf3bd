import Foundation
import GRDB
import PluginKit
import StudyKit

/// IS/STAG for students and teachers: timetable, exam terms with registration, grades and
/// results, subject and teacher details, the year's calendar, the ZČU canteen, and notices when
/// something appears. One account per university login.
public struct StagPlugin: AssistantPlugin {
    public init() {}

    public var info: PluginInfo { StagManifest.info }
    public var commands: [PluginCommand<StagService>] { StagManifest.commands }
    public var jobs: [PluginJob<StagService>] { StagManifest.jobs }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        migrations.include(ExamWatches.migrations)
        StagSchema.register(&migrations)
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<StagService> {
        await context.accounts.setCommands(
            reauth: { "assistantctl stag.login account=\($0) university=… (or base_url=…)" },
            add: "assistantctl stag.login university=zcu")
        let service = StagService(context: context)
        // The reminders of the classes read before the restart, before STAG is asked again.
        try await service.classReminders.restore()
        return .ready(service)
    }

    public func teardown(_ service: StagService) async {
        await service.logins.cancelAll()
    }
}

/// The Stag plugin while it runs.
public final class StagService: Sendable {
    let context: PluginContext
    let logins: PendingLogins
    let classReminders: ClassReminders<StagTopic>

    init(context: PluginContext) {
        self.context = context
        logins = PendingLogins(clock: context.clock, background: context.background)
        classReminders = ClassReminders(
            context: context, zone: Self.zone(context.config), topic: .classSoon, minutesBefore: { context.config[StudyOptions.classReminderMin] })
    }

    var accounts: Accounts { context.accounts }
    var language: String { context.config[StagConfig.language] }
    var zone: TimeZone { Self.zone(context.config) }
    static func zone(_ config: PluginConfig) -> TimeZone {
        TimeZone(identifier: config[StagConfig.timeZone]) ?? TimeZone(identifier: "Europe/Prague")!
    }
    var today: DateOnly { DateOnly(context.clock.now, in: zone) }

    /// A usable account (-32003 when it needs a new login) with its client and roles.
    func session(_ name: String?) async throws -> StagSession {
        let account = try await accounts.usable(name)
        guard let ticket = try await accounts.secret(account.name, "ticket") else {
            // The vault lost the ticket (restored without it): the account needs a new login, and
            // asking again gives the -32003 that says so.
            try await accounts.needsReauth(account.name, reason: "no ticket is stored")
            return try await session(account.name)
        }
        return try session(account, ticket: ticket)
    }

    func session(_ account: Accounts.Account, ticket: String?) throws -> StagSession {
        let stored = StagAccountSettings(account)
        let base = stored.baseURL ?? ""
        let accounts = self.accounts
        let name = account.name
        let logger = context.logger
        let client = try StagClient(
            account: name, base: base, ticket: ticket, language: language, context: context,
            onReauthNeeded: { reason in
                // The call fails with -32003 either way; a flip whose notice could not be posted
                // is logged, not lost without a trace.
                do {
                    try await accounts.needsReauth(name, reason: "STAG refused the ticket: \(reason)")
                } catch {
                    logger.warning(
                        "stag: the re-auth notice was not posted", metadata: ["account": "\(name)", "error": "\(ErrorText.sentence(error))"])
                }
            })
        return StagSession(account: name, client: client, roles: stored.roles)
    }

    /// A typed read through the kit's offline cache: the answer, then `stale` and `fetched_at`.
    func cachedModel<Value: Codable & Sendable>(
        _ session: StagSession, _ command: String, _ params: [String: JSONValue], fresherThan: Duration? = nil,
        _ fetch: () async throws -> Value
    ) async throws -> Cached<Value> {
        try await context.cache.read(account: session.account, key: ReadCache.key(command, params), fresherThan: fresherThan, fetch)
    }
}

/// One account's client with the roles it may act as.
struct StagSession: Sendable {
    var account: String
    var client: StagClient
    var roles: [StagRole]

    func student() throws(RPCError) -> StagRole {
        guard let role = roles.first(where: \.isStudent) else { throw StagError.noRole(account, "student").rpcError }
        return role
    }

    func teacher() throws(RPCError) -> StagRole {
        guard let role = roles.first(where: \.isTeacher) else { throw StagError.noRole(account, "teacher").rpcError }
        return role
    }
}
