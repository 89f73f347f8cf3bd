import Foundation
import GRDB
import PluginKit

/// Tasks and events with recurrence, reminders by stdout and mail, iCalendar files, read-only
/// feeds and two-way CalDAV sync.
public struct TasksPlugin: AssistantPlugin {
    public init() {}

    public var info: PluginInfo { TasksManifest.info }
    public var commands: [PluginCommand<TasksService>] { TasksManifest.commands }
    public var jobs: [PluginJob<TasksService>] { TasksManifest.jobs }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        TasksSchema.register(&migrations)
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<TasksService> {
        await context.accounts.setCommands(
            reauth: { "assistantctl tasks.caldav.add name=\($0) url=… username=… password=… (the same name replaces it)" },
            add: "assistantctl tasks.caldav.add name=… url=… username=… password=…", expiredTopic: TasksTopic.caldavAuthFailed)
        let service = TasksService(context: context)
        try await service.armAllReminders(startup: true)
        return .ready(service)
    }
}

/// The tasks plugin while it runs: the host's facilities and the handlers (in `Commands/`, `Jobs/`).
public final class TasksService: Sendable {
    let context: PluginContext
    let syncLocks = SyncLocks()

    init(context: PluginContext) { self.context = context }

    var database: DatabasePool { context.database }
    var now: Date { context.clock.now }
    var defaultZone: Zone { Zone(context.timeZone) }

    /// `reminder_channels`, or stdout and mail when mail is configured, else stdout.
    func defaultChannels() async -> [String] {
        let configured = context.config[TasksConfig.reminderChannels]
        if !configured.isEmpty { return configured }
        return await context.notifier.mailConfigured ? ["mail", "stdout"] : ["stdout"]
    }

    /// A task as the commands answer it, written straight into the reply (`TaskRow`).
    func row(_ task: TaskItem) async -> TaskRow {
        TaskRow(task, now: now, defaultChannels: await defaultChannels())
    }

    /// Local midnight of a date in the daemon's zone, or an instant.
    func boundary(_ text: String, param: String) throws(RPCError) -> Date {
        let z = defaultZone
        let w = try TimeInput.parse(text, param: param, zone: z)
        return z.instant(w.isDate ? WallTime(year: w.year, month: w.month, day: w.day) : w)
    }
}
