import AssistantTesting
import AsyncHTTPClient
import Foundation
import HostCore
import NIOCore
import Testing

@testable import KOS

/// The OAuth side of KOS against a fake OAuth server (`Tests/peers/kos_fake.py`): setup checked
/// before saving, the authorization-code flow driven like a browser, a denied login and a wrong
/// state, the pasted callback, and the token never in a URL.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct AuthTests {
    struct Bench {
        let host: TestHost
        let fake: PeerProcess
        let base: String

        func stop() async {
            await host.stop()
            fake.stop()
        }

        var clock: TestClock { host.host.clock as! TestClock }

        func call(_ method: String, _ params: JSONValue = [:]) async throws -> JSONValue {
            try await host.call(method, params).get()
        }

        /// The error of a call that must fail.
        func failure(_ method: String, _ params: JSONValue = [:]) async throws -> RPCError? {
            guard case .failure(let error) = try await host.call(method, params) else {
                Issue.record("\(method) \(params) was accepted")
                return nil
            }
            return error
        }

        func admin(_ path: String, _ body: JSONValue = [:]) async throws {
            var request = HTTPClientRequest(url: base + "/_admin/" + path)
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: body.encodedBytes()))
            _ = try await HTTPClient.shared.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 16)
        }

        func requests() async throws -> [JSONValue] {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/_admin/requests"), timeout: .seconds(10))
            return try JSONValue.decode(bytes: try await response.body.collect(upTo: 1 << 20).readableBytesView).arrayValue ?? []
        }

        func setUp() async throws {
            _ = try await host.call(
                "kos.setup",
                [
                    "client_id": "assistant-app", "client_secret": "app-secret-123", "auth_url": .string(base), "api_url": .string(base + "/api/3"),
                ]
            ).get()
        }
    }

    static func start(at now: String = "2026-11-24T08:00:00Z", configure: (inout HostConfiguration) -> Void = { _ in }) async throws -> Bench {
        let fake = try PeerProcess(Peers.python, [Peers.script("kos_fake.py")])
        let port = try await fake.announcedPort("the fake OAuth server")
        let host = try await TestHost.started(
            plugins: [KOSPlugin()], clock: TestClock(now: ISO8601.date(now)!), configure: configure)
        return Bench(host: host, fake: fake, base: "http://127.0.0.1:\(port)")
    }

    @Test func setupIsCheckedBeforeAnythingIsSaved() async throws {
        let bench = try await Self.start()
        guard
            case .failure(let wrong) = try await bench.host.call(
                "kos.setup",
                [
                    "client_id": "assistant-app", "client_secret": "wrong", "auth_url": .string(bench.base),
                ])
        else {
            Issue.record("a wrong secret was accepted")
            return
        }
        #expect(wrong.code == 1402)
        #expect(!wrong.message.contains("wrong"), "the secret is not echoed")
        #expect(try await bench.host.call("kos.status").get()["set_up"] == false, "nothing saved")
        guard
            case .failure(let away) = try await bench.host.call(
                "kos.setup",
                [
                    "client_id": "assistant-app", "client_secret": "app-secret-123", "auth_url": "http://127.0.0.1:9",
                ])
        else {
            Issue.record("an unreachable server was accepted")
            return
        }
        #expect(away.code == -32004, "unreachable is not a wrong secret: \(away.message)")
        for (params, param) in [
            (["client_id": "a", "client_secret": "b", "auth_url": "http://auth.example.org"] as JSONValue, "auth_url"),
            (["client_id": "a", "client_secret": "b", "api_url": "ftp://127.0.0.1/api"], "api_url"),
            (["client_id": "a b", "client_secret": "b"], "client_id"),
            (["client_id": "a", "client_secret": "b", "redirect_port": 80], "redirect_port"),
            (["client_secret": "b"], "client_id"),
        ] {
            guard case .failure(let error) = try await bench.host.call("kos.setup", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == .string(param), "\(params): \(error.message)")
        }
        try await bench.setUp()
        let status = try await bench.host.call("kos.status").get()
        #expect(status["set_up"] == true)
        #expect(status["logged_in"] == false)
        #expect(try await bench.host.call("vault.list").get().encodedString().contains("kos/client_secret"))
        await bench.stop()
    }

    @Test func theAuthorizationCodeFlowThroughTheLoopbackCapture() async throws {
        let bench = try await Self.start()
        guard case .failure(let notSetUp) = try await bench.host.call("kos.login") else {
            Issue.record("login without setup")
            return
        }
        #expect(notSetUp.code == 1401)
        try await bench.setUp()
        let started = try await bench.host.call("kos.login").get()
        #expect(started["expires_in_s"] == 600)
        let loginURL = try #require(started["login_url"]?.stringValue)
        let url = try #require(URLComponents(string: loginURL))
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(url.path == "/oauth/authorize")
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "assistant-app")
        #expect(query["scope"] == "cvut:kosapi:read")
        #expect(query["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
        #expect((query["state"]?.count ?? 0) >= 32, "an unguessable state")

        let page = try await Browser.open(url.string!)
        #expect(page.status == 200)
        let done = try await bench.host.call("kos.login.wait").get()
        #expect(done["logged_in"] == true, "\(done)")
        #expect(done["username"] == "novakjan")
        #expect(done["expires_at"] == "2026-11-24T08:05:00Z", "the token's expiry on the host clock")
        // The login is the account of its username, through the kit's accounts: its tokens are
        // the account's secrets, its expiry a setting, its state shown per account.
        let names = (try await bench.host.call("vault.list").get().arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(Set(names).isSuperset(of: ["kos/novakjan/access_token", "kos/novakjan/refresh_token"]), "\(names)")
        #expect(!names.contains("kos/access_token"))
        #expect(
            done["accounts"] == [
                ["name": "novakjan", "default": true, "state": "ready", "detail": .null, "expires_at": "2026-11-24T08:05:00Z"]
            ])
        // Tokens travel in headers only: never in a query string.
        let requests = try await bench.requests()
        #expect(requests.allSatisfy { !($0["query"]?.stringValue ?? "").contains("token") })
        #expect(requests.contains { $0["path"] == "/oauth/userinfo" && $0["auth"] == "bearer" })

        _ = try await bench.host.call("kos.logout").get()
        #expect(try await bench.host.call("kos.status").get()["logged_in"] == false)
        #expect(!(try await bench.host.call("vault.list").get().encodedString().contains("kos/novakjan/")), "the account's tokens are gone")
        #expect(try await bench.host.call("kos.status").get()["accounts"] == [])
        await bench.stop()
    }

    @Test func aSecondLoginsWaitAnswersWhoSignedInNotTheDefault() async throws {
        let bench = try await Self.start()
        try await bench.setUp()
        for user in ["novakjan", "obriesea"] {
            try await bench.admin("authorize", ["mode": "normal", "user": .string(user)])
            let started = try await bench.host.call("kos.login").get()
            _ = try await Browser.open(try #require(started["login_url"]?.stringValue))
            let done = try await bench.host.call("kos.login.wait").get()
            #expect(done["logged_in"] == true && done["username"] == .string(user), "\(done)")
        }
        // The first login stays the default account.
        #expect(try await bench.host.call("kos.status").get()["username"] == "novakjan")
        await bench.stop()
    }

    @Test func aDeniedLoginAndAWrongStateLogNobodyIn() async throws {
        let bench = try await Self.start()
        try await bench.setUp()
        for (mode, words) in [("deny", "denied"), ("wrong_state", "state does not match")] {
            try await bench.admin("authorize", ["mode": .string(mode)])
            let started = try await bench.host.call("kos.login").get()
            let loginURL = try #require(started["login_url"]?.stringValue)
            _ = try await Browser.open(loginURL)
            let done = try await bench.host.call("kos.login.wait").get()
            #expect(done["state"] == "failed", "\(mode)")
            #expect(done["detail"]?.stringValue?.contains(words) == true, "\(mode): \(done)")
            #expect(try await bench.host.call("kos.status").get()["logged_in"] == false)
        }
        await bench.stop()
    }

    @Test func thePastedCallbackCompletesTheLogin() async throws {
        let bench = try await Self.start()
        try await bench.setUp()
        let started = try await bench.host.call("kos.login").get()
        let loginURL = try #require(started["login_url"]?.stringValue)
        let callback = try #require(try await Browser.redirectLocation(loginURL))
        let done = try await bench.host.call("kos.login.code", ["callback_url": .string(callback)]).get()
        #expect(done["logged_in"] == true)
        #expect(done["username"] == "novakjan")
        // The same code again: no login is in progress any more.
        guard case .failure(let again) = try await bench.host.call("kos.login.code", ["callback_url": .string(callback)]) else {
            Issue.record("a code was used twice")
            return
        }
        #expect(again.code == 1403)
        for params in [[:] as JSONValue, ["callback_url": "http://127.0.0.1/?x=1"]] {
            guard case .failure(let error) = try await bench.host.call("kos.login.code", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.data?["param"] == "callback_url")
        }
        await bench.stop()
    }

    /// A login kept by an earlier version (one `kos_login` row, tokens as `kos/access_token`)
    /// becomes the account of its username at the next start: its tokens under the account, a
    /// login that needed re-auth still needing it (and no second notice), the old row gone.
    @Test func aLoginFromAnEarlierVersionBecomesAnAccount() async throws {
        let bench = try await Self.start()
        try await bench.setUp()
        try await bench.host.host.vault.set("kos/access_token", secret: "legacy-access")
        try await bench.host.host.vault.set("kos/refresh_token", secret: "legacy-refresh")
        try await bench.host.host.store.pool.write { db in
            try db.execute(
                sql: "INSERT INTO kos_login(one, username, expires_at, state, detail) VALUES (1, 'novakjan', ?, 'needs_reauth', 'it was refused')",
                arguments: [ISO8601.date("2026-11-24T09:00:00Z")!.timeIntervalSince1970])
        }
        await bench.host.stop()
        let again = try await TestHost.started(plugins: [KOSPlugin()], clock: bench.clock, directory: bench.host.directory)
        let status = try await again.call("kos.status").get()
        #expect(
            status["accounts"] == [
                ["name": "novakjan", "default": true, "state": "needs_reauth", "detail": "it was refused", "expires_at": "2026-11-24T09:00:00Z"]
            ])
        #expect(status["state"] == "needs_reauth")
        #expect(try await again.host.vault.get("kos/novakjan/access_token") == "legacy-access")
        #expect(try await again.host.vault.get("kos/novakjan/refresh_token") == "legacy-refresh")
        #expect(try await again.host.vault.get("kos/access_token") == nil)
        #expect(try await again.host.store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kos_login") } == 0)
        #expect(try await again.call("notifications.list", ["topic": "kos.auth.expired"]).get() == [], "no notice for a state it already had")
        guard case .failure(let refused) = try await again.call("kos.profile") else {
            Issue.record("served a login that needs re-auth")
            return
        }
        #expect(refused.code == -32003)
        #expect(refused.data?["fix"] == "assistantctl kos.login")
        await again.stop()
        bench.fake.stop()
    }
}
