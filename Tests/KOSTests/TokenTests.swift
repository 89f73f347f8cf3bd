import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// Token refresh while commands run: before expiry on the host clock, once after a 401, and a
/// refused refresh ending the login while public data goes on with the application's token.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct TokenTests {
    static func loggedIn(
        at now: String = "2026-11-24T08:00:00Z", configure: @escaping (inout HostConfiguration) -> Void = { _ in }
    ) async throws -> AuthTests.Bench {
        let bench = try await AuthTests.start(at: now, configure: configure)
        try await bench.setUp()
        let started = try await bench.host.call("kos.login").get()
        let loginURL = try #require(started["login_url"]?.stringValue)
        _ = try await Browser.open(loginURL)
        #expect(try await bench.host.call("kos.login.wait").get()["logged_in"] == true)
        return bench
    }

    /// Refreshes of the user's token. The application's own token (client credentials, for
    /// public data) is left out: a scheduled `kos.refresh` may renew it at any moment.
    static func grants(_ bench: AuthTests.Bench) async throws -> Int {
        grants(in: try await bench.requests())
    }

    static func grants(in requests: [JSONValue]) -> Int {
        requests.filter { $0["path"] == "/oauth/token" && $0["grant"] == "refresh_token" }.count
    }

    @Test func publicDataWorksWithoutALogin() async throws {
        let bench = try await AuthTests.start()
        try await bench.setUp()
        let semester = try await bench.host.call("kos.semester").get()
        #expect(semester["code"] == "B251")
        #expect(semester["name"] == "Zimní 2025/2026")
        #expect(semester["start"] == "2025-09-22")
        #expect(semester["stale"] == false)
        guard case .failure(let profile) = try await bench.host.call("kos.profile") else {
            Issue.record("a profile without a login")
            return
        }
        #expect(profile.code == -32003)
        #expect(profile.data?["fix"] == "assistantctl kos.login")
        await bench.stop()
    }

    @Test func aTokenAboutToExpireIsRefreshedFirst() async throws {
        let bench = try await Self.loggedIn()
        let before = try await Self.grants(bench)
        _ = try await bench.host.call("kos.profile").get()
        let afterFresh = try await Self.grants(bench)
        #expect(afterFresh == before, "a fresh token is used as it is")
        (bench.host.host.clock as? TestClock)?.advance(by: 250)  // 50 s left of 300: under the 60 s margin
        let profile = try await bench.host.call("kos.profile").get()
        #expect(profile["username"] == "novakjan")
        // One read of the peer's log, for the count and for the message on failure.
        let requests = try await bench.requests()
        let log = requests.map { "\($0["method"]?.stringValue ?? "") \($0["path"]?.stringValue ?? "") \($0["grant"]?.stringValue ?? "")" }
        #expect(Self.grants(in: requests) == before + 1, "one refresh, before any 401; the peer's log: \(log)")
        #expect(try await bench.host.call("kos.status").get()["expires_at"] == "2026-11-24T08:09:10Z")
        await bench.stop()
    }

    @Test func a401RefreshesOnceAndARefusedRefreshEndsTheLogin() async throws {
        let bench = try await Self.loggedIn()
        try await bench.admin("expire")
        let profile = try await bench.host.call("kos.profile").get()
        #expect(profile["name"] == "Jan Novák", "refreshed after the 401 and repeated")
        #expect(profile["stale"] == false)

        try await bench.admin("revoke")
        guard case .failure(let ended) = try await bench.host.call("kos.profile") else {
            Issue.record("served after the refresh was refused")
            return
        }
        #expect(ended.code == -32003)
        guard case .failure(let again) = try await bench.host.call("kos.profile") else {
            Issue.record("served")
            return
        }
        #expect(again.code == -32003)
        let notices = try await bench.host.call("notifications.list", ["topic": "kos.auth.expired"]).get().arrayValue ?? []
        #expect(notices.count == 1, "one notice")
        #expect(try await bench.host.call("kos.status").get()["state"] == "needs_reauth")
        // Public data goes on with the application's token.
        #expect(try await bench.host.call("kos.semester", ["which": "next"]).get()["code"] == "B252")
        await bench.stop()
    }
}

/// Several commands at once with an expired token, the cache while KOSapi hangs, and the request
/// log of a whole session: the token only ever in the Authorization header.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct SessionTests {
    @Test func concurrentCommandsShareOneRefresh() async throws {
        let bench = try await TokenTests.loggedIn()
        try await bench.admin("expire")
        let before = try await TokenTests.grants(bench)
        let methods = ["kos.profile", "kos.courses", "kos.timetable", "kos.events", "kos.results", "kos.exams"]
        let outcomes = try await withThrowingTaskGroup(of: (String, Result<JSONValue, RPCError>).self) { group in
            for method in methods { group.addTask { (method, try await bench.host.call(method)) } }
            return try await group.reduce(into: [String: Result<JSONValue, RPCError>]()) { $0[$1.0] = $1.1 }
        }
        for method in methods {
            guard case .success(let value) = outcomes[method] else {
                Issue.record("\(method): \(String(describing: outcomes[method]))")
                continue
            }
            #expect(value["stale"] == false, "\(method)")
        }
        #expect(try await bench.call("kos.status")["state"] == "ready", "a rotated refresh token was not reused")
        let used = try await TokenTests.grants(bench) - before
        #expect(used >= 1 && used < methods.count, "refreshes are shared, not one per request: \(used)")
        await bench.stop()
    }

    @Test func theCacheServesStaleDataWhileKOSapiHangs() async throws {
        let bench = try await TokenTests.loggedIn(configure: { $0.http.timeoutSeconds = 1 })
        let fresh = try await bench.call("kos.timetable")
        #expect(fresh["stale"] == false)
        try await bench.admin("hang", ["on": true, "seconds": 20])
        bench.clock.advance(by: 3600)
        let clock = bench.clock
        let stale = try await clock.whileAdvancing { try await bench.host.call("kos.timetable").get() }
        #expect(stale["stale"] == true)
        #expect(stale["fetched_at"] == "2026-11-24T08:00:00Z")
        #expect(stale["slots"] == fresh["slots"])
        // Filtering by parity works on the cached copy too.
        let odd = try await clock.whileAdvancing { try await bench.host.call("kos.timetable", ["parity": "odd"]).get() }
        #expect(odd["stale"] == true)
        #expect(odd["slots"]?.arrayValue?.allSatisfy { $0["parity"] == "odd" || $0["parity"] == "both" } == true)
        try await bench.admin("hang", ["on": false])
        await bench.stop()
    }

    @Test func theTokenNeverTravelsInAURL() async throws {
        let directory = TemporaryDirectory()
        let bench = try await TokenTests.loggedIn()
        for (method, params) in [
            ("kos.profile", [:] as JSONValue), ("kos.semester", [:]), ("kos.timetable", [:]), ("kos.courses", [:]), ("kos.results", [:]),
            ("kos.course", ["code": "BI-OPT"]), ("kos.exams", [:]), ("kos.events", [:]), ("kos.people.search", ["q": "novak"]),
            ("kos.export.ics", ["path": .string(directory.file("k.ics"))]), ("kos.exams.watch", ["exam_id": "901"]),
        ] {
            _ = try await bench.call(method, params)
        }
        let first = try #require(try await bench.host.host.vault.get("kos/novakjan/access_token"))
        try await bench.admin("expire")
        _ = try await bench.call("kos.profile")
        let second = try #require(try await bench.host.host.vault.get("kos/novakjan/access_token"))
        #expect(first != second, "the 401 brought a new token")
        let requests = try await bench.requests()
        let api = requests.filter { ($0["path"]?.stringValue ?? "").hasPrefix("/api/3/") }
        #expect(api.count > 20)
        #expect(api.allSatisfy { $0["auth"] == "bearer" }, "every KOSapi request carries a bearer token")
        for request in requests {
            let address = (request["path"]?.stringValue ?? "") + "?" + (request["query"]?.stringValue ?? "")
            #expect(!address.contains(first) && !address.contains(second) && !address.lowercased().contains("token="), "\(request)")
        }
        await bench.stop()
    }
}

/// Two KOS logins side by side, as the kit's accounts: each command reads with the named
/// account's token (the default one's when none is named), and logging one out keeps the other.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct KOSAccountsTests {
    @Test func twoLoginsAreTwoAccounts() async throws {
        let bench = try await TokenTests.loggedIn()
        try await bench.admin("authorize", ["user": "obriesea"])
        let second = try #require(try await bench.call("kos.login")["login_url"]?.stringValue)
        _ = try await Browser.open(second)
        #expect(try await bench.call("kos.login.wait")["logged_in"] == true)
        let status = try await bench.call("kos.status")
        #expect((status["accounts"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } == ["novakjan", "obriesea"])
        #expect(status["username"] == "novakjan", "the first login stays the default")
        #expect(try await bench.call("kos.profile")["username"] == "novakjan")
        #expect(try await bench.call("kos.profile", ["account": "obriesea"])["username"] == "obriesea")
        guard case .failure(let unknown) = try await bench.host.call("kos.profile", ["account": "nobody"]) else {
            Issue.record("an unknown account was used")
            return
        }
        #expect(unknown.code == -32602)
        #expect(unknown.data?["param"] == "account")
        #expect(try await bench.call("kos.logout", ["account": "novakjan"]) == ["logged_in": false, "username": "novakjan"])
        let after = try await bench.call("kos.status")
        #expect((after["accounts"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } == ["obriesea"])
        #expect(after["username"] == "obriesea", "the only account left is the default")
        #expect(try await bench.call("kos.profile")["username"] == "obriesea")
        await bench.stop()
    }
}
