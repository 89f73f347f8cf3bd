import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import NIOTLS

public struct SMTPError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// What one SMTP session negotiated; tests assert on it (TLS really used, AUTH really done).
public struct SMTPSessionReport: Sendable, Equatable {
    public var tls = false
    public var authMechanism: String?

    public init(tls: Bool = false, authMechanism: String? = nil) {
        self.tls = tls
        self.authMechanism = authMechanism
    }
}

/// Direct SMTP submission: STARTTLS or implicit TLS through swift-nio-ssl with the server
/// certificate verified (system roots, or `ca_file` for a private CA), AUTH PLAIN or LOGIN with
/// the password from the vault (`host/smtp/password`).
///
/// Hand-written on purpose: none of the project's libraries speaks SMTP, and a submission client
/// needs only this small, linear dialogue (RFC 5321, 3207, 4954).
public struct SMTPTransport: MailTransport {
    let settings: SMTPSettings
    let vault: Vault?
    let group: any EventLoopGroup

    public init(settings: SMTPSettings, vault: Vault?, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.settings = settings
        self.vault = vault
        self.group = group
    }

    public func send(_ message: Data, from: String, to: [String]) async throws {
        _ = try await sendReporting(message, from: from, to: to)
    }

    public func sendReporting(_ message: Data, from: String, to: [String]) async throws -> SMTPSessionReport {
        let password: String? = settings.username == nil ? nil : try await vault?.get("host/smtp/password")
        if settings.username != nil && password == nil {
            throw SMTPError("notify.smtp.username is set but the vault has no 'host/smtp/password' (run 'assistantctl vault set host/smtp/password')")
        }
        let tlsContext = try makeTLSContext()
        let host = settings.host
        let implicitTLS = settings.security == "tls"
        // The handlers go in before the connection is active: the server's greeting may arrive at once.
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(Int64(settings.timeoutSeconds)))
            .connect(host: host, port: settings.effectivePort) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if implicitTLS {
                        try sync.addHandler(NIOSSLClientHandler(context: tlsContext, serverHostname: Self.sniName(host)))
                    }
                    try sync.addHandler(PlaintextLedger())
                    try sync.addHandler(ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: 64 * 1024))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }

        return try await withThrowingTaskGroup(of: SMTPSessionReport?.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    var session = SMTPSession(inbound: inbound.makeAsyncIterator(), outbound: outbound)
                    var report = SMTPSessionReport(tls: implicitTLS)
                    try await session.expect(220)
                    let helo = Self.heloName()
                    var extensions = try await session.command("EHLO \(helo)", expect: 250)
                    if settings.security == "starttls" {
                        guard extensions.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                            throw SMTPError("\(host) does not offer STARTTLS; refusing to send credentials or mail in clear text")
                        }
                        try await session.command("STARTTLS", expect: 220)
                        let raw = channel.channel
                        let handshake = raw.eventLoop.makePromise(of: Void.self)
                        let linesRead = session.linesRead
                        let installed = raw.eventLoop.submit {
                            // After its 220 the server says nothing until TLS is up: anything
                            // already received would be read as if it came inside TLS (the
                            // STARTTLS command-injection class, CVE-2011-0411).
                            let ledger = try raw.pipeline.syncOperations.handler(type: PlaintextLedger.self)
                            guard ledger.lines == linesRead, ledger.partialBytes == 0 else {
                                throw SMTPError(
                                    "\(host) sent more after its 220 to STARTTLS, before TLS began; refusing to go on (injected plaintext)")
                            }
                            let handler = try NIOSSLClientHandler(context: tlsContext, serverHostname: Self.sniName(host))
                            try raw.pipeline.syncOperations.addHandler(handler, position: .first)
                            try raw.pipeline.syncOperations.addHandler(TLSHandshakeWatcher(handshake), position: .after(handler))
                        }
                        // The watcher completes the promise only once it is in; otherwise nothing would.
                        installed.whenFailure { handshake.fail($0) }
                        try await installed.get()
                        // Nothing more is said until the certificate is verified and TLS is up.
                        try await handshake.futureResult.get()
                        report.tls = true
                        extensions = try await session.command("EHLO \(helo)", expect: 250)
                    }
                    if let username = settings.username, let password {
                        let mechanisms = extensions.first { $0.uppercased().hasPrefix("AUTH") }?.uppercased().split(separator: " ").dropFirst() ?? []
                        if mechanisms.contains("PLAIN") {
                            let token = Data(("\u{0}" + username + "\u{0}" + password).utf8).base64EncodedString()
                            try await session.command("AUTH PLAIN \(token)", expect: 235, redactedAs: "AUTH PLAIN ***")
                            report.authMechanism = "PLAIN"
                        } else if mechanisms.contains("LOGIN") {
                            try await session.command("AUTH LOGIN", expect: 334)
                            try await session.command(Data(username.utf8).base64EncodedString(), expect: 334, redactedAs: "***")
                            try await session.command(Data(password.utf8).base64EncodedString(), expect: 235, redactedAs: "***")
                            report.authMechanism = "LOGIN"
                        } else {
                            throw SMTPError("\(host) offers no AUTH PLAIN or LOGIN (after TLS); cannot log in")
                        }
                    }
                    try await session.command("MAIL FROM:<\(from)>", expect: 250)
                    for recipient in to { try await session.command("RCPT TO:<\(recipient)>", expect: 250, 251) }
                    try await session.command("DATA", expect: 354)
                    try await session.send(Self.dotStuffed(message))
                    try await session.expect(250)
                    _ = try? await session.command("QUIT", expect: 221)
                    return report
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(settings.timeoutSeconds))
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            guard let report = first else {
                try? await channel.channel.close()
                throw SMTPError("the SMTP session with \(host) timed out after \(settings.timeoutSeconds) s")
            }
            return report
        }
    }

    private func makeTLSContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        if let caFile = settings.caFile {
            configuration.trustRoots = .file(caFile)
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// SNI takes names, not addresses; with nil NIOSSL verifies the certificate against the peer's IP.
    static func sniName(_ host: String) -> String? {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 { return nil }
        return host
    }

    static func heloName() -> String {
        let name = ProcessInfo.processInfo.hostName
        return name.isEmpty || name.contains(" ") ? "localhost" : name
    }

    /// CRLF line ends, leading dots doubled (RFC 5321 §4.5.2), and the final `.` line.
    static func dotStuffed(_ message: Data) -> Data {
        var text = String(decoding: message, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        if text.hasSuffix("\n") { text.removeLast() }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return Data((lines.joined(separator: "\r\n") + "\r\n.\r\n").utf8)
    }
}

/// Completes a promise when the TLS handshake succeeds, fails it when the handshake fails or the
/// connection drops first, so a refused certificate is an immediate error, not a silent stall.
final class TLSHandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private var promise: EventLoopPromise<Void>?

    init(_ promise: EventLoopPromise<Void>) { self.promise = promise }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            promise?.succeed()
            promise = nil
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise?.fail(SMTPError("TLS with the SMTP server failed: \(error)"))
        promise = nil
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise?.fail(SMTPError("the SMTP server closed the connection during the TLS handshake"))
        promise = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        promise?.fail(SMTPError("the TLS handshake did not complete"))
        promise = nil
    }
}

/// The reply/command rhythm of one SMTP session.
struct SMTPSession {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    /// Lines taken from `inbound`, to hold against what `PlaintextLedger` saw arrive.
    private(set) var linesRead = 0

    /// Reads one (possibly multi-line) reply and checks its code; returns the text lines.
    @discardableResult
    mutating func expect(_ codes: Int..., after sent: String? = nil) async throws -> [String] {
        try await reply(codes, after: sent)
    }

    @discardableResult
    mutating func command(_ text: String, expect codes: Int..., redactedAs: String? = nil) async throws -> [String] {
        try await send(Data((text + "\r\n").utf8))
        return try await reply(codes, after: redactedAs ?? text)
    }

    private mutating func reply(_ codes: [Int], after sent: String?) async throws -> [String] {
        var lines: [String] = []
        while true {
            guard var buffer = try await inbound.next() else { throw SMTPError("the SMTP server closed the connection") }
            linesRead += 1
            let line = buffer.readString(length: buffer.readableBytes)?.trimmingCharacters(in: .init(charactersIn: "\r")) ?? ""
            guard line.count >= 3, let code = Int(line.prefix(3)) else { throw SMTPError("unexpected SMTP reply '\(line)'") }
            lines.append(String(line.dropFirst(4)))
            if line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] == " " {
                guard codes.contains(code) else {
                    throw SMTPError("SMTP server answered \(line)\(sent.map { " to \($0)" } ?? "")")
                }
                return lines
            }
        }
    }

    func send(_ data: Data) async throws {
        try await outbound.write(ByteBuffer(bytes: data))
    }
}

/// Counts what the server sent before line framing, on the event loop: whole lines, and the bytes
/// of a line not yet ended. At STARTTLS both must match what the session has read.
final class PlaintextLedger: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private(set) var lines = 0
    private(set) var partialBytes = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytesView
        let newlines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if newlines > 0, let last = bytes.lastIndex(of: 0x0A) {
            lines += newlines
            partialBytes = bytes.endIndex - last - 1
        } else {
            partialBytes += bytes.count
        }
        context.fireChannelRead(data)
    }
}
