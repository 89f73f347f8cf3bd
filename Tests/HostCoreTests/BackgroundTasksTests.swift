import AssistantTesting
import HostCore
import NIOConcurrencyHelpers
import Testing

/// Work that outlives a call runs as children of its owner's `run()`: one piece can be cancelled
/// and awaited on its own, `finish()` ends them all, and nothing runs after the owner stops.
@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct BackgroundTasksTests {
    /// Records how each piece ended.
    final class Log: Sendable {
        let events = NIOLockedValueBox<[String]>([])
        func add(_ event: String) { events.withLockedValue { $0.append(event) } }
        var all: [String] { events.withLockedValue { $0 } }
    }

    /// A piece that parks until cancelled, then logs it; `started` yields once it runs.
    static func parked(_ name: String, log: Log, started: AsyncStream<String>.Continuation) -> @Sendable () async -> Void {
        {
            started.yield(name)
            // Ends only by cancellation: the test's time limit fails a piece left parked.
            try? await Task.sleep(for: .seconds(3600))
            log.add("\(name) cancelled=\(Task.isCancelled)")
        }
    }

    @Test func onePieceIsCancelledAndAwaitedAloneThenFinishEndsTheRest() async throws {
        let tasks = BackgroundTasks()
        let log = Log()
        let (started, didStart) = AsyncStream<String>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await tasks.run() }
            let a = tasks.start(Self.parked("a", log: log, started: didStart))
            let b = tasks.start(Self.parked("b", log: log, started: didStart))
            var iterator = started.makeAsyncIterator()
            let first = await iterator.next()
            let second = await iterator.next()
            #expect(Set([first, second]) == ["a", "b"])

            await tasks.cancel(a)
            // `cancel` returned only after the piece ended, and only that piece.
            #expect(log.all == ["a cancelled=true"])
            #expect(!tasks.isRunning(a))
            #expect(tasks.isRunning(b))

            await tasks.finish()
            #expect(log.all == ["a cancelled=true", "b cancelled=true"])
            #expect(!tasks.isRunning(b))
            // `run()` returns after `finish()`: the group's child ends.
            try await group.waitForAll()
        }
        // Nothing starts once the owner is done.
        let late = tasks.start { log.add("late") }
        #expect(!tasks.isRunning(late))
        await tasks.wait(late)
        #expect(log.all == ["a cancelled=true", "b cancelled=true"])
    }

    @Test func aPieceThatEndsByItselfIsAwaitedAndCancellingTheOwnerCancelsTheRest() async throws {
        let tasks = BackgroundTasks()
        let log = Log()
        let (started, didStart) = AsyncStream<String>.makeStream()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await tasks.run() }
            let quick = tasks.start { log.add("quick done") }
            await tasks.wait(quick)
            #expect(log.all == ["quick done"])
            let slow = tasks.start(Self.parked("slow", log: log, started: didStart))
            var iterator = started.makeAsyncIterator()
            #expect(await iterator.next() == "slow")
            // The owner's task is cancelled (the service group is going): its pieces are too.
            group.cancelAll()
            await group.waitForAll()
            #expect(log.all == ["quick done", "slow cancelled=true"])
            #expect(!tasks.isRunning(slow))
        }
    }

    @Test func aPieceCancelledBeforeItStartsNeverRuns() async throws {
        let tasks = BackgroundTasks()
        let log = Log()
        // Queued while no owner runs, then cancelled: it must not run once the owner starts.
        let queued = tasks.start { log.add("ran") }
        tasks.requestCancel(queued)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await tasks.run() }
            await tasks.wait(queued)
            let after = tasks.start { log.add("after") }
            await tasks.wait(after)
            await tasks.finish()
        }
        #expect(log.all == ["after"])
    }
}
