// The benchmark's second floor: the daemon's socket stack with nothing of the daemon in it. A
// NIO server on a Unix socket with the same line framing (`LineBasedFrameDecoder`), answering
// each line with a fixed reply and flushing once per read burst, as `ImmediateReplyHandler`
// does. Between the C floor and this one is NIO's own cost; between this one and assistantd is
// the daemon's (parsing, checking, dispatching, encoding). Usage: nio-floor SOCKET_PATH
import Foundation
import NIOCore
import NIOExtras
import NIOPosix

final class FixedReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private static let reply = Array(#"{"id":1,"jsonrpc":"2.0","result":"pong"}"#.utf8) + [0x0A]
    private var unflushed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: Self.reply)), promise: nil)
        unflushed = true
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: nio-floor SOCKET_PATH\n".utf8))
    exit(64)
}
let path = CommandLine.arguments[1]
unlink(path)
let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
            try channel.pipeline.syncOperations.addHandler(FixedReplyHandler())
        }
    }
    .bind(unixDomainSocketPath: path)
    .wait()
FileHandle.standardOutput.write(Data("ready\n".utf8))
try channel.closeFuture.wait()
