import Foundation
import HostCore
import NIOConcurrencyHelpers

/// Real peers the tests start (Python packages from the pinned venv, Debian programs).
/// Locally a missing peer skips its tests; under CI (`CI=true`) the tests run and fail.
public enum Peers {
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// A port the kernel just handed out on 127.0.0.1 (closed again: for a peer to take, or as a port nobody listens on).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw PeerMissing("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
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

    private static let moduleCache = NIOLockedValueBox<[String: Bool]>([:])

    public static func hasPythonModule(_ module: String) -> Bool {
        if let cached = moduleCache.withLockedValue({ $0[module] }) { return cached }
        let ok = run(python, ["-c", "import \(module)"]) == 0
        moduleCache.withLockedValue { $0[module] = ok }
        return ok
    }

    public static func hasProgram(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// For `.enabled(if:)`: run when the peer is here, and always under CI (where missing must fail).
    public static func shouldRun(pythonModule: String) -> Bool { isCI || hasPythonModule(pythonModule) }
    public static func shouldRun(program: String) -> Bool { isCI || hasProgram(program) }

    /// `run` on a plain thread: waiting for a child never blocks the cooperative pool.
    public static func runOffPool(_ executable: String, _ arguments: [String]) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: run(executable, arguments)) }
        }
    }

    /// Runs a program to the end on a plain thread and returns its stdout (nil when it failed).
    public static func output(_ executable: String, _ arguments: [String]) async -> Data? {
        try? await outputOrError(executable, arguments).get()
    }

    public struct ProgramFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Like `output`, with the program's stderr as the error when it fails.
    public static func outputOrError(_ executable: String, _ arguments: [String]) async -> Result<Data, ProgramFailed> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let out = Pipe()
                let err = Pipe()
                process.standardOutput = out
                process.standardError = err
                do { try process.run() } catch {
                    return continuation.resume(returning: .failure(ProgramFailed(description: "\(error)")))
                }
                // Read stderr alongside so a chatty child cannot fill its pipe and stall.
                let errors = NIOLockedValueBox(Data())
                let group = DispatchGroup()
                group.enter()
                DispatchQueue.global().async {
                    let data = err.fileHandleForReading.readDataToEndOfFile()
                    errors.withLockedValue { $0 = data }
                    group.leave()
                }
                let data = out.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilExit()
                if process.terminationStatus == 0 { return continuation.resume(returning: .success(data)) }
                let text = String(decoding: errors.withLockedValue { $0 }, as: UTF8.self)
                continuation.resume(returning: .failure(ProgramFailed(description: "\(executable) \(arguments.dropFirst(4).joined(separator: " ")) exited \(process.terminationStatus): \(text.suffix(2000))")))
            }
        }
    }

    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A child process whose stdout lines are collected as they come.
public final class PeerProcess: Sendable {
    public let process: Process
    public let output = LineCollector()
    public let errors = LineCollector()

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        self.process = process
        try process.run()
        Self.pump(out.fileHandleForReading, into: output)
        Self.pump(err.fileHandleForReading, into: errors)
    }

    static func pump(_ handle: FileHandle, into collector: LineCollector) {
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    collector.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { collector.append(String(decoding: pending, as: UTF8.self)) }
        }
    }

    /// The first line containing `text` on stdout or stderr (programs differ in where they log).
    public func line(containing text: String, within seconds: Double, _ what: String) async throws -> String {
        let output = self.output, errors = self.errors
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

    /// SIGKILL: a child may have inherited an ignored SIGTERM from the test runner.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
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
