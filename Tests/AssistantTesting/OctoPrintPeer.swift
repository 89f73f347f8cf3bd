import Foundation

/// A real OctoPrint 1.11.8 (PyPI, from the test venv) on 127.0.0.1 with the virtual printer, a
/// fresh base directory and a known API key. Discovery is disabled here: nothing multicasts.
public final class OctoPrintPeer: Sendable {
    public let directory = TemporaryDirectory(prefix: "octoprint")
    public let process: PeerProcess
    public let port: Int
    public let apiKey = "TESTKEY" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(24)
    public var url: String { "http://127.0.0.1:\(port)" }

    public static var executable: String { (Peers.python as NSString).deletingLastPathComponent + "/octoprint" }

    /// `discovery`: OctoPrint announces itself over mDNS and SSDP, bound to 127.0.0.1 only.
    /// `analysis: false` turns off OctoPrint's G-code analysis (the upload benchmark).
    public init(discovery: Bool = false, analysis: Bool = true) async throws {
        guard Peers.hasProgram(Self.executable) else {
            throw PeerMissing("octoprint is not installed in the test venv; run scripts/test, which creates it")
        }
        let base = directory.path
        _ = directory.write(
            "config.yaml",
            """
            accessControl:
              enabled: true
            devel:
              enableRateLimiter: false
              enableCsrfProtection: false
            plugins:
              _disabled: [\(discovery ? "" : "discovery, ")announcements, tracking, softwareupdate, pluginmanager, firmware_check, achievements]
              discovery:
                addresses: [127.0.0.1]
                publicHost: 127.0.0.1
              virtual_printer:
                enabled: true
                throttle: 0.001
            gcodeAnalysis:
              runAt: \(analysis ? "idle" : "never")
            server:
              firstRun: false
              onlineCheck: {enabled: false}
              pluginBlacklist: {enabled: false}
              seenWizards: {backup: null, corewizard: 4, file_check: 1, tracking: null, classicwebcam: 1}
            """)
        let added = await Peers.runOffPool(
            Self.executable, ["-b", base, "--iknowwhatimdoing", "user", "add", "admin", "--password", "test", "--admin"])
        guard added == 0 else { throw PeerMissing("octoprint user add failed (\(added))") }
        let usersPath = directory.file("users.yaml")
        let users = try String(contentsOfFile: usersPath, encoding: .utf8)
        try users.replacingOccurrences(of: "apikey: null", with: "apikey: \(apiKey)").write(toFile: usersPath, atomically: true, encoding: .utf8)
        port = try Peers.freePort()
        // Its own temporary folder: OctoPrint 1.11.8 spools uploads there and keeps the spool
        // of an upload whose client hung up, which must not litter the machine's /tmp.
        let temporary = directory.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        process = try PeerProcess(
            Self.executable, ["-b", base, "serve", "--host", "127.0.0.1", "--port", String(port), "--iknowwhatimdoing"], environment: environment)
        _ = try await process.line(containing: "Listening on http://127.0.0.1:\(port)", within: 90, "OctoPrint start")
    }

    public func stop() { process.stop() }
}

/// `Tests/peers/counting_proxy.py` in front of a server: every request line it forwards, and a
/// switch that cuts all connections (and refuses websockets from then on).
public final class CountingProxy: Sendable {
    public let process: PeerProcess
    public let port: Int
    public var url: String { "\(scheme)://127.0.0.1:\(port)" }

    public let scheme: String

    /// `tls`: certificate and key files (terminates TLS); `basic`: "user:password" required.
    public init(target: String, tls: (certificate: String, key: String)? = nil, basic: String? = nil) async throws {
        var arguments = [Peers.script("counting_proxy.py"), "--target", target]
        if let tls { arguments += ["--tls-cert", tls.certificate, "--tls-key", tls.key] }
        if let basic { arguments += ["--basic", basic] }
        scheme = tls == nil ? "http" : "https"
        process = try PeerProcess(Peers.python, arguments)
        port = try await process.announcedPort("proxy start")
    }

    public var requests: [String] { process.output.lines.filter { $0.hasPrefix("REQUEST ") } }

    /// Waits (bounded) until `count` requests whose line contains `path` have gone through.
    public func waitForRequests(containing path: String, count: Int) async throws {
        try await waitForRequests(path, count: count) { $0.contains(path) }
    }

    public func waitForRequests(_ what: String, count: Int, where predicate: @escaping @Sendable (String) -> Bool) async throws {
        let proxy = self
        _ = try await withDeadline(20, "request \(what) through the proxy") {
            while proxy.requests.filter(predicate).count < count {
                try await Task.sleep(for: .milliseconds(20))
            }
            return true
        }
    }

    public func cut() async { await process.signal(SIGUSR1) }
    public func stop() { process.stop() }
}

/// `Tests/peers/webcam_server.py`: a JPEG snapshot and an endless MJPEG stream on 127.0.0.1.
public final class WebcamPeer: Sendable {
    public let process: PeerProcess
    public let port: Int
    public var snapshotURL: String { "http://127.0.0.1:\(port)/snapshot.jpg" }
    public var streamURL: String { "http://127.0.0.1:\(port)/stream.mjpg" }

    public init() async throws {
        process = try PeerProcess(Peers.python, [Peers.script("webcam_server.py")])
        port = try await process.announcedPort("webcam start")
    }

    public func stop() { process.stop() }
}
