import AssistantClient
import AssistantTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

/// The scope every suite has (`.stopsTestHosts`): a host a failing test leaves running is stopped.
@Suite(.stopsTestHosts)
struct StopsTestHostsTests {
    struct Failed: Error {}

    @Test func aHostAFailingTestLeftRunningIsStopped() async throws {
        let left = NIOLockedValueBox<TestHost?>(nil)
        await #expect(throws: Failed.self) {
            try await StopsTestHosts().provideScope(for: Test.current!, testCase: nil) {
                let host = try await TestHost.started()
                left.withLockedValue { $0 = host }
                #expect(try await host.call("ping").get() == "pong")
                throw Failed()
            }
        }
        let host = try #require(left.withLockedValue { $0 })
        #expect(!FileManager.default.fileExists(atPath: host.socketPath), "the host was stopped: its socket is gone")
        await #expect(throws: (any Error).self) { try await AssistantConnection.connect(socketPath: host.socketPath) }
    }
}
