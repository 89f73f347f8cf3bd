import AssistantClient
import AssistantTesting
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// What the client makes of the daemon's replies, from a scripted peer on a Unix socket: large
/// replies are parsed by the caller (off the event loop), and a reply that is not JSON-RPC is a
/// clear error, never a call left waiting.
struct ClientReplyTests {
    /// Answers each request line with the next scripted reply line.
    final class Scripted: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let replies: Mutex<[String]>
        init(_ replies: [String]) { self.replies = Mutex(replies) }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard let reply = replies.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: reply + "\n")), promise: nil)
        }
    }

    static func withPeer(_ replies: [String], _ body: (AssistantConnection) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("peer.sock")
        let handler = Scripted(replies)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
            .bind(unixDomainSocketPath: path).get()
        let connection = try await AssistantConnection.connect(socketPath: path)
        do {
            try await body(connection)
        } catch {
            await connection.close()
            try? await server.close()
            throw error
        }
        await connection.close()
        try await server.close()
    }

    @Test func aLargeReplyIsParsedByItsCaller() async throws {
        let items = (0..<20_000).map { "\"item \($0)\"" }.joined(separator: ",")
        let reply = #"{"id":1,"jsonrpc":"2.0","result":{"items":["# + items + "]}}"
        #expect(reply.utf8.count > 64 << 10)
        try await Self.withPeer([reply]) { connection in
            let result = try await connection.call("big")
            #expect(result["items"]?.arrayValue?.count == 20_000)
            #expect(result["items"]?.arrayValue?.last == "item 19999")
        }
    }

    @Test func aLargeErrorReplyIsTheError() async throws {
        let detail = String(repeating: "x", count: 100_000)
        let reply = #"{"id":1,"jsonrpc":"2.0","error":{"code":-32004,"message":"down","data":{"detail":""# + detail + #""}}}"#
        try await Self.withPeer([reply]) { connection in
            let outcome = try await connection.callResult("big")
            guard case .failure(let error) = outcome else {
                Issue.record("expected the error, got \(outcome)")
                return
            }
            #expect(error.code == -32004)
            #expect(error.data?["detail"]?.stringValue?.count == 100_000)
        }
    }

    @Test func aLargeReplyThatIsNotJSONIsAClearError() async throws {
        let reply = #"{"id":1,"jsonrpc":"2.0","result":["# + String(repeating: "1,", count: 50_000) + "oops"
        try await Self.withPeer([reply]) { connection in
            do {
                let result = try await connection.call("big")
                Issue.record("expected an error, got \(result)")
            } catch ClientError.malformedReply(let text) {
                #expect(text.hasPrefix(#"{"id":1,"#))
            }
        }
    }
}
