import Foundation
import NIOCore
import NIOExtras
import NIOPosix

/// A socket client that sends raw bytes and reads raw reply lines, for protocol tests that must
/// send what no well-behaved client would (garbage, invalid UTF-8, oversized lines).
public final class RawLineClient: Sendable {
    let channel: any Channel
    let lines: AsyncStream<String>

    final class LineForwarder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<String>.Continuation
        init(_ continuation: AsyncStream<String>.Continuation) { self.continuation = continuation }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            continuation.yield(String(decoding: unwrapInboundIn(data).readableBytesView, as: UTF8.self))
        }
        func channelInactive(context: ChannelHandlerContext) { continuation.finish() }
        func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
    }

    /// `reading: false` never reads a reply: the socket's buffers fill, as with a client that
    /// stopped reading.
    public init(socketPath: String, reading: Bool = true) async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        lines = stream
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: reading)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(LineForwarder(continuation))
                }
            }
            .connect(unixDomainSocketPath: socketPath).get()
    }

    public func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    public func send(line: String) async throws {
        try await send(Array((line + "\n").utf8))
    }

    /// Shuts down the write side only (as `printf … | socat - UNIX-CONNECT:…` does): the daemon
    /// sees the end of the requests, not a hang-up.
    public func finishSending() async throws {
        try await channel.close(mode: .output)
    }

    /// The next line, or nil when the daemon closed the connection.
    public func readLine(timeout seconds: Double = 10) async throws -> String? {
        let lines = self.lines
        return try await withDeadline(seconds, "reading a reply line") {
            var iterator = lines.makeAsyncIterator()
            return await iterator.next()
        }
    }

    /// Completes when the daemon has closed the connection.
    public func waitForClose(timeout seconds: Double = 10) async throws {
        let channel = self.channel
        try await withDeadline(seconds, "waiting for the daemon to close the connection") {
            try? await channel.closeFuture.get()
        }
    }

    public func close() async {
        try? await channel.close()
    }
}
