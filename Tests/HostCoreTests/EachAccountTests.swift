import Logging
import PluginKit
import Synchronization
import Testing

/// A job over several accounts: each is worked on though another failed, each failure is logged
/// with its account, and the job fails naming every one that failed.
struct EachAccountTests {
    /// Log lines kept for the test to read.
    final class Captured: LogHandler, @unchecked Sendable {
        let lines = Mutex<[String]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            lines.withLock { $0.append("\(event.level) \(event.message) \(fields)") }
        }
    }

    @Test func oneFailureStopsNoOtherAndFailsTheJob() async throws {
        let captured = Captured()
        let logger = Logger(label: "test") { _ in captured }
        let worked = Mutex<[String]>([])
        let job = EachAccount("stag.refresh", logger: logger)
        await #expect(throws: RPCError(code: -32003, message: "stag.refresh failed for b: Authentication required: log in again")) {
            try await job.run(["a", "b", "c"]) { name in
                worked.withLock { $0.append(name) }
                if name == "b" { throw RPCError(code: -32003, message: "Authentication required: log in again") }
            }
        }
        #expect(worked.withLock { $0 } == ["a", "b", "c"], "c was worked on though b failed")
        #expect(captured.lines.withLock { $0 } == ["warning stag.refresh failed account=b error=Authentication required: log in again"])
    }

    @Test func failuresOfDifferentKindsAreNamedEachAndNoneIsQuiet() async throws {
        let job = EachAccount("tasks.feeds", label: "feed", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        await #expect(throws: RPCError(code: -32004, message: "tasks.feeds failed for x: Invalid params: 'url' is wrong; y: upstream down")) {
            try await job.run(["x", "y", "z"]) { name in
                if name == "x" { throw RPCError.invalidParam("url", "is wrong") }
                if name == "y" { throw RPCError(code: -32004, message: "upstream down") }
            }
        }
        try await job.run([]) { _ in Issue.record("nothing to work on") }
        try await job.run(["fine"]) { _ in }
    }
}
