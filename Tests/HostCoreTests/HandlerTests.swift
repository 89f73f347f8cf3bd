import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOExtras
import Testing

@testable import HostCore

/// Channel handlers without sockets (swift-nio's EmbeddedChannel).
@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct HandlerTests {
    @Test func aRefusedPeerGetsMinus32006() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(PeerRefusalHandler(reason: "uid 1000 is not allowed"))
        channel.pipeline.fireChannelActive()
        let reply = try #require(try channel.readOutbound(as: ByteBuffer.self))
        let value = try JSONValue.decode(Data(reply.readableBytesView.dropLast()))
        #expect(value["error"]?["code"] == -32006)
        #expect(value["id"] == .null)
        #expect(value["error"]?["message"]?.stringValue?.contains("uid 1000") == true)
    }

    @Test func noticesQueueBoundedDroppingTheOldest() throws {
        let channel = EmbeddedChannel()
        let connection = ServerConnection(id: 1, peer: nil, channel: channel, queueLimit: 3)
        // Not writable: notices queue (at most 3) until the channel drains.
        channel.isWritable = false
        for i in 0..<10 { connection.deliverNotice(["n": .int(Int64(i))]) }
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        #expect(connection.droppedNotices == 7)
        channel.isWritable = true
        connection.drainNotices()
        var received: [Int64] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            let value = try JSONValue.decode(Data(buffer.readableBytesView.dropLast()))
            #expect(value["method"] == "notice")
            received.append(value["params"]?["n"]?.intValue ?? -1)
        }
        #expect(received == [7, 8, 9])
    }

    /// The host's methods (ping answers at once; status is a call), with no host behind them.
    static func hostDispatcher() throws -> Dispatcher {
        Dispatcher(methods: try AssistantHost.methodTable(box: HostBox(), supervisors: []), redactor: SecretRedactor(), logger: Logger(label: "t"))
    }

    /// A host method that outlasts its declared time limit gets -32005 naming it, and nothing
    /// is left running (the limit was declared but never applied before).
    @Test func aHostMethodIsHeldToItsDeclaredTimeLimit() async throws {
        var table = MethodTable()
        try table.add(
            MethodEntry(
                pluginID: "host",
                descriptor: CommandDescriptor(name: "slow", summary: "never ends", result: .null, timeout: .milliseconds(100), effect: .read),
                handler: .host({ _, _ in
                    try await Task.sleep(for: .seconds(3600))
                    return JSONValue.null
                })))
        let dispatcher = Dispatcher(methods: table, redactor: SecretRedactor(), logger: Logger(label: "t"))
        do {
            _ = try await dispatcher.call("slow", params: nil, id: .number(1), connection: nil)
            Issue.record("a call past its limit returned")
        } catch let error as RPCError {
            #expect(error.code == RPCErrorCode.timeout)
            #expect(error.message == "'slow' did not finish within 100 ms")
            #expect(error.data?["method"] == "slow")
        }
        #expect(dispatcher.callsInFlight.total == 0)
    }

    static func lines(_ channel: EmbeddedChannel) throws -> [JSONValue] {
        var replies: [JSONValue] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            #expect(buffer.readableBytesView.last == UInt8(ascii: "\n"))
            replies.append(try JSONValue.decode(Data(buffer.readableBytesView.dropLast())))
        }
        return replies
    }

    @Test func pingAndBadLinesAreAnsweredOnTheEventLoopAndCallsPassOnParsed() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ImmediateReplyHandler(dispatcher: try Self.hostDispatcher(), maxLineBytes: 1 << 20))
        for line in [#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "{oops", "  \r", #"{"jsonrpc":"2.0","id":2,"method":"status"}"#, #"{"id":3}"#] {
            channel.pipeline.fireChannelRead(ByteBuffer(string: line))
        }
        // Replies are flushed once per read burst.
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        channel.pipeline.fireChannelReadComplete()
        let replies = try Self.lines(channel)
        try #require(replies.count == 3)
        #expect(replies.map { $0["id"] } == [1, .null, 3])
        #expect(replies[0]["result"] == "pong")
        #expect(replies[1]["error"]?["code"] == -32700)
        #expect(replies[2]["error"]?["code"] == -32600)
        // Only the call went on, parsed, read before any draining.
        let passed = try #require(try channel.readInbound(as: ConnectionServer.Inbound.self))
        guard case .parsed(let request, let admitted) = passed else {
            Issue.record("not parsed: \(passed)")
            return
        }
        #expect(request["method"] == "status")
        #expect(admitted)
        #expect(try channel.readInbound(as: ConnectionServer.Inbound.self) == nil, "the blank line and the answered ones stay here")
    }

    @Test func aLongLineOrAFullSocketGoesToTheConnectionsTaskWhole() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ImmediateReplyHandler(dispatcher: try Self.hostDispatcher(), maxLineBytes: 1 << 20))
        let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        // Not writable: even a ping waits on the connection's task, where reading stops.
        channel.isWritable = false
        try channel.writeInbound(ByteBuffer(string: ping))
        channel.isWritable = true
        // Longer than the limit for parsing on the event loop.
        let long =
            #"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":""# + String(repeating: "x", count: ImmediateReplyHandler.maxImmediateBytes)
            + #""}}"#
        try channel.writeInbound(ByteBuffer(string: long))
        channel.pipeline.fireChannelReadComplete()
        #expect(try Self.lines(channel) == [])
        var whole: [Int] = []
        while let passed = try channel.readInbound(as: ConnectionServer.Inbound.self) {
            guard case .line(let line) = passed else {
                Issue.record("parsed on the event loop: \(passed)")
                continue
            }
            whole.append(line.readableBytes)
        }
        #expect(whole == [ping.utf8.count, long.utf8.count])
    }

    /// A line over the request limit is left for the connection's task, which refuses it and
    /// closes the connection, however short it is.
    @Test func aLineOverTheRequestLimitIsNeverAnsweredHere() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ImmediateReplyHandler(dispatcher: try Self.hostDispatcher(), maxLineBytes: 32))
        let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#
        #expect(ping.utf8.count > 32)
        try channel.writeInbound(ByteBuffer(string: ping))
        #expect(try Self.lines(channel) == [])
        let passed = try #require(try channel.readInbound(as: ConnectionServer.Inbound.self))
        guard case .line(let line) = passed else {
            Issue.record("answered or parsed here: \(passed)")
            return
        }
        #expect(line.readableBytes == ping.utf8.count)
    }
}
