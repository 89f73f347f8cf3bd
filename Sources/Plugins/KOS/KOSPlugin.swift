import Foundation
import GRDB
import PluginKit
import StudyKit

/// CTU's KOSapi for a student: OAuth login through the loopback capture, the timetable by week
/// parity, courses, results, exams and course events, people search, study-office hours, a
/// calendar export, and notices when a new exam appears, a seat frees or an exam is tomorrow.
public struct KOSPlugin: AssistantPlugin {
    public init() {}

    public var info: PluginInfo { KOSManifest.info }
    public var commands: [PluginCommand<KOSService>] { KOSManifest.commands }
    public var jobs: [PluginJob<KOSService>] { KOSManifest.jobs }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        migrations.include(ExamWatches.migrations)
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
        let calendars: SemesterCalendars
        switch SemesterCalendars.configured(context.config[KOSConfig.calendar]) {
        case .success(let configured): calendars = configured
        case .failure(let problem): return .notConfigured("[plugins.kos] \(problem.message)")
        }
        await context.accounts.setCommands(
            reauth: { _ in TokenKeeper.fix }, add: TokenKeeper.fix, expiredTopic: KOSTopic.authExpired)
        let service = KOSService(context: context, grid: grid, calendars: calendars)
        try await service.tokens.adoptEarlierLogin()
        // The reminders of the classes read before the restart, before KOSapi is asked again.
        try await service.classReminders.restore()
        return .ready(service)
    }

    public func teardown(_ service: KOSService) async {
        await service.logins.cancelAll()
    }
}

/// The KOS plugin while it runs.
public final class KOSService: Sendable {
    let context: PluginContext
    let logins: PendingLogins
    let tokens: TokenKeeper
    let grid: HourGrid
    let calendars: SemesterCalendars
    let classReminders: ClassReminders<KOSTopic>

    /// CTU's wall clock: dates and times in results are Prague time.
    static let zone = TimeZone(identifier: "Europe/Prague")!

    init(context: PluginContext, grid: HourGrid, calendars: SemesterCalendars) {
        self.context = context
        self.grid = grid
        self.calendars = calendars
        logins = PendingLogins(clock: context.clock, background: context.background)
        tokens = TokenKeeper(context: context)
        classReminders = ClassReminders(
            context: context, zone: Self.zone, topic: .classSoon, minutesBefore: { context.config[StudyOptions.classReminderMin] })
    }

    var today: DateOnly { DateOnly(context.clock.now, in: Self.zone) }

    /// The teaching weeks, exam period and holidays of the semester `code` starting on `kosStart`.
    func schedule(code: String, kosStart: DateOnly) -> SemesterSchedule {
        calendars.schedule(
            code: code, kosStart: kosStart, defaults: (context.config[KOSConfig.firstWeekParity], context.config[KOSConfig.teachingWeeks]))
    }
}
