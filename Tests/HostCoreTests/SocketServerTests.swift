import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct SocketServerTests {
    @Test func socketAndDirectoryArePrivate() async throws {
        let host = try await TestHost.started()
        var info = stat()
        #expect(stat(host.socketPath, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)
        await host.stop()
        #expect(!FileManager.default.fileExists(atPath: host.socketPath), "the socket file is removed on stop")
    }

    @Test func aCompleteLineOverTheLimitIsAlsoRefused() async throws {
        let host = try await TestHost.started { $0.socket.maxRequestBytes = 1024 }
        let client = try await RawLineClient(socketPath: host.socketPath)
        // Arrives whole, newline included, so the decoder never buffers past its limit.
        try await client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"help","params":{"method":""# + String(repeating: "y", count: 1500) + "\"}}")
        let reply = try JSONValue.decode(try #require(try await client.readLine()))
        #expect(reply["error"]?["code"] == -32007)
        #expect(reply["error"]?["data"]?["limit"] == 1024)
        #expect(reply["id"] == .null)
        try await client.waitForClose()
        await client.close()
        await host.stop()
    }

    @Test func oversizedLineClosesOnlyThatConnection() async throws {
        let host = try await TestHost.started { $0.socket.maxRequestBytes = 64 * 1024 }
        let bystander = try await host.connect()
        let big = try await RawLineClient(socketPath: host.socketPath)
        let payload = #"{"jsonrpc":"2.0","id":1,"method":"help","params":{"method":""# + String(repeating: "x", count: 200 * 1024) + "\"}}"
        try await big.send(line: payload)
        let line = try #require(try await big.readLine())
        let reply = try JSONValue.decode(line)
        #expect(reply["error"]?["code"] == -32007)
        #expect(reply["id"] == .null)
        try await big.waitForClose()
        #expect(try await bystander.call("ping") == "pong")
        // Just under the limit is fine.
        let fits = #"{"jsonrpc":"2.0","id":1,"method":"help","params":{"method":""# + String(repeating: "y", count: 60 * 1024) + "\"}}"
        let ok = try await RawLineClient(socketPath: host.socketPath)
        try await ok.send(line: fits)
        let fitsReply = try JSONValue.decode(try #require(try await ok.readLine()))
        #expect(fitsReply["error"]?["code"] == -32602)
        await ok.close()
        await bystander.close()
        await host.stop()
    }

    @Test func garbageAndInvalidUTF8AreParseErrors() async throws {
        let host = try await TestHost.started()
        let client = try await RawLineClient(socketPath: host.socketPath)
        try await client.send([0xFF, 0xFE, 0x00, 0x41, 0x0A])
        #expect(try JSONValue.decode(try #require(try await client.readLine()))["error"]?["code"] == -32700)
        try await client.send(Array(#"{"jsonrpc":"2.0","id":1,"method":"p"#.utf8) + [0xC3, 0x28] + Array(#"ng"}"#.utf8) + [0x0A])
        #expect(try JSONValue.decode(try #require(try await client.readLine()))["error"]?["code"] == -32700)
        var random = SystemRandomNumberGenerator()
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }.filter { $0 != 0x0A } + [0x0A]
        try await client.send(noise)
        #expect(try JSONValue.decode(try #require(try await client.readLine()))["error"]?["code"] == -32700)
        // Blank lines are ignored, and the connection still works.
        try await client.send(line: "   ")
        try await client.send(line: #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        #expect(try JSONValue.decode(try #require(try await client.readLine()))["result"] == "pong")
        await client.close()
        await host.stop()
    }

    @Test func hundredConcurrentClients() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<100 {
                group.addTask {
                    let connection = try await host.connect()
                    // Several calls in flight at once on each connection; replies are matched by id.
                    try await withThrowingTaskGroup(of: Void.self) { calls in
                        for call in 0..<5 {
                            calls.addTask {
                                let text = "c\(client)-\(call)"
                                let result = try await connection.call("echo.say", params: ["text": .string(text)])
                                #expect(result == .string(text))
                            }
                        }
                        try await calls.waitForAll()
                    }
                    await connection.close()
                }
            }
            try await group.waitForAll()
        }
        await host.stop()
    }

    @Test func concurrentRequestsOnOneConnectionReplyOutOfOrder() async throws {
        let echo = EchoPlugin()
        try await withTestHost(plugins: [echo]) { host in
            let client = try await RawLineClient(socketPath: host.socketPath)
            var events = echo.holdEvents.makeAsyncIterator()
            // The first call is held until the client goes; the second must be answered meanwhile.
            try await client.send(line: #"{"jsonrpc":"2.0","id":"slow","method":"echo.hold"}"#)
            #expect(await events.next() == "started")
            try await client.send(line: #"{"jsonrpc":"2.0","id":"fast","method":"ping"}"#)
            let first = try JSONValue.decode(try #require(try await client.readLine()))
            #expect(first == ["jsonrpc": "2.0", "id": "fast", "result": "pong"])
            await client.close()
            #expect(await events.next() == "cancelled")
        }
    }

    @Test func secondServerOnTheSameSocketIsRefused() async throws {
        let first = try await TestHost.started()
        let directory = TemporaryDirectory()
        let second = try TestHost(directory: directory) { $0.socket.path = nil }
        // Point the second host at the first one's socket by constructing it with the same path.
        var options = second.host.options
        options.socketPath = first.socketPath
        let clash = try AssistantHost(options: options, plugins: [], redactor: SecretRedactor())
        await #expect(throws: StartupError.self) { try await clash.start() }
        do { try await clash.start() } catch let error as StartupError { #expect(error.exitCode == 75) }
        #expect(try await first.call("ping") == .success("pong"))
        await first.stop()
    }

    @Test func staleSocketFileIsReplaced() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("d.sock")
        // Leave a socket file behind with nobody listening.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(UnixSocketAddress.bind(fd, to: path))
        close(fd)
        #expect(FileManager.default.fileExists(atPath: path))
        let host = try await TestHost.started(directory: directory)
        #expect(try await host.call("ping") == .success("pong"))
        await host.stop()
    }

    @Test func socketPathOverTheLimitIsAConfigurationError() async throws {
        let directory = TemporaryDirectory()
        let host = try TestHost(directory: directory)
        var options = host.host.options
        options.socketPath = "/tmp/" + String(repeating: "a", count: 120) + "/d.sock"
        let long = try AssistantHost(options: options, plugins: [], redactor: SecretRedactor())
        do {
            try await long.start()
            Issue.record("a too-long socket path was accepted")
        } catch let error as StartupError {
            #expect(error.exitCode == 78)
            #expect(error.message.contains("limit"))
        }
    }

    @Test func slowSubscriberIsBoundedAndCounted() async throws {
        let host = try await TestHost.started { $0.socket.noticeQueueLimit = 10 }
        let watcher = try StalledClient(
            socketPath: host.socketPath, send: #"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["flood.*"]}}"#)
        let poster = try await host.connect()
        // Wait until the subscription is registered (status counts subscribers), then flood.
        try await withDeadline(20, "the subscription") {
            while try await poster.call("status")["subscribers"] != 1 { try Task.checkCancellation() }
        }
        let body = String(repeating: "n", count: 8 * 1024)
        for i in 0..<400 {
            _ = try await poster.call("notifications.send", params: ["title": .string("n\(i)"), "body": .string(body), "topic": "flood.test"])
        }
        let status = try await poster.call("status")
        let dropped = try #require(status["dropped_notices"]?.intValue)
        #expect(dropped > 0, "a slow subscriber's oldest notices are dropped and counted")
        await poster.close()
        withExtendedLifetime(watcher) {}
        await host.stop()
    }
}
