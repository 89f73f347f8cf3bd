import Foundation
import HostCore
import Testing

/// The one backoff every retry uses: doubling from `base`, capped, jittered within its share.
struct BackoffTests {
    @Test func doublesUpToTheCapAndIsSafeForAnyCount() {
        let plain = Backoff(base: 5, maximum: 80, jitter: 0)
        #expect((1...7).map { plain.delay(afterFailures: $0) } == [5, 10, 20, 40, 80, 80, 80])
        #expect(plain.delay(afterFailures: 0) == 5, "no failure counts as the first")
        #expect(plain.delay(afterFailures: .max) == 80, "a huge count neither overflows nor traps")
    }

    @Test func jitterAddsAtMostItsShareAndSpreadsRetries() {
        let backoff = Backoff(base: 10, maximum: 100, jitter: 0.2)
        #expect(backoff.delay(afterFailures: 2) { $0 } == 24, "the random part's bound is 20 % of 20 s")
        #expect(backoff.delay(afterFailures: 2) { _ in 0 } == 20)
        let delays = (0..<200).map { _ in backoff.delay(afterFailures: 3) }
        #expect(delays.allSatisfy { (40...48).contains($0) })
        #expect(Set(delays).count > 100, "200 clients failing together do not retry together")
    }
}
