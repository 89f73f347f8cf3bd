import Foundation
import Logging
import NIOCore

/// What `assistantd` (or a test) decides before the host starts.
public struct HostOptions: Sendable {
    public var configuration: HostConfiguration
    public var configPath: String?
    public var environment: [String: String]
    public var socketPath: String
    public var dataDirectory: String
    public var version: String
    public var clock: any HostClock
    public var logger: Logger
    /// Where the stdout sink writes (tests capture it).
    public var standardOutput: @Sendable (String) -> Void
    /// An inherited listening socket (systemd socket activation).
    public var activatedDescriptor: CInt?
    /// Notice retry base delay; tests shorten it.
    public var outboxRetryBase: TimeInterval = 5
    public var jobBackoffBase: TimeInterval = 5
    /// A job's jitter drawn from `0...maximum` (tests pin it to make a first run's time known).
    public var jobJitter: @Sendable (_ maximum: Double) -> Double = { Double.random(in: 0...$0) }
    /// How long a call that arrives while its plugin sets up waits for the outcome before -32002.
    public var setupCallWait: Duration = .seconds(3)

    public init(
        configuration: HostConfiguration, configPath: String? = nil, environment: [String: String], socketPath: String,
        dataDirectory: String, version: String, clock: any HostClock = SystemClock(), logger: Logger,
        standardOutput: @escaping @Sendable (String) -> Void = StdoutSink.standardOutput, activatedDescriptor: CInt? = nil
    ) {
        self.configuration = configuration
        self.configPath = configPath
        self.environment = environment
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        self.version = version
        self.clock = clock
        self.logger = logger
        self.standardOutput = standardOutput
        self.activatedDescriptor = activatedDescriptor
    }
}

public enum AssistantVersion {
    public static let daemon = "0.1.0"
    /// Bumped when a method or a field is removed or changes meaning; additions keep it.
    public static let api = "1.0"
}
