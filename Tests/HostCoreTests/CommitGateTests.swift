import AssistantTesting
import Foundation
import HostCore
import NIOConcurrencyHelpers
import Testing

/// The race between a call's commit and its time limit is settled once: a call that began to
/// commit is awaited past its limit (so a commit is never reported as a timeout), and one whose
/// limit passed first cannot commit (so a timeout is never a hidden commit).
@Suite struct CommitGateTests {
    struct TimedOut: Error {}

    @Test func aCallThatBeganToCommitIsAwaitedPastItsLimit() async throws {
        let clock = TestClock()
        let gate = CommitGate()
        async let answer = withDeadline(.seconds(5), clock: clock, gate: gate, timedOut: { TimedOut() }) { () async throws -> Int in
            try gate.enter()
            // Still committing when the limit passes: without the gate, the deadline would cancel
            // this and answer TimedOut.
            await gate.waitForOverrun()
            try Task.checkCancellation()
            return 42
        }
        await clock.waitForSleepers(1)
        clock.advance(by: 6)
        #expect(try await answer == 42)
        #expect(gate.overran)
    }

    /// The outcome of `withDeadline`, for an `async let` a test can then look at.
    static func outcome(_ run: @escaping @Sendable () async throws -> Int) async -> Result<Int, any Error> {
        do { return .success(try await run()) } catch { return .failure(error) }
    }

    @Test func aCallWhoseLimitPassedFirstCannotCommit() async throws {
        let clock = TestClock()
        let gate = CommitGate()
        let refused = NIOLockedValueBox(false)
        async let outcome = Self.outcome {
            try await withDeadline(.seconds(5), clock: clock, gate: gate, timedOut: { TimedOut() }) { () async throws -> Int in
                // Work that does not notice cancellation, then the commit.
                try? await clock.sleep(until: clock.now.addingTimeInterval(60))
                do {
                    try gate.enter()
                } catch {
                    refused.withLockedValue { $0 = true }
                    throw error
                }
                return 42
            }
        }
        await clock.waitForSleepers(2)
        clock.advance(by: 6)
        guard case .failure(let error) = await outcome else {
            Issue.record("the call committed after its limit")
            return
        }
        #expect(error is TimedOut)
        #expect(refused.withLockedValue { $0 }, "the commit was refused, so the transaction rolls back")
        #expect(!gate.overran)
    }

    @Test func withoutACommitTheLimitCutsTheCall() async throws {
        let clock = TestClock()
        let gate = CommitGate()
        async let outcome = Self.outcome {
            try await withDeadline(.seconds(5), clock: clock, gate: gate, timedOut: { TimedOut() }) { () async throws -> Int in
                try await clock.sleep(until: clock.now.addingTimeInterval(60))
                return 42
            }
        }
        await clock.waitForSleepers(2)
        clock.advance(by: 6)
        guard case .failure(let error) = await outcome else {
            Issue.record("the call outlived its limit")
            return
        }
        #expect(error is TimedOut)
    }
}
