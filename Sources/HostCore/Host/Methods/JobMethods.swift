/// The periodic jobs: the host's own, and each plugin's as the scheduler runs them.
enum JobMethods {
    static let all: [HostMethod] = [list, run]

    static let list = HostMethod(
        HostCommand("jobs.list", "Periodic jobs with last and next run and last outcome", effect: .read) { host, _, _ in
            Rows(await host.scheduler.list())
        }
        .view(
            ResultView(
                columns: [
                    .init("id", "JOB"), .init("last_outcome", "LAST"), .init("last_run", "RAN", .when, optional: true),
                    .init("next_run", "NEXT", .when), .init("last_error", "ERROR"),
                ], highlights: [.init("last_outcome", is: "failed", .red), .init("last_outcome", is: "timeout", .red)])))

    static let run = HostMethod(
        HostCommand(
            "jobs.run", "Run a job now (refused while it is already running)", params: [HostParams.jobID],
            result: JobStatus.resultSchema.described("the job's status after the run"), example: "assistantctl jobs.run id=host.prune",
            // A job keeps its own time limit; the call outlasts the longest.
            timeout: .seconds(3600), effect: .write
        ) { host, params, _ in try await host.scheduler.runNow(try params[HostParams.jobID]) }.says(
            "Ran {id}: {last_outcome}[ ({last_error})][; next run {next_run:when}]", "Ran {id}[; next run {next_run:when}]"))

    /// The host's own jobs.
    static func hostJobs(_ host: AssistantHost) -> [ScheduledJob] {
        let notices = host.notices
        let settings = host.settings
        return [
            ScheduledJob(
                id: "host.prune",
                descriptor: JobDescriptor(
                    id: "prune", summary: "Delete notices, delivered outbox rows and dedupe keys past the retention",
                    schedule: .daily(hour: 3, minute: 30), jitter: .seconds(600))
            ) {
                _ = try await notices.prune(olderThan: settings.withLockedValue { $0.store.retentionDays })
            }
        ]
    }
}
