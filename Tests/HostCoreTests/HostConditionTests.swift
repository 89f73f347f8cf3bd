import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// The host-condition error codes and the graceful stop, in-process.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2))) struct HostConditionTests {
    /// The path real plugins take: the kit's upstream client against a port nobody listens on
    /// (one attempt: the client's retries are for a later test of backoff).
    @Test func upstreamUnreachableIs32004() async throws {
        let listener = try Peers.freePort()
        let client = try UpstreamClient(
            plugin: "echo", configuration: .init(baseURL: "http://127.0.0.1:\(listener)", retries: 0), clock: SystemClock())
        await #expect {
            _ = try await client.get("api/version")
        } throws: { error in
            guard let error = error as? RPCError else { return false }
            return error.code == -32004 && error.message.contains("127.0.0.1:\(listener)") && error.message.contains("refused")
        }
        // A plugin's own PluginError.notReady maps to the same code.
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        guard case .failure(let error) = try await host.call("echo.offline") else {
            Issue.record("no error")
            return
        }
        #expect(error.code == -32004)
        await host.stop()
    }

    @Test func aLockedVaultIs32008AndUnlockingFixesIt() async throws {
        let host = try await TestHost.started {
            $0.vault.mode = "passphrase"
            $0.vault.scryptLogN = 10
        }
        let locked = try await host.call("vault.set", ["name": "host/x", "secret": "v"])
        guard case .failure(let error) = locked else {
            Issue.record("a locked vault stored a secret")
            return
        }
        #expect(error.code == -32008)
        #expect(try await host.call("vault.status").get()["locked"] == true)
        _ = try await host.call("vault.unlock", ["passphrase": "open sesame"]).get()
        _ = try await host.call("vault.set", ["name": "host/x", "secret": "v"]).get()
        _ = try await host.call("vault.lock").get()
        let wrong = try await host.call("vault.unlock", ["passphrase": "wrong"])
        guard case .failure(let wrongError) = wrong else {
            Issue.record("wrong passphrase accepted")
            return
        }
        #expect(wrongError.data?["param"] == "passphrase")
        await host.stop()
    }

    @Test func gracefulStopFinishesCallsInFlightAndRefusesNewOnes() async throws {
        let echo = EchoPlugin()
        let host = try await TestHost.started(plugins: [echo])
        let holder = try await RawLineClient(socketPath: host.socketPath)
        let latecomer = try await RawLineClient(socketPath: host.socketPath)
        var events = echo.holdEvents.makeAsyncIterator()
        try await holder.send(line: #"{"jsonrpc":"2.0","id":1,"method":"echo.hold","params":{"ms":400}}"#)
        #expect(await events.next() == "started")
        async let stopped: Void = host.stop()
        await host.host.dispatcher.drainingBegan()
        // While the daemon drains, a new request on an open connection is refused …
        try await latecomer.send(line: #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        let refused = try JSONValue.decode(try #require(try await latecomer.readLine()))
        #expect(refused["error"]?["code"] == -32001)
        #expect(refused["id"] == 2)
        // … and the call in flight finishes and is answered.
        let answered = try JSONValue.decode(try #require(try await holder.readLine()))
        #expect(answered == ["jsonrpc": "2.0", "id": 1, "result": "held"])
        #expect(await events.next() == "finished")
        await stopped
        await #expect(throws: (any Error).self) { try await host.connect() }
        await holder.close()
        await latecomer.close()
    }

    @Test func aCallStillRunningWhenTheGraceEndsIsCancelled() async throws {
        let echo = EchoPlugin()
        let host = try await TestHost.started(plugins: [echo]) { $0.shutdownGrace = .milliseconds(200) }
        let holder = try await RawLineClient(socketPath: host.socketPath)
        var events = echo.holdEvents.makeAsyncIterator()
        try await holder.send(line: #"{"jsonrpc":"2.0","id":1,"method":"echo.hold"}"#)
        #expect(await events.next() == "started")
        await host.stop()
        #expect(await events.next() == "cancelled", "the hour-long call ended with the grace, by cancellation")
        try await holder.waitForClose()
        await holder.close()
    }

    @Test func pruningDropsOldNoticesAndKeys() async throws {
        let clock = TestClock()
        let host = try await TestHost.started(clock: clock)
        _ = try await host.call("notifications.send", ["title": "old", "body": "", "dedupe_key": "k-old"]).get()
        clock.advance(by: 100 * 86400)
        _ = try await host.call("notifications.send", ["title": "new", "body": ""]).get()
        // Let the outbox deliver the old one first: undelivered notices are never pruned.
        await host.host.notices.deliverDue()
        // (The daily host.prune job may already have fired while the clock moved 100 days.)
        _ = try await host.host.notices.prune(olderThan: 90)
        let keys = try await host.host.store.pool.read { db in try String.fetchAll(db, sql: "SELECT key FROM host_dedupe") }
        #expect(keys.isEmpty, "the old dedupe key is gone")
        let titles = try await host.call("notifications.list").get().arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(titles == ["new"])
        // With the key pruned, the same key is accepted again.
        #expect(try await host.call("notifications.send", ["title": "old again", "body": "", "dedupe_key": "k-old"]).get()["duplicate"] == nil)
        await host.stop()
    }
}
