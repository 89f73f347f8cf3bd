import ArgumentParser
import Foundation
import HostCore
import Logging
import ServiceLifecycle
import UnixSignals
import WebApp

@main
struct AssistantDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assistantd",
        abstract: "One assistant for study systems, 3D printers, a pilot logbook and tasks, served on a Unix socket.",
        discussion: """
            Runs in the foreground and serves line-delimited JSON-RPC 2.0 on a Unix socket.
            Every setting has a default, so no configuration file is needed.

            Exit codes: 0 clean stop, 64 usage, 73 cannot create the socket or data directory,
            75 another daemon already serves the socket, 78 configuration error.
            """,
        version: AssistantVersion.daemon)

    @Option(help: "Socket path (default: $ASSISTANT_SOCKET, then $XDG_RUNTIME_DIR/assistant/assistantd.sock).")
    var socket: String?

    @Option(help: "Configuration file (default: $ASSISTANT_CONFIG, then $XDG_CONFIG_HOME/assistant/config.toml).")
    var config: String?

    @Option(name: .customLong("data-dir"), help: "Data directory (default: $ASSISTANT_DATA_DIR, then $XDG_DATA_HOME/assistant).")
    var dataDir: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (overrides log_level).")
    var logLevel: Logger.Level?

    @Flag(name: .customLong("check-config"), help: "Validate the configuration and exit (0 valid, 78 invalid).")
    var checkConfig = false

    func run() async throws {
        umask(0o077)
        let environment = ProcessInfo.processInfo.environment
        let explicitConfig = config ?? environment["ASSISTANT_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let loaded: LoadedConfiguration
        do {
            loaded = try ConfigLoader.load(explicitPath: explicitConfig, environment: environment)
        } catch let error as ConfigError {
            Self.fail("assistantd: configuration error: \(error)", code: 78)
        }
        for warning in loaded.warnings { Self.warn("assistantd: warning: \(warning)") }
        if checkConfig {
            print("configuration OK (\(loaded.path ?? "no file; embedded defaults"))")
            return
        }

        RedactingLogHandler.level.withLockedValue { $0 = logLevel ?? loaded.configuration.logLevel }
        LoggingSystem.bootstrap { label in RedactingLogHandler(wrapping: StreamLogHandler.standardError(label: label)) }
        let logger = Logger(label: "assistantd")

        let activation = SocketActivation.take(environment: environment)
        let socketPath = Paths.socket(explicit: socket, configured: loaded.configuration.socket.path, environment: environment)
        let options = HostOptions(
            configuration: loaded.configuration, configPath: loaded.path, environment: environment, socketPath: socketPath,
            dataDirectory: Paths.dataDirectory(explicit: dataDir ?? loaded.configuration.store.dataDir, environment: environment),
            version: AssistantVersion.daemon, logger: logger, activatedDescriptor: activation)

        let host: AssistantHost
        do {
            host = try AssistantHost(options: options, plugins: PluginList.all)
            for warning in host.warnings { logger.warning("\(warning)") }
            try await host.start()
        } catch let error as StartupError {
            Self.fail("assistantd: \(error.message)", code: error.exitCode)
        }
        // One service group: the host's parts, the web app when it is on, then readiness and
        // reload, which stop first.
        let web: (any Service)?
        do {
            web = try WebApp.service(host: host, logger: Logger(label: "assistantd.web"))
        } catch {
            Self.fail("assistantd: the web app cannot start: \(ErrorText.sentence(error))", code: 78)
        }
        do {
            try await host.run(
                alongside: (web.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? []) + [
                    .init(service: ReadinessService(readiness: "READY=1\nSTATUS=serving \(socketPath)\nMAINPID=\(getpid())")),
                    .init(service: ReloadService(host: host, configPath: explicitConfig, logLevelOverride: logLevel, logger: logger)),
                ],
                signals: [.sigterm, .sigint])
        } catch let error as WebApp.CannotListen {
            // EX_CANTCREAT, as for a socket that cannot be made; the socket's own service stopped with the group.
            Self.fail("assistantd: \(error)", code: 73)
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        warn(message)
        Foundation.exit(code)
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Tells systemd the daemon is ready, then holds until graceful shutdown; it stops first, so
/// STOPPING=1 follows at once.
struct ReadinessService: Service {
    let readiness: String

    func run() async throws {
        // Ready only now: the service group traps SIGTERM/SIGINT before it runs its services, so
        // a supervisor that stops us right after READY=1 gets a graceful stop, not a kill.
        SystemdNotify.send(readiness)
        try? await gracefulShutdown()
        SystemdNotify.send("STOPPING=1")
    }
}

/// SIGHUP re-reads the configuration: log level, notification routing and sinks.
struct ReloadService: Service {
    let host: AssistantHost
    let configPath: String?
    let logLevelOverride: Logger.Level?
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                let loaded = try ConfigLoader.load(explicitPath: configPath, environment: ProcessInfo.processInfo.environment)
                try await host.reload(loaded.configuration)
                RedactingLogHandler.level.withLockedValue { $0 = logLevelOverride ?? loaded.configuration.logLevel }
                for warning in loaded.warnings { logger.warning("\(warning)") }
                logger.info("configuration reloaded", metadata: ["file": "\(loaded.path ?? "defaults")"])
            } catch {
                logger.error("configuration reload failed; keeping the running configuration", metadata: ["error": "\(ErrorText.sentence(error))"])
            }
        }
    }
}
