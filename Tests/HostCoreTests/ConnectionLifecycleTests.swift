import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import NIOConcurrencyHelpers
import Testing

/// What a connection's life does to its calls: a half-close still gets every reply, a hang-up
/// cancels what runs, a client that never reads holds nobody else up, and `status` shows the
/// calls in flight.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2))) struct ConnectionLifecycleTests {
    static func inFlight(_ host: TestHost) async throws -> JSONValue? {
        try await host.call("status").get()["calls_in_flight"]
    }

    @Test func statusCountsCallsInFlightByPlugin() async throws {
        let echo = EchoPlugin()
        try await withTestHost(plugins: [echo]) { host in
            #expect(try await Self.inFlight(host) == ["total": 1, "plugins": ["host": 1]], "the status call itself")
            let client = try await RawLineClient(socketPath: host.socketPath)
            try await client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"echo.hold"}"#)
            var events = echo.holdEvents.makeAsyncIterator()
            #expect(await events.next() == "started")
            #expect(try await Self.inFlight(host) == ["total": 2, "plugins": ["host": 1, "echo": 1]])
            await client.close()
            #expect(await events.next() == "cancelled")
        }
    }

    /// A hang-up reaches the upstream: the plugin's HTTP request is aborted (the peer sees its
    /// connection close before it answered), and the call leaves `calls_in_flight`.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func aClientThatHangsUpHasItsUpstreamRequestAborted() async throws {
        let peer = try await HTTPUpstreamPeer()
        defer { peer.stop() }
        try await withTestHost(plugins: [FeedPlugin()]) { host in
            _ = try await host.call("feed.point", ["url": .string(peer.baseURL)]).get()
            let client = try await RawLineClient(socketPath: host.socketPath)
            try await client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"feed.read","params":{"path":"/hold"}}"#)
            #expect(try await HTTPUpstreamPeer.get(peer, "/holds?holding=1") == ["holding": 1, "aborted": 0], "the upstream holds the request")
            #expect(try await Self.inFlight(host) == ["total": 2, "plugins": ["host": 1, "feed": 1]])
            await client.close()
            #expect(try await HTTPUpstreamPeer.get(peer, "/holds?aborted=1") == ["holding": 1, "aborted": 1], "the request was aborted")
            // The call unwinds once its request is aborted; only the status call itself is left.
            try await withDeadline(10, "the cancelled call to leave") { await host.host.server.waitUntilNoCallsInFlight() }
            #expect(try await Self.inFlight(host) == ["total": 1, "plugins": ["host": 1]])
        }
    }

    /// A batch's members take the connection's call slots like any call: of a batch of held
    /// calls larger than the slots, only as many start as there are slots. A batch of more than
    /// 1 000 members, such as a 1 MiB line of tiny calls, is refused whole before any runs, and
    /// another client is answered meanwhile.
    @Test func aBatchRunsNoMoreCallsAtOnceThanTheConnectionMay() async throws {
        let echo = EchoPlugin()
        try await withTestHost(plugins: [echo]) { host in
            let slots = host.host.configuration.socket.maxConcurrentPerConnection
            let client = try await RawLineClient(socketPath: host.socketPath)
            var events = echo.holdEvents.makeAsyncIterator()
            let members = (0..<(slots + 36)).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"echo.hold"}"# }
            try await client.send(line: "[" + members.joined(separator: ",") + "]")
            for _ in 0..<slots { #expect(await events.next() == "started") }
            #expect(try await Self.inFlight(host)?["plugins"]?["echo"] == .int(Int64(slots)), "the batch holds every slot, no more")
            await client.close()

            let flood = try await RawLineClient(socketPath: host.socketPath)
            let tiny = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
            let count = (1 << 20) / (tiny.utf8.count + 1) - 1
            try await flood.send(line: "[" + Array(repeating: tiny, count: count).joined(separator: ",") + "]")
            let refused = try JSONValue.decode(try #require(try await flood.readLine()))
            #expect(refused["error"]?["code"] == -32600)
            #expect(refused["error"]?["message"] == .string("Invalid request: a batch may hold at most 1000 members, this one has \(count)"))
            let other = try await host.connect()
            #expect(try await other.call("ping") == "pong")
            await other.close()
            // At the limit, a batch runs whole.
            try await flood.send(line: "[" + Array(repeating: tiny, count: 1000).joined(separator: ",") + "]")
            let answered = try JSONValue.decode(try #require(try await flood.readLine()))
            #expect(answered.arrayValue?.count == 1000)
            await flood.close()
        }
    }

    /// `ping` never suspends, so it is answered at once where it is read: even with every call
    /// slot of the connection held, it is answered (a held call would otherwise have to finish
    /// first).
    @Test func pingIsAnsweredWhileTheConnectionsCallSlotsAreFull() async throws {
        let echo = EchoPlugin()
        try await withTestHost(plugins: [echo]) { host in
            let slots = host.host.configuration.socket.maxConcurrentPerConnection
            let client = try await RawLineClient(socketPath: host.socketPath)
            var events = echo.holdEvents.makeAsyncIterator()
            for i in 0..<slots { try await client.send(line: #"{"jsonrpc":"2.0","id":\#(i),"method":"echo.hold"}"#) }
            for _ in 0..<slots { #expect(await events.next() == "started") }
            try await client.send(line: #"{"jsonrpc":"2.0","id":"p","method":"ping"}"#)
            #expect(try await client.readLine() == #"{"id":"p","jsonrpc":"2.0","result":"pong"}"#)
            await client.close()
            for _ in 0..<slots { #expect(await events.next() == "cancelled") }
        }
    }

    @Test func aClientThatHangsUpHasItsCallsCancelled() async throws {
        let echo = EchoPlugin()
        try await withTestHost(plugins: [echo]) { host in
            let client = try await RawLineClient(socketPath: host.socketPath)
            try await client.send(line: #"[{"jsonrpc":"2.0","id":1,"method":"echo.hold"},{"jsonrpc":"2.0","id":2,"method":"echo.hold"}]"#)
            var events = echo.holdEvents.makeAsyncIterator()
            #expect(await events.next() == "started")
            #expect(await events.next() == "started")
            await client.close()
            // Both calls end by cancellation, long before their hour is up.
            #expect(await events.next() == "cancelled")
            #expect(await events.next() == "cancelled")
            #expect(try await Self.inFlight(host) == ["total": 1, "plugins": ["host": 1]])
        }
    }

    @Test func aHalfClosedClientStillGetsEveryReply() async throws {
        try await withTestHost(plugins: [EchoPlugin()]) { host in
            let client = try await RawLineClient(socketPath: host.socketPath)
            try await client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"echo.wait","params":{"ms":300}}"#)
            try await client.send(line: #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
            try await client.finishSending()
            var replies: [JSONValue] = []
            while let line = try await client.readLine() { replies.append(try JSONValue.decode(line)) }
            #expect(replies.map { $0["id"] } == [2, 1], "ping first, then the slower call: both answered after the half-close")
            #expect(replies.first { $0["id"] == 1 }?["result"] == "waited")
            await client.close()
        }
    }

    @Test func aClientThatNeverReadsHoldsNobodyUp() async throws {
        try await withTestHost(plugins: [EchoPlugin()]) { host in
            let greedy = try await RawLineClient(socketPath: host.socketPath, reading: false)
            // 20 000 requests whose replies (each ~1 KB of help text) are never read.
            let request = Array((#"{"jsonrpc":"2.0","id":1,"method":"help","params":{"method":"echo.say"}}"# + "\n").utf8)
            let sent = NIOLockedValueBox(0)
            let sending = Task {
                for _ in 0..<20_000 {
                    try await greedy.send(request)
                    sent.withLockedValue { $0 += 1 }
                }
            }
            let other = try await host.connect()
            for i in 0..<20 {
                #expect(try await other.call("ping") == "pong", "ping \(i)")
            }
            // The daemon stopped reading the greedy client at the per-connection cap: its sends stall
            // (the socket's buffers are full) instead of its replies piling up in the daemon.
            #expect(host.host.server.inFlightCount <= 64)
            #expect(sent.withLockedValue { $0 } < 20_000, "the greedy client could not send everything")
            sending.cancel()
            await greedy.close()
            await other.close()
        }
    }

    @Test func aThousandConnectionsOpenedAndDroppedAtOnce() async throws {
        try await withTestHost(plugins: [EchoPlugin()]) { host in
            let steady = try await host.connect()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<1000 {
                    group.addTask {
                        let client = try await RawLineClient(socketPath: host.socketPath)
                        // Half of them leave a request behind as they go.
                        if i % 2 == 0 { try await client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"echo.wait","params":{"ms":50}}"#) }
                        await client.close()
                    }
                }
                try await group.waitForAll()
            }
            // The daemon kept serving the connection that stayed, and serves a new one.
            #expect(try await steady.call("ping") == "pong")
            let fresh = try await host.connect()
            #expect(try await fresh.call("ping") == "pong")
            await fresh.close()
            await steady.close()
        }
    }

    /// Clients that connect while the daemon stops are closed, not dropped: NIO's async `bind`
    /// can lose a connection accepted just as the listening socket closes, and a connection lost
    /// that way used to crash the daemon ("Deinited NIOAsyncWriter without calling finish()").
    /// Each round races a burst of connections against the stop; a crash fails the whole run.
    @Test func connectionsArrivingDuringStopAreClosedNotLost() async throws {
        // Connects that reached the daemon's socket (the rest found it gone): the race is real
        // only if some of them did.
        let connected = NIOLockedValueBox(0)
        for round in 0..<30 {
            let host = try await TestHost.started()
            let path = host.socketPath
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<50 {
                            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                            if UnixSocketAddress.connect(fd, to: path) { connected.withLockedValue { $0 += 1 } }
                            close(fd)
                        }
                    }
                }
                group.addTask { await host.stop() }
            }
            #expect(host.host.server.connectionCount == 0, "round \(round): every accepted connection was closed")
        }
        #expect(connected.withLockedValue { $0 } > 0)
    }

    /// Clients of a host that was bound but never run: stopping it closes the listening socket,
    /// and NIO accepts some of them on the way (they may even get their `ping` answered on the
    /// event loop). Each is then closed, none kept open, and nothing crashes: those connections
    /// had no accept loop to take them, and dropping them used to crash the process.
    @Test func clientsOfAHostThatNeverRanAreClosedAtStop() async throws {
        let testHost = try TestHost()
        try await testHost.host.start()
        var clients: [RawLineClient] = []
        do {
            for i in 0..<20 {
                let client = try await RawLineClient(socketPath: testHost.socketPath)
                clients.append(client)
                try await client.send(line: #"{"jsonrpc":"2.0","id":\#(i),"method":"ping"}"#)
            }
        } catch {
            // A host that never ran has no scope to stop it: stop it here.
            await testHost.host.shutdown()
            throw error
        }
        await testHost.host.shutdown()
        #expect(testHost.host.server.connectionCount == 0)
        for (i, client) in clients.enumerated() {
            if let line = try await client.readLine() {
                #expect(try JSONValue.decode(line) == ["jsonrpc": "2.0", "id": .int(Int64(i)), "result": "pong"])
            }
            try await client.waitForClose()
            await client.close()
        }
    }
}
