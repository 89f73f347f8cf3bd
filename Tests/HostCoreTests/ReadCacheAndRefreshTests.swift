import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .serialized, .timeLimit(.minutes(2)))
struct ReadCacheAndRefreshTests {
    func failure(_ result: Result<JSONValue, RPCError>) -> RPCError? {
        if case .failure(let error) = result { return error }
        Issue.record("succeeded: \(result)")
        return nil
    }

    func notices(_ host: TestHost, _ topic: String) async throws -> [String] {
        try await host.host.store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM host_notices WHERE topic = ? ORDER BY seq", arguments: [topic])
        }
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func a5xxOrADeadUpstreamIsAnsweredFromTheCacheMarkedStale() async throws {
        let peer = try await HTTPUpstreamPeer()
        let host = try await TestHost.started(plugins: [FeedPlugin()])
        _ = try await host.call("feed.point", ["url": .string(peer.baseURL)]).get()

        let live = try await host.call("feed.read", ["path": "/data"]).get()
        #expect(live["stale"] == false)
        let fetchedAt = try #require(live["fetched_at"]?.stringValue)
        let value = try #require(live["value"])

        // A 5xx: the last answer, marked stale, with when it was fetched.
        _ = try await HTTPUpstreamPeer.get(peer, "/set/503")
        let stale = try await host.call("feed.read", ["path": "/data"]).get()
        #expect(stale["stale"] == true)
        #expect(stale["fetched_at"] == .string(fetchedAt))
        #expect(stale["value"] == value)
        // A 4xx is an answer, not an outage: never from the cache.
        _ = try await HTTPUpstreamPeer.get(peer, "/set/404")
        let notFound = try #require(failure(try await host.call("feed.read", ["path": "/data"])))
        #expect(notFound.data?["status"] == 404)

        // The upstream gone: still the cached copy; a read never stored is -32004.
        _ = try await HTTPUpstreamPeer.get(peer, "/set/200")
        peer.stop()
        #expect(try await host.call("feed.read", ["path": "/data"]).get()["stale"] == true)
        let never = try #require(failure(try await host.call("feed.read", ["path": "/json"])))
        #expect(never.code == -32004)
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func a401IsNeverAnsweredFromTheCache() async throws {
        let peer = try await HTTPUpstreamPeer()
        let host = try await TestHost.started(plugins: [FeedPlugin()])
        _ = try await host.call("feed.point", ["url": .string(peer.baseURL)]).get()
        #expect(try await host.call("feed.read", ["path": "/bearer"]).get()["stale"] == false)
        // /data honours /set: store it first, then have the upstream refuse the token.
        _ = try await host.call("feed.read", ["path": "/data"]).get()
        _ = try await HTTPUpstreamPeer.get(peer, "/set/401")
        let refused = try #require(failure(try await host.call("feed.read", ["path": "/data"])))
        #expect(refused.code == -32003)
        #expect(refused.data?["fix"] == "assistantctl feed.point url=…")
        // The account now needs re-auth: calls for it say so before anything is sent.
        let parked = try #require(failure(try await host.call("feed.read", ["path": "/json"])))
        #expect(parked.code == -32003)
        #expect(parked.data?["account"] == "main")
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func refreshesReportWhatChangedAndUpstreamFlipsOnce() async throws {
        let peer = try await HTTPUpstreamPeer()
        let directory = TemporaryDirectory()
        // The armed job's first run is an hour away on the test clock (its jitter pinned to the
        // most), which the test moves by seconds only: the refreshes below are the test's own.
        // (With no jitter the job ran at once and, now and then, took the baseline first.)
        let clock = TestClock(now: ISO8601.date("2026-11-24T08:00:00Z")!)
        let pinned: (inout HostOptions) -> Void = { $0.jobJitter = { $0 } }
        var host = try await TestHost.started(plugins: [FeedPlugin()], clock: clock, directory: directory, adjust: pinned)
        _ = try await host.call("feed.point", ["url": .string(peer.baseURL)]).get()
        _ = try await HTTPUpstreamPeer.get(peer, "/items/put?key=exam1&value=full")
        _ = try await host.call("feed.watch", ["every_s": 600, "jitter_s": 3600]).get()
        let jobs = try await host.call("jobs.list").get().arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(jobs.contains("feed.items@main"), "a runtime job shows in jobs.list: \(jobs)")

        // The first fetch is the baseline: nothing is reported as new.
        let baseline = try await host.call("feed.refresh").get()
        #expect(baseline == ["baseline": true, "added": [], "removed": [], "changed": []])
        _ = try await HTTPUpstreamPeer.get(peer, "/items/put?key=exam2&value=open")
        _ = try await HTTPUpstreamPeer.get(peer, "/items/put?key=exam1&value=free-seat")
        #expect(try await host.call("feed.refresh").get() == ["baseline": false, "added": ["exam2"], "removed": [], "changed": ["exam1"]])
        #expect(try await notices(host, "feed.changed") == ["+exam2 ~exam1"])

        // Unreachable twice: one notice. Back: one recovered notice.
        _ = try await HTTPUpstreamPeer.get(peer, "/set/503")
        for _ in 0..<2 {
            // A 503 is retried after a backoff on the host clock, which is moved for it.
            let refused = try await clock.whileAdvancing(step: 1) { [host] in try await host.call("feed.refresh") }
            #expect(failure(refused)?.code == -32004)
        }
        _ = try await HTTPUpstreamPeer.get(peer, "/set/200")
        _ = try await host.call("feed.refresh").get()
        _ = try await host.call("feed.refresh").get()
        #expect(try await notices(host, "feed.upstream.unreachable").count == 1)
        #expect(try await notices(host, "feed.upstream.recovered").count == 1)

        // The baseline survives a restart: a removal is reported, old items are not new again.
        await host.stop()
        host = try await TestHost.started(plugins: [FeedPlugin()], clock: clock, directory: directory, adjust: pinned)
        _ = try await host.call("feed.watch", ["every_s": 600, "jitter_s": 3600]).get()
        _ = try await HTTPUpstreamPeer.get(peer, "/items/del?key=exam2")
        #expect(try await host.call("feed.refresh").get() == ["baseline": false, "added": [], "removed": ["exam2"], "changed": []])
        _ = try await host.call("feed.unwatch").get()
        let after = try await host.call("jobs.list").get().arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(!after.contains("feed.items@main"))
        await host.stop()
    }

    /// A first fetch that fails leaves no baseline: the first one that succeeds is still the
    /// baseline, not a flood of "new" items (the row the failure left has no items). The armed
    /// job runs too (jitter zero, backoff 1 s), so whichever success comes first is the baseline:
    /// either way nothing is reported as added.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func aFailedFirstFetchIsNotABaseline() async throws {
        let peer = try await HTTPUpstreamPeer()
        let host = try await TestHost.started(plugins: [FeedPlugin()])
        _ = try await host.call("feed.point", ["url": .string(peer.baseURL)]).get()
        _ = try await HTTPUpstreamPeer.get(peer, "/items/put?key=exam1&value=full")
        _ = try await HTTPUpstreamPeer.get(peer, "/set/503")
        _ = try await host.call("feed.watch", ["every_s": 600]).get()
        #expect(failure(try await host.call("feed.refresh"))?.code == -32004)
        _ = try await HTTPUpstreamPeer.get(peer, "/set/200")
        let first = try await host.call("feed.refresh").get()
        #expect(first["added"] == [], "\(first)")
        #expect(try await notices(host, "feed.changed").isEmpty)
        await host.stop()
    }
}

extension HTTPUpstreamPeer {
    /// A control request to the peer (set its answers), outside the client under test.
    static func get(_ peer: HTTPUpstreamPeer, _ path: String) async throws -> JSONValue {
        let client = try UpstreamClient(plugin: "test", configuration: .init(baseURL: peer.baseURL, retries: 0), clock: SystemClock())
        return try await client.json(.GET, path)
    }
}

@Suite(.stopsTestHosts) struct ReadCacheBoundsTests {
    /// Entries older than the plugin's `cache_days` go, and the cache stays under its size cap
    /// (oldest first).
    @Test func theCacheIsPrunedByAgeAndCappedBySize() async throws {
        let clock = TestClock()
        let echo = EchoPlugin()
        let host = try await TestHost.started(plugins: [echo], clock: clock)
        var cache = try #require(echo.contextBox.withLockedValue { $0 }).cache
        cache.maxAge = .seconds(86_400)
        cache.maxBytes = 300
        let big = JSONValue.string(String(repeating: "x", count: 100))
        for key in ["a", "b"] { _ = try await cache.read(account: "u", key: key) { ["v": big] as JSONValue } }
        clock.advance(by: 3600)
        // A third entry of ~110 bytes pushes the total over 300: the oldest ("a") goes.
        _ = try await cache.read(account: "u", key: "c") { ["v": big] as JSONValue }
        let down = RPCError(code: RPCErrorCode.upstreamUnreachable, message: "down")
        let unreachable = { () async throws -> JSONValue in throw down }
        await #expect(throws: RPCError.self) { _ = try await cache.read(account: "u", key: "a", unreachable) }
        #expect(try await cache.read(account: "u", key: "b", unreachable).stale == true)
        // More than a day later every older entry is pruned on the next write.
        clock.advance(by: 86_401)
        _ = try await cache.read(account: "u", key: "d") { ["v": 1] as JSONValue }
        await #expect(throws: RPCError.self) { _ = try await cache.read(account: "u", key: "c", unreachable) }
        let keys = try await host.host.store.pool.read { db in try String.fetchAll(db, sql: "SELECT key FROM host_cache ORDER BY key") }
        #expect(keys == ["d"])
        await host.stop()
    }

    struct Answer: Codable, Sendable, Equatable {
        let items: [String]
        let note: String?
    }

    /// A typed read answers its value's members, then `stale` and `fetched_at`; reads a stored
    /// copy back as the type when the upstream is down; and treats a stored copy that no longer
    /// decodes as no copy.
    @Test func aTypedReadAnswersItsMembersThenStaleAndFetchedAt() async throws {
        let clock = TestClock()
        let echo = EchoPlugin()
        let host = try await TestHost.started(plugins: [echo], clock: clock)
        let cache = try #require(echo.contextBox.withLockedValue { $0 }).cache
        let down = RPCError(code: RPCErrorCode.upstreamUnreachable, message: "down")
        let fresh = try await cache.read(account: "u", key: "typed") { Answer(items: ["a", "b"], note: nil) }
        #expect(fresh.value == Answer(items: ["a", "b"], note: nil) && !fresh.stale)
        #expect(try fresh.jsonValue() == ["items": ["a", "b"], "stale": false, "fetched_at": .string(fresh.fetchedAt)])
        let asJSON = try await cache.read(account: "u", key: "json") { ["items": ["a", "b"]] as JSONValue }
        #expect(
            try asJSON.jsonValue() == ["items": ["a", "b"], "stale": false, "fetched_at": .string(asJSON.fetchedAt)], "a JSONValue passed through")
        clock.advance(by: 60)
        let stale = try await cache.read(account: "u", key: "typed") { () async throws -> Answer in throw down }
        #expect(stale.value == fresh.value && stale.stale && stale.fetchedAt == fresh.fetchedAt)
        #expect(try stale.jsonValue() == ["items": ["a", "b"], "stale": true, "fetched_at": .string(fresh.fetchedAt)])
        // A stored copy that is not an Answer (items of another type) is no copy.
        _ = try await cache.read(account: "u", key: "other") { ["items": 3] as JSONValue }
        await #expect(throws: RPCError.self) { _ = try await cache.read(account: "u", key: "other") { () async throws -> Answer in throw down } }
        await host.stop()
    }
}
