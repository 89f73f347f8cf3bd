import Foundation
import HostCore
import NIOConcurrencyHelpers

extension TestClock {
    /// Runs `body` while moving the clock past every sleep shorter than `step`: the upstream
    /// client's retry backoff, however many requests run at once. Each move waits for a sleeper,
    /// so nothing here polls.
    public func whileAdvancing<T: Sendable>(step: TimeInterval = 2, _ body: @Sendable () async throws -> T) async throws -> T {
        let done = NIOLockedValueBox(false)
        let mover = Task {
            while true {
                let bound = now.addingTimeInterval(step)
                await waitForSleeper { $0 <= bound }
                advance(by: step)
                if done.withLockedValue({ $0 }) { return }
            }
        }
        let result = await Result(catching: body)
        done.withLockedValue { $0 = true }
        // Wakes the mover one last time: it moves past this sleep and sees `done`.
        try? await sleep(for: .milliseconds(1))
        await mover.value
        return try result.get()
    }
}

extension Result where Failure == any Error {
    public init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
