import AssistantClient
import Foundation
import HostCore
import Subprocess
import SystemPackage

/// The built executables (`swift build` puts them beside the test bundle).
public enum Binaries {
    public static let directory: String = {
        if let explicit = ProcessInfo.processInfo.environment["ASSISTANT_BIN_DIR"], !explicit.isEmpty { return explicit }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        if FileManager.default.isExecutableFile(atPath: (bundle as NSString).appendingPathComponent("assistantd")) { return bundle }
        return (Peers.packageRoot as NSString).appendingPathComponent(".build/debug")
    }()

    public static var assistantd: String { (directory as NSString).appendingPathComponent("assistantd") }
    public static var assistantctl: String { (directory as NSString).appendingPathComponent("assistantctl") }
}

/// Receives systemd-style readiness datagrams (`NOTIFY_SOCKET`), so tests wait for READY=1
/// instead of sleeping.
final class NotifyReceiver: Sendable {
    let path: String
    let messages = LineCollector()
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        guard UnixSocketAddress.bind(fd, to: path) else { throw POSIXError(.EADDRINUSE) }
        chmod(path, 0o777)
        let messages = self.messages
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                for line in String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n") { messages.append(String(line)) }
            }
        }
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

/// For tests that start the daemon some other way (socket activation).
public final class NotifyReceiverForTests: Sendable {
    let receiver: NotifyReceiver
    public var path: String { receiver.path }
    public var messages: LineCollector { receiver.messages }
    public init(path: String) throws { receiver = try NotifyReceiver(path: path) }
}

/// `assistantd` as a separate process on temporary directories, as a user runs it.
public final class DaemonProcess: Sendable {
    public let directory: TemporaryDirectory
    public let process: PeerProcess
    public let socketPath: String
    let notify: NotifyReceiver

    public var stdout: LineCollector { process.output }
    public var stderr: LineCollector { process.errors }

    /// The environment a daemon in `directory` gets (also what `assistantctl` needs).
    public static func environment(_ directory: TemporaryDirectory) -> [String: String] {
        [
            "HOME": directory.path, "XDG_RUNTIME_DIR": directory.directory("run"), "XDG_DATA_HOME": directory.directory("data"),
            "XDG_CONFIG_HOME": directory.directory("config"), "PATH": "/usr/bin:/bin", "USER": "tester",
        ]
    }

    /// `executable`: another `assistantd` than the build's (an installed copy).
    public init(
        directory: TemporaryDirectory = TemporaryDirectory(), arguments: [String] = [], config: String? = nil,
        extraEnvironment: [String: String] = [:], runAs uid: uid_t? = nil, executable: String = Binaries.assistantd,
        wrapper: [String] = []
    ) throws {
        self.directory = directory
        var environment = Self.environment(directory)
        if let config {
            let path = (environment["XDG_CONFIG_HOME"]! as NSString).appendingPathComponent("assistant/config.toml")
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try config.write(toFile: path, atomically: true, encoding: .utf8)
        }
        notify = try NotifyReceiver(path: directory.file("notify-\(UUID().uuidString.prefix(8))"))
        environment["NOTIFY_SOCKET"] = notify.path
        environment.merge(extraEnvironment) { _, new in new }
        socketPath =
            environment["ASSISTANT_SOCKET"] ?? (environment["XDG_RUNTIME_DIR"]! as NSString).appendingPathComponent("assistant/assistantd.sock")
        if let uid {
            // That user may not be able to reach the build tree (a clone in a private 0700
            // folder), so it runs its own copy from the temporary directory, as an installed
            // daemon runs: nothing is read from where it was built.
            let copy = directory.file("bin/assistantd")
            try FileManager.default.createDirectory(atPath: directory.file("bin"), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: copy) { try FileManager.default.copyItem(atPath: executable, toPath: copy) }
            let executable = copy
            // Hand the whole tree to that user (directly, not through a child process that could
            // fail to spawn unnoticed), then drop to it.
            var paths = [directory.path]
            if let walker = FileManager.default.enumerator(atPath: directory.path) {
                while let relative = walker.nextObject() as? String { paths.append(directory.file(relative)) }
            }
            for path in paths {
                guard lchown(path, uid, gid_t(uid)) == 0 else {
                    throw PeerMissing("cannot hand \(path) to uid \(uid): \(String(cString: strerror(errno)))")
                }
                var info = stat()
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { chmod(path, 0o755) }
            }
            process = try PeerProcess(
                "/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + wrapper + [executable] + arguments,
                environment: environment)
        } else if let first = wrapper.first {
            process = try PeerProcess(first, Array(wrapper.dropFirst()) + [executable] + arguments, environment: environment)
        } else {
            process = try PeerProcess(executable, arguments, environment: environment)
        }
    }

    /// Starts a daemon and waits until it says READY=1.
    public static func started(
        directory: TemporaryDirectory = TemporaryDirectory(), arguments: [String] = [], config: String? = nil,
        extraEnvironment: [String: String] = [:], runAs uid: uid_t? = nil, executable: String = Binaries.assistantd,
        wrapper: [String] = []
    ) async throws -> DaemonProcess {
        let daemon = try DaemonProcess(
            directory: directory, arguments: arguments, config: config, extraEnvironment: extraEnvironment, runAs: uid,
            executable: executable, wrapper: wrapper)
        try await daemon.waitReady()
        return daemon
    }

    public func waitReady(timeout: Double = 30) async throws {
        let messages = notify.messages
        let process = self.process
        // Ready, or exited (a daemon that fails to start says why on stderr and exits).
        let line = try? await withDeadline(timeout, "assistantd readiness") {
            await withTaskGroup(of: String.self) { group in
                group.addTask { await messages.next { $0 == "READY=1" } }
                group.addTask {
                    _ = await process.exitStatus()
                    return "EXITED"
                }
                let first = await group.next() ?? ""
                group.cancelAll()
                return first
            }
        }
        if line != "READY=1" {
            let status = process.hasExited ? String(await process.exitStatus()) : "-"
            throw PeerMissing("assistantd did not become ready; exit \(status); stderr: \(process.errors.lines.joined(separator: "\n"))")
        }
    }

    public func connect() async throws -> AssistantConnection {
        try await AssistantConnection.connect(socketPath: socketPath)
    }

    public func signal(_ signal: Int32) async {
        await process.signal(signal)
    }

    /// Waits for the process to exit and returns its status.
    public func exitStatus(timeout: Double = 30) async throws -> Int32 {
        let process = self.process
        return try await withDeadline(timeout, "assistantd exit") { await process.exitStatus() }
    }
}

/// Runs a command to completion and keeps what it printed.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a command to completion through swift-subprocess and keeps what it printed (at most
/// 16 MiB of each). `environment` nil: the test runner's.
public func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String]?, stdin: String? = nil, currentDirectory: String? = nil
) async throws -> CommandResult {
    try await withDeadline(60, "\(executable) \(arguments.joined(separator: " "))") {
        let result = try await Subprocess.run(
            .path(FilePath(executable)), arguments: Arguments(arguments), environment: Environment.of(environment),
            workingDirectory: currentDirectory.map { FilePath($0) }, input: .string(stdin ?? ""), output: .string(limit: 16 << 20),
            error: .string(limit: 16 << 20))
        return CommandResult(status: result.terminationStatus.code, stdout: result.standardOutput, stderr: result.standardError)
    }
}
