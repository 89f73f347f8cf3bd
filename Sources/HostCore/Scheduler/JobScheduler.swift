import Foundation
import GRDB
import HeapModule
import Logging
import NIOConcurrencyHelpers

/// A job as `jobs.list`, `jobs.run` and `status` show it.
public struct JobStatus: Sendable, Equatable, CallResult, ResultObject {
    public var id: String
    public var summary: String
    public var schedule: String
    public var running: Bool
    public var lastRun: String?
    public var lastSuccess: String?
    public var lastOutcome: String?
    public var lastError: String?
    public var consecutiveFailures: Int
    public var nextRun: String?

    public static let members = ResultMembers<Self>(
        .field("id", \.id, "<plugin>.<job>"), .field("summary", \.summary), .field("schedule", \.schedule), .field("running", \.running),
        .omittedWhenNil("last_run", \.lastRun, .dateTime), .omittedWhenNil("last_success", \.lastSuccess, .dateTime),
        .omittedWhenNil("last_outcome", \.lastOutcome, "ok, failed or timed out"), .omittedWhenNil("last_error", \.lastError),
        .field("consecutive_failures", \.consecutiveFailures), .omittedWhenNil("next_run", \.nextRun, .dateTime))
}

public struct JobTimeoutError: Error, CustomStringConvertible {
    public var description: String { "the job did not finish within its timeout" }
}

/// Periodic jobs and exact-time one-shots on an injectable clock.
///
/// Semantics follow systemd timers: a job never overlaps itself (a run that falls due while the
/// previous one is going is skipped); after downtime an overdue job runs once, not once per missed
/// slot; every run gets fresh random jitter. Failures back off exponentially, capped at the
/// interval, and are logged (and noticed) only when the state flips.
public actor JobScheduler {
    private struct JobState {
        var job: ScheduledJob
        var lastRun: Date?
        var lastSuccess: Date?
        var lastOutcome: String?
        var lastError: String?
        var failures = 0
        var nextRun: Date
        var running = false
        var loop: BackgroundTasks.Handle?
        /// Woken when a run ends, so the loop waits out a manual run instead of spinning.
        let runEnded = Waker()
    }

    private let pool: DatabasePool
    private let clock: any HostClock
    private var timeZone: TimeZone
    private let logger: Logger
    private let redactor: SecretRedactor
    private var jobs: [String: JobState] = [:]
    /// One-shots cost memory, not tasks: the armed ones by id, a heap of their deadlines
    /// (entries of replaced or cancelled ones are skipped when they surface), and one loop that
    /// sleeps until the earliest and runs what is due as child tasks.
    private var oneShots: [String: OneShot] = [:]
    private var oneShotQueue = Heap<QueuedOneShot>()
    private var oneShotCounter: UInt64 = 0
    private var oneShotLoop: BackgroundTasks.Handle?
    /// The job loops and the one-shot loop, as children of `run()`.
    private nonisolated let loops = BackgroundTasks()
    private let oneShotWaker = Waker()
    private let random: @Sendable (Double) -> Double
    /// Called with (jobID, failed: true) on the first failure and (jobID, false) on recovery.
    private var onEdge: (@Sendable (String, Bool, String?) async -> Void)?
    let baseBackoff: TimeInterval
    /// Behind a lock, so an observer that stops listening is removed on the spot.
    private nonisolated let completionObservers = NIOLockedValueBox([UUID: AsyncStream<JobStatus>.Continuation]())

    /// Every finished run, after its state is persisted (for tests and future `jobs.watch`).
    public nonisolated func completions() -> AsyncStream<JobStatus> {
        let (stream, continuation) = AsyncStream<JobStatus>.makeStream()
        let id = UUID()
        let observers = completionObservers
        observers.withLockedValue { $0[id] = continuation }
        continuation.onTermination = { _ in observers.withLockedValue { _ = $0.removeValue(forKey: id) } }
        return stream
    }

    /// Runs the job loops and the one-shots until `stopAll()` or cancellation: the scheduler's
    /// service in the daemon's service group.
    public nonisolated func run() async { await loops.run() }

    public init(
        pool: DatabasePool, clock: any HostClock, timeZone: TimeZone, logger: Logger, redactor: SecretRedactor,
        baseBackoff: TimeInterval = 5, random: @escaping @Sendable (Double) -> Double = { Double.random(in: 0...$0) }
    ) {
        self.pool = pool
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
        self.redactor = redactor
        self.baseBackoff = baseBackoff
        self.random = random
    }

    public func setTimeZone(_ zone: TimeZone) { timeZone = zone }

    public func onStateFlip(_ handler: @escaping @Sendable (String, Bool, String?) async -> Void) { onEdge = handler }

    // MARK: Periodic jobs

    /// Starts the loops of these jobs, restoring their persisted state.
    public func activate(_ newJobs: [ScheduledJob]) async throws {
        for job in newJobs where jobs[job.id]?.loop == nil {
            var state = JobState(job: job, nextRun: clock.now)
            let id = job.id
            // GRDB's async read (off this actor's executor), as Sendable values.
            let saved = try await pool.read { db -> (lastRun: Date?, lastSuccess: Date?, outcome: String?, error: String?, failures: Int)? in
                try Row.fetchOne(db, sql: "SELECT * FROM host_jobs WHERE id = ?", arguments: [id]).map { row in
                    (
                        (row["last_run"] as String?).flatMap(ISO8601.date), (row["last_success"] as String?).flatMap(ISO8601.date),
                        row["last_outcome"], row["last_error"], row["consecutive_failures"]
                    )
                }
            }
            if let saved {
                state.lastRun = saved.lastRun
                state.lastSuccess = saved.lastSuccess
                state.lastOutcome = saved.outcome
                state.lastError = saved.error
                state.failures = saved.failures
            }
            state.nextRun = computeNextRun(state, firstActivation: true)
            jobs[job.id] = state
            try await persist(job.id)
            jobs[job.id]?.loop = loops.start { await self.loop(job.id) }
        }
    }

    /// Stops the loops of every job whose id starts with `prefix` (a plugin going away).
    public func deactivate(prefix: String) async {
        await deactivate(ids: jobs.keys.filter { $0.hasPrefix(prefix) })
    }

    /// Stops the loops of exactly these jobs (a plugin cancelling its own runtime job).
    public func deactivate(ids: [String]) async {
        let stopping = ids.filter { jobs[$0] != nil }
        let handles = stopping.compactMap { jobs[$0]?.loop }
        for id in stopping { jobs[id]?.loop = nil }
        await loops.cancel(handles)
        for id in stopping { jobs[id] = nil }
    }

    /// Stops everything (shutdown): loops are cancelled and awaited, one-shots cancelled, and
    /// `run()` returns.
    public func stopAll() async {
        await deactivate(prefix: "")
        oneShots.removeAll()
        oneShotQueue = Heap()
        oneShotLoop = nil
        await loops.finish()
    }

    private func loop(_ id: String) async {
        while !Task.isCancelled {
            guard let next = jobs[id]?.nextRun else { return }
            do { try await clock.sleep(until: next) } catch { return }
            guard let state = jobs[id], !Task.isCancelled else { return }
            if state.running {
                // A manual run is going: this slot is skipped (no overlap), the next follows it.
                await state.runEnded.wait(until: nil, clock: clock)
                continue
            }
            if clock.now >= state.nextRun {
                _ = await execute(id)
            }
        }
    }

    /// `jobs.run`: runs the job now and returns its outcome; refuses while it is running.
    public func runNow(_ id: String) async throws -> JobStatus {
        guard let state = jobs[id] else {
            throw HostParams.jobID.invalid("is not a known job (see 'jobs.list'), got '\(id)'")
        }
        if state.running {
            throw RPCError(code: RPCErrorCode.conflict, message: "Job '\(id)' is already running", data: ["id": .string(id)])
        }
        _ = await execute(id)
        return status(id)!
    }

    private func execute(_ id: String) async -> Bool {
        guard var state = jobs[id] else { return false }
        state.running = true
        let started = clock.now
        state.lastRun = started
        jobs[id] = state
        let timeout = state.job.descriptor.timeout
        let action = state.job.action
        let clock = self.clock
        var failure: String?
        var outcome = "ok"
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await action() }
                group.addTask {
                    try await clock.sleep(until: started.addingTimeInterval(timeout.timeInterval))
                    throw JobTimeoutError()
                }
                try await group.next()
                group.cancelAll()
            }
        } catch is JobTimeoutError {
            outcome = "timeout"
            failure = JobTimeoutError().description
        } catch {
            outcome = "failed"
            failure = redactor.redact(ErrorText.sentence(error))
        }
        guard var after = jobs[id] else { return failure == nil }
        after.running = false
        after.lastOutcome = outcome
        after.lastError = failure
        let wasFailing = after.failures > 0
        if failure == nil {
            after.lastSuccess = started
            after.failures = 0
        } else {
            after.failures += 1
        }
        after.nextRun = computeNextRun(after, firstActivation: false)
        jobs[id] = after
        after.runEnded.wake()
        try? await persist(id)
        if let finished = status(id) {
            for observer in completionObservers.withLockedValue({ Array($0.values) }) { observer.yield(finished) }
        }
        if failure != nil && !wasFailing {
            logger.warning("job failed", metadata: ["job": "\(id)", "error": "\(failure ?? "")"])
            await onEdge?(id, true, failure)
        } else if failure == nil && wasFailing {
            logger.info("job recovered", metadata: ["job": "\(id)"])
            await onEdge?(id, false, nil)
        }
        return failure == nil
    }

    private func computeNextRun(_ state: JobState, firstActivation: Bool) -> Date {
        let now = clock.now
        let descriptor = state.job.descriptor
        let jitter = descriptor.jitter.timeInterval > 0 ? random(descriptor.jitter.timeInterval) : 0
        let regular: Date
        switch descriptor.schedule {
        case .every(let interval):
            guard let last = state.lastRun else { return now.addingTimeInterval(jitter) }
            regular = last.addingTimeInterval(interval.timeInterval)
        case .daily(let hour, let minute):
            let after = state.lastRun ?? now
            regular = nextDaily(hour: hour, minute: minute, after: after)
        case .everyMinutes(_, let minutes):
            // Resolved from the plugin's config before activation; the default if it was not.
            guard let last = state.lastRun else { return now.addingTimeInterval(jitter) }
            regular = last.addingTimeInterval(TimeInterval(minutes * 60))
        case .dailyAt(_, let fallback):
            let (hour, minute) = JobSchedule.clockTime(fallback) ?? (7, 0)
            regular = nextDaily(hour: hour, minute: minute, after: state.lastRun ?? now)
        }
        var next = regular
        if state.failures > 0, let last = state.lastRun {
            // The schedule's own `random` jitters the backoff too (tests pin it).
            let backoff = Backoff(base: baseBackoff, maximum: baseBackoff * 1024, jitter: 0.2).delay(afterFailures: state.failures, random: random)
            next = min(regular, last.addingTimeInterval(backoff))
        }
        // Overdue after downtime: once, now. `max` collapses every missed slot into one run.
        return max(next, firstActivation ? now : next).addingTimeInterval(jitter)
    }

    func nextDaily(hour: Int, minute: Int, after: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.nextDate(
            after: after, matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime,
            repeatedTimePolicy: .first, direction: .forward) ?? after.addingTimeInterval(86400)
    }

    /// Writes a job's state with GRDB's async API (the fsync'd commit waits on GRDB's writer,
    /// not on the scheduler's executor); the state written is the one at the call.
    private func persist(_ id: String) async throws {
        guard let s = jobs[id] else { return }
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO host_jobs(id, last_run, last_success, last_outcome, last_error, consecutive_failures, next_run)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET last_run = excluded.last_run, last_success = excluded.last_success,
                    last_outcome = excluded.last_outcome, last_error = excluded.last_error,
                    consecutive_failures = excluded.consecutive_failures, next_run = excluded.next_run
                    """,
                arguments: [
                    id, s.lastRun.map(ISO8601.string), s.lastSuccess.map(ISO8601.string), s.lastOutcome, s.lastError, s.failures,
                    ISO8601.string(s.nextRun),
                ])
        }
    }

    public func status(_ id: String) -> JobStatus? {
        guard let s = jobs[id] else { return nil }
        let schedule: String =
            switch s.job.descriptor.schedule {
            case .every(let d): "every \(Int(d.timeInterval)) s"
            case .daily(let h, let m): String(format: "daily at %02d:%02d", h, m)
            case .everyMinutes(let option, let m): "every \(m) min (\(option))"
            case .dailyAt(let option, let t): "daily at \(t) (\(option))"
            }
        return JobStatus(
            id: id, summary: s.job.descriptor.summary, schedule: schedule, running: s.running, lastRun: s.lastRun.map(ISO8601.string),
            lastSuccess: s.lastSuccess.map(ISO8601.string), lastOutcome: s.lastOutcome, lastError: s.lastError,
            consecutiveFailures: s.failures, nextRun: ISO8601.string(s.nextRun))
    }

    public func list() -> [JobStatus] { jobs.keys.sorted().compactMap(status) }

    // MARK: One-shot instants

    /// Fires `action` once at `instant` (immediately if it has passed). Scheduling an id again
    /// replaces the earlier instant.
    public func scheduleOnce(id: String, at instant: Date, action: @escaping @Sendable () async throws -> Void) {
        oneShotCounter += 1
        let token = oneShotCounter
        let earliest = oneShotQueue.min?.deadline
        oneShots[id] = OneShot(token: token, deadline: instant, action: action)
        oneShotQueue.insert(QueuedOneShot(deadline: instant, token: token, id: id))
        compactOneShotQueue()
        if oneShotLoop == nil {
            oneShotLoop = loops.start { await self.runOneShots() }
        } else if earliest.map({ instant < $0 }) ?? true {
            oneShotWaker.wake()
        }
    }

    /// Arms many one-shots in one call (a plugin re-arming its reminders at start): one hop onto
    /// the scheduler instead of one per reminder.
    public func scheduleOnce(_ batch: [(id: String, at: Date, action: @Sendable () async throws -> Void)]) {
        for entry in batch { scheduleOnce(id: entry.id, at: entry.at, action: entry.action) }
    }

    public func cancelOnce(id: String) {
        // Its heap entry stays until it surfaces or the heap is compacted.
        oneShots[id] = nil
        compactOneShotQueue()
    }

    /// Drops stale heap entries once they outnumber the live ones, so re-arming costs no growth.
    private func compactOneShotQueue() {
        guard oneShotQueue.count > 64, oneShotQueue.count > 2 * oneShots.count else { return }
        oneShotQueue = Heap(oneShots.map { QueuedOneShot(deadline: $0.value.deadline, token: $0.value.token, id: $0.key) })
    }

    /// Removes and returns what is due now, in deadline order.
    private func dueOneShots() -> [(String, @Sendable () async throws -> Void)] {
        var due: [(String, @Sendable () async throws -> Void)] = []
        let now = clock.now
        while let first = oneShotQueue.min, first.deadline <= now {
            oneShotQueue.removeMin()
            guard let armed = oneShots[first.id], armed.token == first.token else { continue }
            oneShots[first.id] = nil
            due.append((first.id, armed.action))
        }
        return due
    }

    private func nextOneShotDeadline() -> Date? {
        while let first = oneShotQueue.min {
            if let armed = oneShots[first.id], armed.token == first.token { return first.deadline }
            oneShotQueue.removeMin()
        }
        return nil
    }

    private func runOneShots() async {
        let logger = self.logger
        let redactor = self.redactor
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                for (id, action) in dueOneShots() {
                    group.addTask {
                        do { try await action() } catch {
                            logger.warning("one-shot failed", metadata: ["id": "\(id)", "error": "\(redactor.redact(ErrorText.sentence(error)))"])
                        }
                    }
                }
                await oneShotWaker.wait(until: nextOneShotDeadline(), clock: clock)
            }
            group.cancelAll()
        }
    }

    public var pendingOneShots: [String] { oneShots.keys.sorted() }

    /// Heap entries, live and stale (tests: re-arming does not grow it without bound).
    public var oneShotQueueCount: Int { oneShotQueue.count }
}

struct OneShot {
    var token: UInt64
    var deadline: Date
    var action: @Sendable () async throws -> Void
}

struct QueuedOneShot: Comparable {
    var deadline: Date
    var token: UInt64
    var id: String

    static func < (a: QueuedOneShot, b: QueuedOneShot) -> Bool { (a.deadline, a.token) < (b.deadline, b.token) }
    static func == (a: QueuedOneShot, b: QueuedOneShot) -> Bool { a.token == b.token }
}

extension JobScheduler {
    /// Exposed for tests of the calendar arithmetic.
    public func nextDailyForTesting(hour: Int, minute: Int, after: Date) -> Date {
        nextDaily(hour: hour, minute: minute, after: after)
    }
}
