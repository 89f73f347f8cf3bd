import AssistantClient
import Foundation
import HostCore
import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// Collects lines written by a sink or a process, and lets a test wait for a line without sleeping.
public final class LineCollector: Sendable {
    private struct State {
        var lines: [String] = []
        var nextWaiter = 0
        var waiters: [(id: Int, predicate: @Sendable (String) -> Bool, continuation: CheckedContinuation<String, Never>)] = []
    }
    private let state = NIOLockedValueBox(State())

    public init() {}

    public var lines: [String] { state.withLockedValue { $0.lines } }

    public func append(_ line: String) {
        let ready = state.withLockedValue { s -> [CheckedContinuation<String, Never>] in
            s.lines.append(line)
            // Each predicate is asked once: a counting one (`next(_:where:)`) counts on each call.
            var matched: [CheckedContinuation<String, Never>] = []
            s.waiters.removeAll { waiter in
                guard waiter.predicate(line) else { return false }
                matched.append(waiter.continuation)
                return true
            }
            return matched
        }
        ready.forEach { $0.resume(returning: line) }
    }

    /// The `count`-th line (already seen or still to come) that matches.
    public func next(_ count: Int, where predicate: @escaping @Sendable (String) -> Bool) async -> String {
        let seen = NIOLockedValueBox(0)
        return await next { line in
            guard predicate(line) else { return false }
            return seen.withLockedValue { n in
                n += 1
                return n >= count
            }
        }
    }

    /// The first line (already seen or still to come) that matches; "" when cancelled.
    public func next(where predicate: @escaping @Sendable (String) -> Bool) async -> String {
        let id = state.withLockedValue { s -> Int in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let existing = state.withLockedValue { s -> String? in
                    if let line = s.lines.first(where: predicate) { return line }
                    if Task.isCancelled { return "" }
                    s.waiters.append((id, predicate, continuation))
                    return nil
                }
                if let existing { continuation.resume(returning: existing) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { s -> CheckedContinuation<String, Never>? in
                guard let index = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return s.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: "")
        }
    }
}

/// Runs `body` but fails (instead of hanging the suite) if it takes longer than `seconds`.
public func withDeadline<T: Sendable>(_ seconds: Double, _ what: String = "operation", _ body: @escaping @Sendable () async throws -> T) async throws
    -> T
{
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = try await group.next()!
        group.cancelAll()
        guard let value = first else { throw DeadlineExceeded(what: what, seconds: seconds) }
        return value
    }
}

public struct DeadlineExceeded: Error, CustomStringConvertible {
    public var what: String
    public var seconds: Double
    public var description: String { "\(what) did not finish within \(seconds) s" }
}

/// An in-process daemon on temporary directories: the real host, socket and store, with an
/// optional test clock and the stdout sink captured.
public final class TestHost: Sendable {
    public let directory: TemporaryDirectory
    public let host: AssistantHost
    public let stdout = LineCollector()
    public var socketPath: String { host.server.path }

    public init(
        plugins: [any AssistantPlugin] = [], clock: any HostClock = SystemClock(), directory: TemporaryDirectory = TemporaryDirectory(),
        redactor: SecretRedactor = SecretRedactor(), configure: (inout HostConfiguration) -> Void = { _ in },
        adjust: (inout HostOptions) -> Void = { _ in }
    ) throws {
        self.directory = directory
        var configuration = HostConfiguration()
        configuration.timeZone = TimeZone(identifier: "UTC")!
        configure(&configuration)
        let collector = stdout
        var options = HostOptions(
            configuration: configuration,
            environment: ["HOME": directory.path, "XDG_CONFIG_HOME": directory.file("config"), "USER": "tester"],
            socketPath: directory.file("d.sock"), dataDirectory: directory.file("data"), version: "test", clock: clock,
            logger: Logger(label: "test-host"), standardOutput: { collector.append($0) })
        options.outboxRetryBase = 0.05
        options.jobBackoffBase = 1
        adjust(&options)
        host = try AssistantHost(options: options, plugins: plugins, redactor: redactor)
    }

    /// `waitForPlugins: false` returns once the socket serves, with plugins maybe still setting up.
    public static func started(
        plugins: [any AssistantPlugin] = [], clock: any HostClock = SystemClock(), directory: TemporaryDirectory = TemporaryDirectory(),
        redactor: SecretRedactor = SecretRedactor(), waitForPlugins: Bool = true, configure: (inout HostConfiguration) -> Void = { _ in },
        adjust: (inout HostOptions) -> Void = { _ in }
    ) async throws -> TestHost {
        let testHost = try TestHost(
            plugins: plugins, clock: clock, directory: directory, redactor: redactor, configure: configure, adjust: adjust)
        try await testHost.host.start()
        testHost.run()
        TestHostScope.current?.register(testHost)
        if waitForPlugins { for supervisor in testHost.host.supervisors { await supervisor.settled() } }
        return testHost
    }

    public func connect() async throws -> AssistantConnection {
        try await AssistantConnection.connect(socketPath: socketPath)
    }

    /// One call on a fresh connection.
    public func call(_ method: String, _ params: JSONValue? = nil) async throws -> Result<JSONValue, RPCError> {
        let connection = try await connect()
        // Closed before returning, not by a task left behind: a test that ends right after a
        // call leaves no connection open.
        let result: Result<JSONValue, RPCError>
        do {
            result = try await connection.callResult(method, params: params)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
        switch result {
        case .success(let value):
            // On threads of their own: checking a result of megabytes (an agenda of 50 000 rows)
            // on the tasks' shared threads stalled the rest of the suite for seconds.
            let problems = try await Self.checkers.runIfActive { [self] in resultProblems(of: method, value) }
            if let problems { TestIssue.record(problems) }
        case .failure(let error): checkErrorCode(of: method, error)
        }
        return result
    }

    private static let checkers: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    /// A plugin's own error code is one its manifest declares, in its block; and its text reads
    /// as a sentence (no Swift debug form, no Foundation `Error Domain=`).
    func checkErrorCode(of method: String, _ error: RPCError) {
        if let debug = Self.debugForm(in: error.json) {
            TestIssue.record("\(method) answered an error a person cannot read: \(debug)")
        }
        guard ErrorBlock.pluginSpace.contains(error.code), let plugin = host.dispatcher.methods[method]?.pluginID else { return }
        let codes = host.supervisor(plugin)?.manifest.errors?.codes ?? [:]
        if codes[error.code] == nil {
            TestIssue.record("\(method) answered error \(error.code), which plugin '\(plugin)' does not declare")
        }
    }

    /// Holds a result to the schema its method publishes: every test that calls a command checks
    /// the command's result schema too.
    func checkResult(of method: String, _ value: JSONValue) {
        if let problems = resultProblems(of: method, value) { TestIssue.record(problems) }
    }

    /// What is wrong with a result by its method's schema, as a sentence; nil when it fits.
    func resultProblems(of method: String, _ value: JSONValue) -> String? {
        guard let schema = host.dispatcher.methods[method]?.descriptor.result else { return nil }
        let problems = schema.problems(in: value)
        return problems.isEmpty ? nil : "\(method)'s result does not fit its schema:\n" + problems.joined(separator: "\n")
    }

    /// The first string in `value` with a debug form in it, if any.
    public static func debugForm(in value: JSONValue) -> String? {
        switch value {
        case .string(let text): ["RPCError(", "Error Domain="].contains { text.contains($0) } ? text : nil
        case .array(let items): items.lazy.compactMap(debugForm(in:)).first
        case .object(let members): members.values.lazy.compactMap(debugForm(in:)).first
        default: nil
        }
    }

    /// What `jobs.list` and `status` show a person (last errors, plugin details) reads as sentences.
    func checkPersonTexts() async {
        for method in ["jobs.list", "status"] {
            guard case .success(let value)? = try? await call(method) else { continue }
            if let debug = Self.debugForm(in: value) { TestIssue.record("\(method) shows an error a person cannot read: \(debug)") }
        }
    }

    private let stopped = NIOLockedValueBox(false)
    private let running = NIOLockedValueBox<Task<Void, Never>?>(nil)

    /// Every notice a plugin posted during the test has a topic its manifest declares (a plugin
    /// posts its own topics by value; this catches the kit's notices in a plugin's name too).
    func checkNoticeTopics() async {
        guard let notices = try? await host.notices.list(limit: 100_000, topic: nil) else { return }
        let declared = Dictionary(uniqueKeysWithValues: host.supervisors.map { ($0.id, Set($0.manifest.topics.map(\.topic))) })
        for notice in notices where notice.plugin != "host" && notice.topic != "\(notice.plugin).mail" {
            if declared[notice.plugin]?.contains(notice.topic) != true {
                TestIssue.record("plugin '\(notice.plugin)' posted '\(notice.topic)', which its manifest does not declare")
            }
        }
    }

    /// Runs the host's service group. A test's host has no parent service to be a child of, so
    /// the harness holds this task and `stop` awaits it.
    public func run() {
        let host = self.host
        running.withLockedValue {
            $0 = Task {
                do { try await host.run() } catch { TestIssue.record("the test host's services failed: \(error)") }
            }
        }
    }

    /// Stops the host once; later calls (the test's own, then its scope's) do nothing.
    public func stop() async {
        let first = stopped.withLockedValue { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first {
            await checkNoticeTopics()
            await checkPersonTexts()
            await host.shutdown()
            await running.withLockedValue { $0 }?.value
        }
    }
}

/// Starts a host, runs `body` with it and stops the host however `body` ends, so a failing test
/// cannot leave a host running (as HummingbirdTesting scopes its application).
public func withTestHost<T: Sendable>(
    plugins: [any AssistantPlugin] = [], clock: any HostClock = SystemClock(), directory: TemporaryDirectory = TemporaryDirectory(),
    configure: (inout HostConfiguration) -> Void = { _ in }, _ body: (TestHost) async throws -> T
) async throws -> T {
    let host = try await TestHost.started(plugins: plugins, clock: clock, directory: directory, configure: configure)
    do {
        let result = try await body(host)
        await host.stop()
        return result
    } catch {
        await host.stop()
        throw error
    }
}
