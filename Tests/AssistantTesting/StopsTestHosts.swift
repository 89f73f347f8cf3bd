import NIOConcurrencyHelpers

#if canImport(Testing)
    import Testing
#endif

/// The hosts a test started, stopped when the test ends however it ends: a failing `#require`
/// or a thrown error skips the test's own `stop()`, and the host would run on beside the next
/// tests (as HummingbirdTesting scopes its application). `TestHost.started` registers each host
/// with the scope of the test that runs it.
final class TestHostScope: Sendable {
    @TaskLocal static var current: TestHostScope?

    private let hosts = NIOLockedValueBox<[TestHost]>([])

    func register(_ host: TestHost) { hosts.withLockedValue { $0.append(host) } }

    func stopAll() async {
        for host in hosts.withLockedValue({ $0 }) { await host.stop() }
    }
}

// The trait exists where the Testing module does (not in a release build against the static
// Swift runtime, where the benchmarks use hosts without it).
#if canImport(Testing)
    /// `@Suite(.stopsTestHosts)`: every host a test of the suite starts is stopped when that test
    /// ends. Stopping a host twice is harmless, so tests that stop their own still may.
    public struct StopsTestHosts: SuiteTrait, TestTrait, TestScoping {
        public init() {}

        public var isRecursive: Bool { true }

        public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
            test.isSuite ? nil : self
        }

        public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
            let scope = TestHostScope()
            do {
                try await TestHostScope.$current.withValue(scope) { try await function() }
            } catch {
                await scope.stopAll()
                throw error
            }
            await scope.stopAll()
        }
    }

    extension Trait where Self == StopsTestHosts {
        public static var stopsTestHosts: Self { Self() }
    }
#endif
