import Foundation
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
}
