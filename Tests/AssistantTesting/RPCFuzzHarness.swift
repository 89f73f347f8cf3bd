import Foundation
import HostCore
import Logging
import NIOCore
import NIOEmbedded
import NIOExtras

/// What the fuzz target (`Fuzz/RPCFuzz`, `scripts/fuzz`) and the corpus replay test feed bytes
/// through: the daemon's line framing (`LineBasedFrameDecoder` with the request size limit), the
/// JSON parser and the dispatcher, with the host's methods and the echo test plugin registered.
/// Methods that take a file path are left out (the fuzzer must not write files wherever its
/// bytes point), and so are the echo commands that wait for seconds and the vault's writes: every
/// secret stored is kept and scrubbed from every reply by design, so a million fuzzed
/// `vault.set`s measure a vault of a million secrets, not the protocol (the run slowed from 600
/// to under 100 inputs per second).
public final class RPCFuzzHarness: Sendable {
    public let host: TestHost
    let dispatcher: Dispatcher
    public static let maxLineBytes = 64 * 1024

    public init() async throws {
        host = try await TestHost.started(plugins: [EchoPlugin()])
        var table = MethodTable()
        for (_, entry) in host.host.dispatcher.methods.entries {
            let writesFiles = entry.descriptor.params.contains { $0.type == .path || $0.type == .array(of: .path) }
            let name = entry.descriptor.name
            let slow = ["echo.hold", "echo.wait", "echo.hang"].contains(name) || (name.hasPrefix("vault.") && name != "vault.list")
            if !writesFiles && !slow { try? table.add(entry) }
        }
        dispatcher = Dispatcher(methods: table, redactor: SecretRedactor(), logger: Logger(label: "fuzz"))
    }

    /// The reply lines for `bytes` as one connection would send them; every reply is checked to
    /// be one JSON-RPC response (or a batch of them) on one line.
    public func feed(_ bytes: [UInt8]) async -> [Data] {
        var replies: [Data] = []
        for line in Self.lines(bytes) where line.readableBytes <= Self.maxLineBytes {
            // `handle` answers a line as a connection does: at once when it can (nothing for a
            // blank line), else as a call.
            if let reply = await dispatcher.handle(line: Data(line.readableBytesView), connection: nil) {
                precondition(!reply.contains(UInt8(ascii: "\n")), "a reply spans lines")
                let value = try? JSONValue.decode(reply)
                precondition(
                    value?["jsonrpc"] == "2.0" || value?.arrayValue?.isEmpty == false,
                    "a reply is not JSON-RPC: \(String(decoding: reply, as: UTF8.self))")
                replies.append(reply)
            }
        }
        return replies
    }

    /// The lines the daemon's framing cuts from `bytes`. Past the limit without a newline the
    /// decoder throws: the daemon answers -32007 and closes, after the lines before it. The
    /// embedded channel lives and dies on this one thread, as NIO requires.
    static func lines(_ bytes: [UInt8]) -> [ByteBuffer] {
        let channel = EmbeddedChannel()
        try? channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: maxLineBytes))
        var lines: [ByteBuffer] = []
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
        while let line = try? channel.readInbound(as: ByteBuffer.self) { lines.append(line) }
        _ = try? channel.finish()
        return lines
    }

    public func stop() async { await host.stop() }
}
