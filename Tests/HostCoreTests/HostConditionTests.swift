import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// The host-condition error codes and the graceful stop, in-process.
@Suite(.timeLimit(.minutes(2))) struct HostConditionTests {
    @Test func upstreamUnreachableIs32004() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        let result = try await host.call("echo.offline")
        guard case .failure(let error) = result else { Issue.record("no error"); return }
        #expect(error.code == -32004)
        #expect(error.message.contains("refused"))
        await host.stop()
    }

    @Test func aLockedVaultIs32008AndUnlockingFixesIt() async throws {
        let host = try await TestHost.started {
            $0.vault.mode = "passphrase"
            $0.vault.scryptLogN = 10
        }
        let locked = try await host.call("vault.set", ["name": "host/x", "secret": "v"])
        guard case .failure(let error) = locked else { Issue.record("a locked vault stored a secret"); return }
        #expect(error.code == -32008)
        #expect(try await host.call("vault.status").get()["locked"] == true)
        _ = try await host.call("vault.unlock", ["passphrase": "open sesame"]).get()
        _ = try await host.call("vault.set", ["name": "host/x", "secret": "v"]).get()
        _ = try await host.call("vault.lock").get()
        let wrong = try await host.call("vault.unlock", ["passphrase": "wrong"])
        guard case .failure(let wrongError) = wrong else { Issue.record("wrong passphrase accepted"); return }
        #expect(wrongError.data?["param"] == "passphrase")
        await host.stop()
    }

    @Test func gracefulStopFinishesCallsInFlightAndRefusesNewOnes() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        let connection = try await host.connect()
        let slow = Task { try await connection.callResult("echo.wait", params: ["ms": 300]) }
        // Once the call is in flight (the tracker counts it), stop the host.
        try await withDeadline(20, "the call starting") {
            while host.host.server.inFlightCount == 0 {
                try Task.checkCancellation()
                await Task.yield()
            }
        }
        let stopping = Task { await host.stop() }
        #expect(try await slow.value == .success("waited"), "the call in flight got its reply")
        await stopping.value
        #expect(host.host.dispatcher.isDraining)
        let late = await host.host.dispatcher.handleOne(["jsonrpc": "2.0", "id": 9, "method": "ping"], connection: nil)
        #expect(late?["error"]?["code"] == -32001)
        await #expect(throws: (any Error).self) { try await host.connect() }
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
