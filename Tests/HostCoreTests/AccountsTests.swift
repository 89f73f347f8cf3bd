import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(1)))
struct AccountsTests {
    func failure(_ result: Result<JSONValue, RPCError>) -> RPCError? {
        if case .failure(let error) = result { return error }
        Issue.record("succeeded: \(result)")
        return nil
    }

    @Test func aRefusedCheckSavesNothing() async throws {
        let host = try await TestHost.started(plugins: [AccountsPlugin()])
        let refused = try #require(failure(try await host.call("accts.accounts.add", ["name": "a", "url": "http://x", "key": "bad"])))
        #expect(refused.code == 1001)
        #expect(try await host.call("accts.accounts.list").get()["accounts"] == [])
        let entries = try await host.host.vault.list(prefix: "accts/")
        #expect(entries.isEmpty, "no credential was stored")
        let badName = try #require(failure(try await host.call("accts.accounts.add", ["name": "no spaces", "url": "u", "key": "good"])))
        #expect(badName.code == -32602)
        #expect(badName.data?["param"] == "name")
        await host.stop()
    }

    @Test func oneAccountNeedingReauthDoesNotStopTheOthers() async throws {
        let host = try await TestHost.started(plugins: [AccountsPlugin()])
        _ = try await host.call("accts.accounts.add", ["name": "zcu", "url": "https://a", "key": "good"]).get()
        _ = try await host.call("accts.accounts.add", ["name": "upol", "url": "https://b", "key": "good"]).get()
        // The first account is the default.
        #expect(try await host.call("accts.use").get() == ["account": "zcu", "has_key": true])
        #expect(try await host.call("accts.use", ["account": "upol"]).get()["account"] == "upol")

        _ = try await host.call("accts.expire", ["account": "upol"]).get()
        _ = try await host.call("accts.expire", ["account": "upol"]).get()
        let expired = try #require(failure(try await host.call("accts.use", ["account": "upol"])))
        #expect(expired.code == -32003)
        #expect(expired.data?["account"] == "upol")
        #expect(expired.data?["fix"] == "assistantctl accts.accounts.add name=upol url=… key=…")
        #expect(expired.message.contains("the token expired"))
        #expect(try await host.call("accts.use", ["account": "zcu"]).get()["account"] == "zcu", "the other account still works")

        // status shows each account's state; the notice was posted once for the flip.
        let status = try await host.call("status").get()
        let plugin = try #require(status["plugins"]?.arrayValue?.first { $0["id"] == "accts" })
        #expect(plugin["state"] == "ready")
        #expect(
            plugin["accounts"] == [
                ["name": "upol", "state": "needs_reauth", "detail": "the token expired"], ["name": "zcu", "state": "ready", "detail": .null],
            ])
        let notices = try await host.host.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM host_notices WHERE topic = 'accts.auth.expired'") ?? 0
        }
        #expect(notices == 1)

        // New credentials make it ready again.
        _ = try await host.call("accts.accounts.add", ["name": "upol", "url": "https://b", "key": "good"]).get()
        #expect(try await host.call("accts.use", ["account": "upol"]).get()["account"] == "upol")
        await host.stop()
    }

    /// A refresh whose sibling read failed first is cancelled while its own read flips the
    /// account: the flip, once it commits, posts its notice, since no later flip will.
    @Test func aFlipFromACancelledTaskStillPostsItsNotice() async throws {
        let host = try await TestHost.started(plugins: [AccountsPlugin()])
        _ = try await host.call("accts.accounts.add", ["name": "upol", "url": "https://b", "key": "good"]).get()
        _ = try await host.call("accts.expire", ["account": "upol", "cancelled": true]).get()
        let status = try await host.call("status").get()
        let plugin = try #require(status["plugins"]?.arrayValue?.first { $0["id"] == "accts" })
        #expect(plugin["accounts"] == [["name": "upol", "state": "needs_reauth", "detail": "the token expired"]])
        let notices = try await host.host.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM host_notices WHERE topic = 'accts.auth.expired'") ?? 0
        }
        #expect(notices == 1)
        await host.stop()
    }

    @Test func defaultsAndRemovalKeepCredentialsInStep() async throws {
        let host = try await TestHost.started(plugins: [AccountsPlugin()])
        let none = try #require(failure(try await host.call("accts.use")))
        #expect(none.code == -32602)
        #expect(none.message.contains("no account is set up yet (assistantctl accts.accounts.add)"))
        _ = try await host.call("accts.accounts.add", ["name": "a", "url": "u", "key": "good"]).get()
        _ = try await host.call("accts.accounts.add", ["name": "b", "url": "u", "key": "good"]).get()
        _ = try await host.call("accts.accounts.default", ["name": "b"]).get()
        #expect(try await host.call("accts.use").get()["account"] == "b")
        let unknown = try #require(failure(try await host.call("accts.use", ["account": "c"])))
        #expect(unknown.data?["param"] == "account")
        #expect(unknown.message.contains("(accounts: a, b)"))

        _ = try await host.call("accts.accounts.remove", ["name": "b"]).get()
        #expect(try await host.host.vault.list(prefix: "accts/").map(\.name) == ["accts/a/key"])
        // The only account left is the default again.
        #expect(try await host.call("accts.use").get()["account"] == "a")
        await host.stop()
    }
}
