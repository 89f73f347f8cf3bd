import AssistantTesting
import Foundation
import GRDB
import HostCore
import NIOConcurrencyHelpers
import Testing

/// Scheduler semantics on the test clock: nothing here waits on real time.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct SchedulerTests {
    struct Fixture {
        let directory = TemporaryDirectory()
        let store: Store
        let clock = TestClock(now: ISO8601.date("2026-03-01T10:00:00Z")!)
        let scheduler: JobScheduler

        init(timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws {
            store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
            scheduler = JobScheduler(
                pool: store.pool, clock: clock, timeZone: timeZone, logger: Logger(label: "t"), redactor: SecretRedactor(), baseBackoff: 5,
                random: { _ in 0 })
        }

        /// Runs the scheduler's service around `body`, and stops it however `body` ends.
        func running(_ body: () async throws -> Void) async throws {
            let scheduler = self.scheduler
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await scheduler.run() }
                do { try await body() } catch {
                    await scheduler.stopAll()
                    throw error
                }
                await scheduler.stopAll()
                try await group.waitForAll()
            }
        }
    }

    static func job(_ id: String, every seconds: Int64, timeout: Duration = .seconds(300), _ action: @escaping @Sendable () async throws -> Void)
        -> ScheduledJob
    {
        ScheduledJob(id: id, descriptor: JobDescriptor(id: id, summary: id, schedule: .every(.seconds(seconds)), timeout: timeout), action: action)
    }

    @Test func overdueJobRunsOnceAfterDowntimeThenOnItsInterval() async throws {
        let f = try Fixture()
        try await f.running {
            // Last ran 10 intervals ago: one catch-up run, not ten.
            try await f.store.pool.write { db in
                try db.execute(
                    sql: "INSERT INTO host_jobs(id, last_run, consecutive_failures) VALUES ('t.job', ?, 0)",
                    arguments: [ISO8601.string(f.clock.now.addingTimeInterval(-600))])
            }
            let runs = NIOLockedValueBox(0)
            var completions = f.scheduler.completions().makeAsyncIterator()
            try await f.scheduler.activate([Self.job("t.job", every: 60) { runs.withLockedValue { $0 += 1 } }])
            let first = try #require(await completions.next())
            #expect(first.lastRun == "2026-03-01T10:00:00Z")
            #expect(first.nextRun == "2026-03-01T10:01:00Z")
            #expect(runs.withLockedValue { $0 } == 1)
            // Nothing more until the interval has passed.
            await f.clock.waitForSleepers(1)
            f.clock.advance(by: 59)
            #expect(runs.withLockedValue { $0 } == 1)
            f.clock.advance(by: 1)
            let second = try #require(await completions.next())
            #expect(second.lastRun == "2026-03-01T10:01:00Z")
            #expect(runs.withLockedValue { $0 } == 2)
        }
    }

    @Test func aJobNeverOverlapsItself() async throws {
        let f = try Fixture()
        try await f.running {
            let gate = Gate()
            let concurrent = NIOLockedValueBox((now: 0, max: 0))
            var completions = f.scheduler.completions().makeAsyncIterator()
            try await f.scheduler.activate([
                Self.job("t.slow", every: 10) {
                    concurrent.withLockedValue {
                        $0.now += 1
                        $0.max = max($0.max, $0.now)
                    }
                    await gate.wait()
                    concurrent.withLockedValue { $0.now -= 1 }
                }
            ])
            await gate.waitForWaiters(1)
            // While it runs: a manual run is refused, and the next slot falling due starts nothing.
            await #expect {
                _ = try await f.scheduler.runNow("t.slow")
            } throws: { error in
                (error as? RPCError)?.code == RPCErrorCode.conflict
            }
            f.clock.advance(by: 25)
            #expect(concurrent.withLockedValue { $0.max } == 1)
            gate.open()
            _ = await completions.next()
            #expect(concurrent.withLockedValue { $0.max } == 1)
        }
    }

    @Test func failuresBackOffExponentiallyCappedAtTheIntervalAndLogOnlyOnFlips() async throws {
        let f = try Fixture()
        try await f.running {
            let failuresLeft = NIOLockedValueBox(7)
            let flips = NIOLockedValueBox<[String]>([])
            await f.scheduler.onStateFlip { id, failed, _ in flips.withLockedValue { $0.append(failed ? "failed" : "recovered") } }
            var completions = f.scheduler.completions().makeAsyncIterator()
            try await f.scheduler.activate([
                Self.job("t.flaky", every: 60) {
                    let fail = failuresLeft.withLockedValue { n -> Bool in
                        defer { n -= 1 }
                        return n > 0
                    }
                    if fail { throw RPCError.internalError("upstream down") }
                }
            ])
            var delays: [TimeInterval] = []
            for _ in 0..<8 {
                let status = try #require(await completions.next())
                let last = try #require(status.lastRun.flatMap(ISO8601.date))
                let next = try #require(status.nextRun.flatMap(ISO8601.date))
                delays.append(next.timeIntervalSince(last))
                await f.clock.waitForSleepers(1)
                f.clock.advance(to: next)
            }
            // 5 s · 2^(n-1), capped at the 60 s interval; after the recovery, the interval again.
            #expect(delays == [5, 10, 20, 40, 60, 60, 60, 60])
            #expect(flips.withLockedValue { $0 } == ["failed", "recovered"])
            let persisted = try await f.store.pool.read { db in
                try Int.fetchOne(db, sql: "SELECT consecutive_failures FROM host_jobs WHERE id = 't.flaky'")
            }
            #expect(persisted == 0)
        }
    }

    @Test func aJobThatOverrunsItsTimeoutIsStopped() async throws {
        let f = try Fixture()
        try await f.running {
            var completions = f.scheduler.completions().makeAsyncIterator()
            let clock = f.clock
            try await f.scheduler.activate([
                Self.job("t.hang", every: 600, timeout: .seconds(30)) { try await clock.sleep(for: .seconds(86400)) }
            ])
            await f.clock.waitForSleepers(2)  // the job's own sleep and its timeout
            f.clock.advance(by: 30)
            let status = try #require(await completions.next())
            #expect(status.lastOutcome == "timeout")
            #expect(status.consecutiveFailures == 1)
        }
    }

    @Test func exactTimeOneShotsFireToTheSecond() async throws {
        let f = try Fixture()
        try await f.running {
            let fired = NIOLockedValueBox<[String]>([])
            let signal = AsyncStream<String>.makeStream()
            let target = f.clock.now.addingTimeInterval(3600)
            await f.scheduler.scheduleOnce(id: "t.remind", at: target) {
                fired.withLockedValue { $0.append("remind") }
                signal.continuation.yield("remind")
            }
            /// A one-shot due now: one-shots fire in deadline order, so once it has fired, anything
            /// due by now has too. Checks of what did not fire wait for it first.
            func settle(_ name: String) async {
                await f.scheduler.scheduleOnce(id: "t.\(name)", at: f.clock.now) {
                    fired.withLockedValue { $0.append(name) }
                    signal.continuation.yield(name)
                }
            }
            var iterator = signal.stream.makeAsyncIterator()
            await f.clock.waitForSleepers(1)
            f.clock.advance(to: target.addingTimeInterval(-1))
            await settle("early")
            #expect(await iterator.next() == "early")
            #expect(fired.withLockedValue { $0 } == ["early"], "one second early: nothing")
            f.clock.advance(to: target)
            #expect(await iterator.next() == "remind")
            // An instant already past fires at once; cancelling one prevents it.
            await f.scheduler.scheduleOnce(id: "t.cancelled", at: target.addingTimeInterval(10)) { fired.withLockedValue { $0.append("cancelled") } }
            await f.scheduler.cancelOnce(id: "t.cancelled")
            await f.scheduler.scheduleOnce(id: "t.past", at: target.addingTimeInterval(-100)) {
                fired.withLockedValue { $0.append("past") }
                signal.continuation.yield("past")
            }
            #expect(await iterator.next() == "past")
            f.clock.advance(by: 60)
            await settle("later")
            #expect(await iterator.next() == "later")
            #expect(fired.withLockedValue { $0 } == ["early", "remind", "past", "later"], "the cancelled one never fired")
        }
    }

    /// Tens of thousands of reminders cost memory, not tasks: one sleeper on the clock whatever
    /// their number; they fire in deadline order; re-arming and cancelling do not grow the queue.
    @Test func manyOneShotsShareOneWaitingLoop() async throws {
        let f = try Fixture()
        let fired = NIOLockedValueBox<[Int]>([])
        try await f.running {
            let count = 20_000
            let (signal, continuation) = AsyncStream<Int>.makeStream()
            let start = f.clock.now
            // Armed in reverse order, each one earlier than all before it.
            for i in stride(from: count - 1, through: 0, by: -1) {
                await f.scheduler.scheduleOnce(id: "t.r\(i)", at: start.addingTimeInterval(Double(60 + i))) {
                    fired.withLockedValue { $0.append(i) }
                    continuation.yield(i)
                }
            }
            await f.clock.waitForSleepers(1)
            // At most the one loop sleeps on the clock (it may be between a wake and its next sleep).
            #expect(f.clock.sleeperCount <= 1, "one waiting loop, not one task per reminder")
            #expect(await f.scheduler.pendingOneShots.count == count)
            // Re-arm half of them later and cancel a quarter: the queue does not keep growing.
            for i in 0..<(count / 2) {
                await f.scheduler.scheduleOnce(id: "t.r\(i)", at: start.addingTimeInterval(Double(100_000 + i))) {
                    fired.withLockedValue { $0.append(i) }
                    continuation.yield(i)
                }
            }
            for i in (count / 2)..<(count / 2 + count / 4) { await f.scheduler.cancelOnce(id: "t.r\(i)") }
            #expect(await f.scheduler.pendingOneShots.count == count - count / 4)
            #expect(await f.scheduler.oneShotQueueCount <= 2 * count)
            // The first three still armed in the original window are 15 000, 15 001, 15 002.
            await f.clock.waitForSleepers(1)
            f.clock.advance(to: start.addingTimeInterval(Double(60 + count / 2 + count / 4 + 2)))
            var iterator = signal.makeAsyncIterator()
            var got: [Int] = []
            for _ in 0..<3 { got.append(await iterator.next() ?? -1) }
            #expect(got.sorted() == [15_000, 15_001, 15_002])
            #expect(await f.scheduler.pendingOneShots.count == count - count / 4 - 3)
        }
        #expect(fired.withLockedValue { $0.count } == 3)
    }

    @Test func aBatchOfOneShotsIsArmedInOneCall() async throws {
        let f = try Fixture()
        try await f.running {
            let (signal, continuation) = AsyncStream<String>.makeStream()
            let start = f.clock.now
            await f.scheduler.scheduleOnce(
                ["b", "a", "c"].enumerated().map { index, name in
                    (id: "t.\(name)", at: start.addingTimeInterval(Double(10 * (index + 1))), action: { continuation.yield(name) })
                })
            #expect(await f.scheduler.pendingOneShots == ["t.a", "t.b", "t.c"])
            await f.clock.waitForSleepers(1)
            f.clock.advance(by: 30)
            var iterator = signal.makeAsyncIterator()
            var got: [String] = []
            for _ in 0..<3 { got.append(await iterator.next() ?? "") }
            #expect(got.sorted() == ["a", "b", "c"])
            #expect(await f.scheduler.pendingOneShots == [])
        }
    }

    @Test func dailyJobsFollowTheConfiguredTimeZone() async throws {
        let f = try Fixture(timeZone: TimeZone(identifier: "Europe/Prague")!)
        try await f.running {
            var completions = f.scheduler.completions().makeAsyncIterator()
            try await f.scheduler.activate([
                ScheduledJob(id: "t.daily", descriptor: JobDescriptor(id: "daily", summary: "d", schedule: .daily(hour: 3, minute: 30))) {}
            ])
            // 10:00Z is 11:00 in Prague (CET); the next 03:30 Prague is 02:30Z tomorrow.
            let next = await f.scheduler.status("t.daily")?.nextRun
            #expect(next == "2026-03-02T02:30:00Z")
            await f.clock.waitForSleepers(1)
            f.clock.advance(to: ISO8601.date("2026-03-02T02:30:00Z")!)
            let run = try #require(await completions.next())
            #expect(run.lastRun == "2026-03-02T02:30:00Z")
            // Across the DST change (29 March 2026), 03:30 Prague becomes 01:30Z.
            let afterDST = await f.scheduler.nextDailyForTesting(hour: 3, minute: 30, after: ISO8601.date("2026-03-29T12:00:00Z")!)
            #expect(ISO8601.string(afterDST) == "2026-03-30T01:30:00Z")
        }
    }
}

/// A gate a job waits at until the test opens it.
final class Gate: Sendable {
    private let state = NIOLockedValueBox(
        (open: false, waiters: [CheckedContinuation<Void, Never>](), watchers: [(Int, CheckedContinuation<Void, Never>)]()))

    func wait() async {
        await withCheckedContinuation { c in
            let (resume, watchers) = state.withLockedValue { s -> (Bool, [CheckedContinuation<Void, Never>]) in
                if s.open { return (true, []) }
                s.waiters.append(c)
                let ready = s.watchers.filter { $0.0 <= s.waiters.count }.map(\.1)
                s.watchers.removeAll { $0.0 <= s.waiters.count }
                return (false, ready)
            }
            watchers.forEach { $0.resume() }
            if resume { c.resume() }
        }
    }

    func waitForWaiters(_ count: Int) async {
        await withCheckedContinuation { c in
            let ready = state.withLockedValue { s -> Bool in
                if s.waiters.count >= count { return true }
                s.watchers.append((count, c))
                return false
            }
            if ready { c.resume() }
        }
    }

    func open() {
        let waiters = state.withLockedValue { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
