import Foundation
import HostCore
import NIOConcurrencyHelpers
import Subprocess
import SystemPackage

/// Real peers the tests start (Python packages from the pinned venv, Debian programs).
/// Locally a missing peer skips its tests; under CI (`CI=true`) the tests run and fail.
public enum Peers {
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// A port the kernel just handed out on 127.0.0.1 (closed again: for a peer to take, or as a port nobody listens on).
    public static func freePort() throws -> Int {
        let (fd, port) = try boundPort()
        close(fd)
        return port
    }

    /// A socket bound to a port the kernel handed out on 127.0.0.1, and that port: the caller
    /// holds it (a port some other program has taken) and closes it.
    public static func boundPort() throws -> (socket: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            close(fd)
            throw PeerMissing("no free port on 127.0.0.1")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static var python: String {
        if let explicit = ProcessInfo.processInfo.environment["ASSISTANT_TEST_PYTHON"], !explicit.isEmpty { return explicit }
        return (packageRoot as NSString).appendingPathComponent(".venv/bin/python")
    }

    public static func script(_ name: String) -> String {
        (packageRoot as NSString).appendingPathComponent("Tests/peers/\(name)")
    }

    /// Whether the test Python has `module`, from its site-packages or, for the standard
    /// library (json, http.server, …), from the interpreter the venv was made from (`home` in
    /// pyvenv.cfg): a trait's condition is synchronous, and starting a process is not. Looking
    /// in site-packages alone skipped every suite whose fake needs only the standard library.
    public static func hasPythonModule(_ module: String) -> Bool {
        let bin = (python as NSString).deletingLastPathComponent
        let top = module.split(separator: ".").first.map(String.init) ?? module
        var folders: [String] = []
        for lib in [(bin as NSString).appendingPathComponent("../lib"), baseLibrary(of: bin)].compactMap({ $0 }) {
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
            for version in versions where version.hasPrefix("python3") {
                folders += ["\(lib)/\(version)/site-packages/", "\(lib)/\(version)/"]
            }
        }
        return folders.contains { FileManager.default.fileExists(atPath: $0 + top) || FileManager.default.fileExists(atPath: $0 + top + ".py") }
    }

    /// `<home>/../lib` of the venv whose `bin` folder is given, or nil outside a venv.
    static func baseLibrary(of bin: String) -> String? {
        let config = ((bin as NSString).deletingLastPathComponent as NSString).appendingPathComponent("pyvenv.cfg")
        guard let text = try? String(contentsOfFile: config, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "home" { return (parts[1] as NSString).appendingPathComponent("../lib") }
        }
        return nil
    }

    public static func hasProgram(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// For `.enabled(if:)`: run when the peer is here, and always under CI (where missing must fail).
    public static func shouldRun(pythonModule: String) -> Bool { isCI || hasPythonModule(pythonModule) }
    public static func shouldRun(program: String) -> Bool { isCI || hasProgram(program) }

    /// Runs a program to the end (through swift-subprocess, so waiting never blocks a thread)
    /// and returns its exit status, its output discarded.
    public static func runOffPool(_ executable: String, _ arguments: [String]) async -> Int32 {
        (try? await runCommand(executable, arguments, environment: nil).status) ?? -1
    }

    /// Runs a program to the end and returns its stdout (nil when it failed).
    public static func output(_ executable: String, _ arguments: [String]) async -> Data? {
        try? await outputOrError(executable, arguments).get()
    }

    public struct ProgramFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Like `output`, with the program's stderr as the error when it fails.
    public static func outputOrError(_ executable: String, _ arguments: [String]) async -> Result<Data, ProgramFailed> {
        do {
            let result = try await runCommand(executable, arguments, environment: nil)
            if result.status == 0 { return .success(Data(result.stdout.utf8)) }
            return .failure(
                ProgramFailed(
                    description:
                        "\(executable) \(arguments.dropFirst(4).joined(separator: " ")) exited \(result.status): \(result.stderr.suffix(2000))"))
        } catch {
            return .failure(ProgramFailed(description: "\(executable): \(error)"))
        }
    }
}

/// A child process whose stdout and stderr lines are collected as they come. It runs in a task
/// this object owns (swift-subprocess reaps it there); `stop` kills it and `exitStatus` waits for
/// its end.
public final class PeerProcess: Sendable {
    public let output = LineCollector()
    public let errors = LineCollector()
    private let state = NIOLockedValueBox(State())
    private let runner: Task<Void, Never>

    private struct State {
        var pid: pid_t?
        var status: Int32?
        var killed = false
        var pidWaiters: [CheckedContinuation<pid_t?, Never>] = []
        var exitWaiters: [(id: UUID, continuation: CheckedContinuation<Int32, Never>)] = []
    }

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw PeerMissing("\(executable) cannot be run") }
        let state = self.state
        let output = self.output
        let errors = self.errors
        runner = Task {
            var status: Int32 = -1
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable)), arguments: Arguments(arguments), environment: Environment.of(environment), input: .none,
                    output: .sequence, error: .sequence
                ) { execution in
                    let pid = execution.processIdentifier.value
                    let (waiters, killNow) = state.withLockedValue { s -> ([CheckedContinuation<pid_t?, Never>], Bool) in
                        s.pid = pid
                        defer { s.pidWaiters = [] }
                        return (s.pidWaiters, s.killed)
                    }
                    waiters.forEach { $0.resume(returning: pid) }
                    if killNow { kill(pid, SIGKILL) }
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { try? await Self.collect(execution.standardOutput, into: output) }
                        group.addTask { try? await Self.collect(execution.standardError, into: errors) }
                    }
                }
                status = result.terminationStatus.code
            } catch {
                errors.append("could not run \(executable): \(error)")
            }
            let final = status
            let (pidWaiters, exitWaiters) = state.withLockedValue { s in
                s.status = final
                defer { (s.pidWaiters, s.exitWaiters) = ([], []) }
                return (s.pidWaiters, s.exitWaiters)
            }
            pidWaiters.forEach { $0.resume(returning: nil) }
            exitWaiters.forEach { $0.continuation.resume(returning: final) }
        }
    }

    private static func collect(_ sequence: SubprocessOutputSequence, into collector: LineCollector) async throws {
        for try await line in sequence.strings(bufferingPolicy: .unbounded) { collector.append(line) }
    }

    /// The child's process id once it runs (nil if it could not start or has ended).
    public func processIdentifier() async -> pid_t? {
        await withCheckedContinuation { continuation in
            let known = state.withLockedValue { s -> pid_t?? in
                if let pid = s.pid, s.status == nil { return .some(pid) }
                if s.status != nil { return .some(nil) }
                s.pidWaiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Sends `signal` to the child once it runs.
    public func signal(_ signal: Int32) async {
        if let pid = await processIdentifier() { kill(pid, signal) }
    }

    /// Whether the child has ended.
    public var hasExited: Bool { state.withLockedValue { $0.status != nil } }

    /// Waits for the child's end: its exit code, or 128 + the signal that ended it (-1 when the
    /// waiting task is cancelled first, so that a deadline around it can end).
    public func exitStatus() async -> Int32 {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let known = state.withLockedValue { s -> Int32? in
                    if let status = s.status { return status }
                    if Task.isCancelled { return -1 }
                    s.exitWaiters.append((id, continuation))
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { s -> CheckedContinuation<Int32, Never>? in
                guard let i = s.exitWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return s.exitWaiters.remove(at: i).continuation
            }
            waiter?.resume(returning: -1)
        }
    }

    /// The first line containing `text` on stdout or stderr (programs differ in where they log).
    public func line(containing text: String, within seconds: Double, _ what: String) async throws -> String {
        let output = self.output
        let errors = self.errors
        return try await withDeadline(seconds, what) {
            await withTaskGroup(of: String.self) { group in
                group.addTask { await output.next { $0.contains(text) } }
                group.addTask { await errors.next { $0.contains(text) } }
                let first = await group.next() ?? ""
                group.cancelAll()
                return first
            }
        }
    }

    /// The port a test peer announces on stdout as `PORT <n>` once it listens.
    public func announcedPort(within seconds: Double = 20, _ what: String) async throws -> Int {
        let output = self.output
        let line = try await withDeadline(seconds, what) { await output.next { $0.hasPrefix("PORT ") } }
        guard let port = Int(line.dropFirst(5)) else { throw PeerMissing("\(what): no port announced") }
        return port
    }

    /// SIGKILL (a child may have inherited an ignored SIGTERM from the test runner); its task
    /// then reaps it and ends.
    public func stop() {
        let pid = state.withLockedValue { s -> pid_t? in
            s.killed = true
            return s.status == nil ? s.pid : nil
        }
        if let pid { kill(pid, SIGKILL) }
    }

    deinit { stop() }
}

extension Environment {
    /// The given variables only, or the test runner's when nil.
    static func of(_ variables: [String: String]?) -> Environment {
        guard let variables else { return .inherit }
        return .custom(Dictionary(uniqueKeysWithValues: variables.map { (Environment.Key(stringLiteral: $0.key), $0.value) }))
    }
}

extension TerminationStatus {
    /// As a shell reports it: the exit code, or 128 + the signal.
    var code: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}

/// aiosmtpd on 127.0.0.1 with a certificate made for this run, STARTTLS (or implicit TLS) and AUTH required.
public final class SMTPPeer: Sendable {
    public let directory = TemporaryDirectory(prefix: "smtp")
    public let process: PeerProcess
    public let port: Int
    public let certificate: String
    public let password = "smtp-pw-\(UUID().uuidString.prefix(8))"
    public let user = "tester"

    public init(mode: String = "starttls") async throws {
        guard Peers.hasPythonModule("aiosmtpd") else {
            throw PeerMissing("aiosmtpd is not installed in \(Peers.python); run scripts/test, which creates the venv")
        }
        certificate = directory.file("cert.pem")
        let key = directory.file("key.pem")
        let status = await Peers.runOffPool(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        guard status == 0 else { throw PeerMissing("openssl could not make a test certificate") }
        directory.directory("out")
        process = try PeerProcess(
            Peers.python,
            [
                Peers.script("smtp_server.py"), "--cert", certificate, "--key", key, "--out", directory.file("out"), "--user", user, "--password",
                password, "--mode", mode,
            ])
        port = try await process.announcedPort(within: 30, "aiosmtpd start")
    }

    /// The next message the server accepted (already seen or still to come), with its session facts.
    public func message(_ index: Int = 1) async throws -> [String: Any] {
        let collector = process.output
        let line = try await withDeadline(30, "waiting for mail") {
            await collector.next { $0.hasPrefix("MESSAGE ") && $0.hasSuffix("message-\(index).json") }
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: String(line.dropFirst(8))))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    public func stop() { process.stop() }

    /// A sendmail for the host's sendmail path: msmtp relaying to this server (STARTTLS, AUTH as
    /// its user), its configuration and wrapper written into `directory`. Returns the wrapper's path.
    public func msmtpSendmail(in directory: TemporaryDirectory) throws -> String {
        guard Peers.hasProgram("/usr/bin/msmtp") else { throw PeerMissing("msmtp is not installed (Debian package msmtp)") }
        let rc = directory.write(
            "msmtprc",
            """
            defaults
            tls on
            tls_starttls on
            tls_trust_file \(certificate)
            account test
            host 127.0.0.1
            port \(port)
            auth plain
            user \(user)
            password \(password)
            from assistant@example.org
            account default : test

            """, mode: 0o600)
        return directory.write("sendmail", "#!/bin/sh\nexec /usr/bin/msmtp -C \(rc) \"$@\"\n", mode: 0o700)
    }
}

public struct PeerMissing: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension HostConfiguration {
    /// Mail through a test SMTP peer (STARTTLS, AUTH as the peer's user; store the peer's
    /// password under `host/smtp/password` before sending).
    public mutating func sendMail(through smtp: SMTPPeer, from: String = "assistant@example.org", to: [String] = ["pilot@example.org"]) {
        notify.mail.enabled = true
        notify.mail.transport = "smtp"
        notify.mail.from = from
        notify.mail.to = to
        notify.smtp.host = "127.0.0.1"
        notify.smtp.port = smtp.port
        notify.smtp.security = "starttls"
        notify.smtp.username = smtp.user
        notify.smtp.caFile = smtp.certificate
    }
}

/// `Tests/peers/http_upstream.py` on 127.0.0.1: plain, or TLS with a certificate made for this run
/// (its own CA, so `certificate` is the CA file a client trusts).
public final class HTTPUpstreamPeer: Sendable {
    public let directory = TemporaryDirectory(prefix: "up")
    public let process: PeerProcess
    public let port: Int
    public let certificate: String?

    public var baseURL: String { "\(certificate == nil ? "http" : "https")://127.0.0.1:\(port)" }

    public init(tls: Bool = false) async throws {
        var arguments = [Peers.script("http_upstream.py")]
        if tls {
            let certificate = directory.file("cert.pem")
            let key = directory.file("key.pem")
            let status = await Peers.runOffPool(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            guard status == 0 else { throw PeerMissing("openssl could not make a test certificate") }
            arguments += ["--cert", certificate, "--key", key]
            self.certificate = certificate
        } else {
            certificate = nil
        }
        process = try PeerProcess(Peers.python, arguments)
        port = try await process.announcedPort(within: 20, "http_upstream.py start")
    }

    public func stop() { process.stop() }
}
