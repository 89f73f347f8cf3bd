import AssistantTesting
import Foundation
import HostCore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@Suite(.stopsTestHosts, .serialized, .timeLimit(.minutes(2)))
struct UpstreamClientTests {
    /// A generous time limit unless a test is about it: beside the rest of the suite on two
    /// cores, a peer's answer once took longer than 10 s, and a test then failed (or waited for
    /// its time limit) on a timeout it was not about.
    static func client(
        _ base: String, auth: UpstreamAuth = .none, caFile: String? = nil, timeout: Duration = .seconds(60), retries: Int = 0,
        maxBytes: Int = 1 << 20, clock: any HostClock = SystemClock(), onReauth: @escaping @Sendable (String) async -> Void = { _ in }
    ) throws -> UpstreamClient {
        try UpstreamClient(
            plugin: "kit", account: "main",
            configuration: .init(
                baseURL: base, auth: auth, caFile: caFile, timeout: timeout, maxResponseBytes: maxBytes, retries: retries,
                retryDelay: .milliseconds(200), retryJitter: 0, reauthCommand: "assistantctl kit.login account=main"),
            clock: clock, onReauthNeeded: onReauth)
    }

    static func failure(_ body: () async throws -> Any) async -> RPCError? { await rpcFailure(body) }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func secretsGoInHeadersAndTheQueryIsEncoded() async throws {
        let peer = try await HTTPUpstreamPeer()
        let client = try Self.client(peer.baseURL + "/", auth: .bearer(token: { "good" }))
        let echo = try await client.json(.GET, "echo", query: [("q", "a+b c"), ("empty", "")])
        #expect(echo["headers"]?["authorization"] == "Bearer good")
        #expect(echo["query"] == ["q": "a+b c", "empty": ""])
        #expect(echo["raw_query"] == "q=a%2Bb%20c&empty=")
        let basic = try Self.client(peer.baseURL, auth: .basic(user: "u", password: "p:w"))
        #expect(try await basic.json(.GET, "/echo")["headers"]?["authorization"] == "Basic dTpwOnc=")
        let keyed = try Self.client(peer.baseURL, auth: .header(name: "X-Api-Key", value: "k1"))
        #expect(try await keyed.json(.GET, "/echo")["headers"]?["x-api-key"] == "k1")
        let cookie = try Self.client(peer.baseURL, auth: .cookie("JSESSIONID=abc"))
        #expect(try await cookie.json(.POST, "/echo", body: ["x": 1])["headers"]?["cookie"] == "JSESSIONID=abc")
    }

    @Test func aRefusedPortIsUnreachableNamingTheAccount() async throws {
        // A port that was just free: bind, note it, close.
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        let client = try Self.client("http://127.0.0.1:\(port)")
        let error = try #require(await Self.failure { try await client.get("/json") })
        #expect(error.code == -32004)
        #expect(error.message == "Upstream unreachable: http://127.0.0.1:\(port) refused the connection")
        #expect(error.data?["account"] == "main")
        #expect(error.data?["plugin"] == "kit")
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func aHangingServerTimesOut() async throws {
        let peer = try await HTTPUpstreamPeer()
        let client = try Self.client(peer.baseURL, timeout: .milliseconds(300))
        let error = try #require(await Self.failure { try await client.get("/hang") })
        #expect(error.code == -32005)
        #expect(error.message.contains("did not answer"))
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func a401IsRefreshedOnceThenNeedsReauth() async throws {
        let peer = try await HTTPUpstreamPeer()
        let token = NIOLockedValueBox("stale")
        let refreshes = NIOLockedValueBox(0)
        let refreshed = try Self.client(
            peer.baseURL,
            auth: .bearer(
                token: { token.withLockedValue { $0 } },
                refresh: {
                    refreshes.withLockedValue { $0 += 1 }
                    token.withLockedValue { $0 = "good" }
                }))
        #expect(try await refreshed.json(.GET, "/bearer") == ["ok": true])
        #expect(refreshes.withLockedValue { $0 } == 1)

        let reasons = NIOLockedValueBox<[String]>([])
        let refused = try Self.client(
            peer.baseURL, auth: .bearer(token: { "still-bad" }, refresh: { refreshes.withLockedValue { $0 += 1 } }),
            onReauth: { reason in reasons.withLockedValue { $0.append(reason) } })
        let error = try #require(await Self.failure { try await refused.get("/bearer") })
        #expect(error.code == -32003)
        #expect(error.data?["fix"] == "assistantctl kit.login account=main")
        #expect(error.data?["account"] == "main")
        #expect(error.message.hasPrefix("Account 'main' of 'kit' needs re-authentication"))
        #expect(refreshes.withLockedValue { $0 } == 2, "one refresh per call, not a loop")
        #expect(reasons.withLockedValue { $0.count } == 1)
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func idempotentRequestsRetryWithBackoffOnTheHostClock() async throws {
        let peer = try await HTTPUpstreamPeer()
        let clock = TestClock()
        let client = try Self.client(peer.baseURL, retries: 2, clock: clock)
        async let answer = client.json(.GET, "/flaky/2")
        // Two 503s, each followed by a wait on the host clock: 200 ms, then 400 ms.
        await clock.waitForSleepers(1)
        let first = try #require(clock.nextDeadline)
        #expect(abs(first.timeIntervalSince(clock.now) - 0.2) < 0.001)
        clock.advance(by: 0.2)
        await clock.waitForSleepers(1)
        let second = try #require(clock.nextDeadline)
        #expect(abs(second.timeIntervalSince(clock.now) - 0.4) < 0.001)
        clock.advance(by: 0.4)
        #expect(try await answer["attempt"] == 3)

        // A POST is never repeated: one 503, one error.
        let before = try await client.json(.GET, "/count")["all"]?.intValue ?? 0
        let error = try #require(await Self.failure { try await client.json(.POST, "/status/503") })
        #expect(error.code == -32004)
        #expect(error.data?["status"] == 503)
        let after = try await client.json(.GET, "/count")["all"]?.intValue ?? 0
        #expect(after - before == 2, "the POST and the count itself")
    }

    /// An upstream that failed every attempt gets one attempt for a while (a read falls back to
    /// its cached copy at once); any answer restores the retries, and so does time.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")), .timeLimit(.minutes(1)))
    func anUpstreamThatFailedEveryRetryGetsOneAttemptUntilItAnswers() async throws {
        let peer = try await HTTPUpstreamPeer()
        let clock = TestClock()
        let client = try Self.client(peer.baseURL, retries: 2, clock: clock)
        // The peer counts every request it sees, its control requests (/set/…) and /count included.
        func count() async throws -> Int64 { try await client.json(.GET, "/count")["all"]?.intValue ?? 0 }
        func failsAfterRetries() async throws {
            async let failed = Self.failure { try await client.json(.GET, "/data") }
            for delay in [0.2, 0.4] {
                await clock.waitForSleepers(1)
                clock.advance(by: delay)
            }
            #expect(await failed?.code == -32004)
        }
        let a = try await count()
        _ = try await HTTPUpstreamPeer.get(peer, "/set/503")
        try await failsAfterRetries()
        // Down now: one attempt and no wait on the clock (a retry would wait here for ever).
        #expect(try #require(await Self.failure { try await client.json(.GET, "/data") }).code == -32004)
        _ = try await HTTPUpstreamPeer.get(peer, "/set/200")
        let b = try await count()
        #expect(b - a == 1 + 3 + 1 + 1 + 1, "set, three attempts, one attempt, set, count")
        // The count was an answer: retries are back.
        _ = try await HTTPUpstreamPeer.get(peer, "/set/503")
        try await failsAfterRetries()
        // And after 30 s without an answer, too.
        clock.advance(by: 31)
        try await failsAfterRetries()
        _ = try await HTTPUpstreamPeer.get(peer, "/set/200")
        #expect(try await count() - b == 1 + 3 + 3 + 1 + 1)
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "ssl")))
    func aPrivateCAIsTrustedPerAccountAndAMissingOneIsReported() async throws {
        let peer = try await HTTPUpstreamPeer(tls: true)
        let trusted = try Self.client(peer.baseURL, caFile: peer.certificate)
        #expect(try await trusted.json(.GET, "/json")["ok"] == true)

        let untrusted = try Self.client(peer.baseURL)
        let tls = try #require(await Self.failure { try await untrusted.get("/json") })
        #expect(tls.code == -32004)
        #expect(tls.message.contains("TLS handshake"))

        let missing = peer.directory.file("gone-ca.pem")
        let gone = try Self.client(peer.baseURL, caFile: missing)
        let error = try #require(await Self.failure { try await gone.get("/json") })
        #expect(error.code == -32002)
        #expect(error.message == "Account 'main' of 'kit' cannot be used: its CA file \(missing) does not exist")
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func answersAreBounded() async throws {
        let peer = try await HTTPUpstreamPeer()
        let client = try Self.client(peer.baseURL, maxBytes: 1 << 20)
        let error = try #require(await Self.failure { try await client.get("/big") })
        #expect(error.code == -32004)
        #expect(error.message.contains("answered more than 1048576 bytes"))
    }

    @Test func addressesFollowThePlainHTTPPolicy() throws {
        for ok in [
            "https://stag.example.cz/ws", "http://127.0.0.1:8080", "http://127.1.2.3/", "http://localhost/x", "http://LOCALHOST/x",
            "http://[::1]:9/", "http://[::ffff:127.0.0.1]/",
        ] {
            try UpstreamClient.checkBaseURL(ok, policy: .loopbackOnly, param: "base_url")
        }
        try UpstreamClient.checkBaseURL("http://octopi.local", policy: .allowed, param: "url")
        for (bad, reason) in [
            ("http://stag.example.cz", "must use https"), ("ftp://x.cz", "must start with https://"),
            ("https://user:pw@x.cz", "must not carry credentials"), ("https://x.cz/?token=1", "must not carry credentials or a query"),
            ("not a url", "is not an http(s) address"),
            // Names that only look like loopback addresses: a remote DNS answers for them.
            ("http://127.evil.example/", "must use https"), ("http://127.0.0.1.nip.io/", "must use https"),
            ("http://localhost.evil.example/", "must use https"), ("http://[::2]/", "must use https"),
            ("http://128.0.0.1/", "must use https"), ("http://[::ffff:10.0.0.1]/", "must use https"),
        ] {
            #expect(throws: RPCError.self) { try UpstreamClient.checkBaseURL(bad, policy: .loopbackOnly, param: "base_url") }
            do throws(RPCError) {
                try UpstreamClient.checkBaseURL(bad, policy: .loopbackOnly, param: "base_url")
            } catch {
                #expect(error.data?["param"] == "base_url")
                #expect(error.message.contains(reason), "\(bad): \(error.message)")
            }
        }
    }
}
