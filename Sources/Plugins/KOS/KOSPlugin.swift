import Foundation
import GRDB
import PluginKit

/// CTU's KOSapi for a student: OAuth login through the loopback capture, the timetable by week
/// parity, courses, results, exams and course events, people search, study-office hours, a
/// calendar export, and notices when a new exam appears, a seat frees or an exam is tomorrow.
public struct KOSPlugin: AssistantPlugin {
    public init() {}

    public var info: PluginInfo { KOSManifest.info }
    public var commands: [PluginCommand<KOSService>] { KOSManifest.commands }
    public var jobs: [PluginJob<KOSService>] { KOSManifest.jobs }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        KOSSchema.register(&migrations)
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<KOSService> {
        // A grid that cannot be read would put every slot at the wrong time: say so instead.
        let grid: HourGrid
        switch HourGrid.configured(context.config[KOSConfig.hourGrid], minutes: Int(context.config[KOSConfig.hourMinutes])) {
        case .success(let configured): grid = configured
        case .failure(let problem): return .notConfigured("[plugins.kos] \(problem.message)")
        }
        if case .failure(let problem) = KOSService.officeHours(context.config[KOSConfig.officeHours]) {
            return .notConfigured("[plugins.kos] \(problem.message)")
        }
        await context.accounts.setCommands(
            reauth: { _ in TokenKeeper.fix }, add: TokenKeeper.fix, expiredTopic: KOSTopic.authExpired)
        let service = KOSService(context: context, grid: grid)
        try await service.tokens.adoptEarlierLogin()
        // The reminders of the classes read before the restart, before KOSapi is asked again.
        try await service.classReminders.restore()
        return .ready(service)
    }

    public func teardown(_ service: KOSService) async {
        await service.logins.cancelAll()
    }
}

@dynamicMemberLookup
struct KOSConfig: PluginOptions {
    let language = ConfigKey<String>("language", .oneOf(["cs", "en"]), default: "cs", help: "language of KOS's names and texts")
    let hourGrid = ConfigKey<[String]>(
        "hour_grid", .array(of: .string), default: HourGrid.fit.starts,
        help: "the start (HH:MM) of each teaching hour, 1 first; FIT's grid by default")
    let hourMinutes = ConfigKey<Int64>("hour_minutes", .integer(min: 1, max: 240), default: 45, help: "how long one teaching hour lasts")
    let firstWeekParity = ConfigKey<String>(
        "first_week_parity", .oneOf(["odd", "even"]), default: "odd", help: "the parity of the semester's first teaching week (kos.export.ics)")
    let teachingWeeks = ConfigKey<Int64>(
        "teaching_weeks", .integer(min: 1, max: 26), default: 13, help: "how many teaching weeks a semester has, from its start (kos.export.ics)")
    let officeHours = ConfigKey<JSONValue>(
        "office_hours", .object, default: [:], help: "the study office's hours, a table of weekday (monday … sunday) → hours text (kos.office)")
    let icsPath = ConfigKey<String>(
        "ics_path", .path, default: "", help: "when set, each kos.refresh rewrites this .ics file with the semester's timetable and my exams")
    let refreshEveryMin = ConfigKey<Int64>(
        "refresh_every_min", .integer(min: 1, max: 1440), default: 30, help: "how often kos.refresh looks for new exams, course events and results")
    let watchEveryMin = ConfigKey<Int64>(
        "watch_every_min", .integer(min: 1, max: 1440), default: 2, help: "how often a watched full exam is checked for a free seat")
    let eveningAt = ConfigKey<String>("evening_at", .string, default: "18:00", help: "when the kos.exam.tomorrow notice is sent (HH:MM)")
    let kosURL = ConfigKey<String>(
        "kos_url", .string, default: "https://www.kos.cvut.cz", help: "the KOS web application, where registration happens (linked from notices)")
    /// The kit's read cache keeps answers this long.
    let cacheDays = ReadCache.cacheDays
    let classReminderMin = StudyOptions.classReminderMin
    let signupWarningH = StudyOptions.signupWarningH
}

/// The KOS plugin while it runs.
public final class KOSService: Sendable {
    let context: PluginContext
    let logins: PendingLogins
    let tokens: TokenKeeper
    let grid: HourGrid
    let classReminders: ClassReminders<KOSTopic>

    /// CTU's wall clock: dates and times in results are Prague time.
    static let zone = TimeZone(identifier: "Europe/Prague")!

    init(context: PluginContext, grid: HourGrid) {
        self.context = context
        self.grid = grid
        logins = PendingLogins(clock: context.clock, background: context.background)
        tokens = TokenKeeper(context: context)
        classReminders = ClassReminders(
            context: context, zone: Self.zone, topic: .classSoon, minutesBefore: { context.config[StudyOptions.classReminderMin] })
    }

    var today: DateOnly { DateOnly(context.clock.now, in: Self.zone) }
}
