import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// Token refresh while commands run: before expiry on the host clock, once after a 401, and a
/// refused refresh ending the login while public data goes on with the application's token.
@Suite(.enabled(if: Peers.shouldRun(pythonModule: "json"))) struct TokenTests {
    static func loggedIn(configure: @escaping (inout HostConfiguration) -> Void = { _ in }) async throws -> AuthTests.Bench {
        let bench = try await AuthTests.start(configure: configure)
        try await bench.setUp()
        let started = try await bench.host.call("kos.login").get()
        let loginURL = try #require(started["login_url"]?.stringValue)
        _ = try await Browser.open(loginURL)
        #expect(try await bench.host.call("kos.login.wait").get()["logged_in"] == true)
        return bench
    }

    static func grants(_ bench: AuthTests.Bench) async throws -> Int {
        try await bench.requests().filter { $0["path"] == "/oauth/token" }.count
    }

    @Test func publicDataWorksWithoutALogin() async throws {
        let bench = try await AuthTests.start()
        try await bench.setUp()
        let semester = try await bench.host.call("kos.semester").get()
        #expect(semester["code"] == "B251")
        #expect(semester["name"] == "Zimní 2025/2026")
        #expect(semester["start"] == "2025-09-22")
        #expect(semester["stale"] == false)
        guard case .failure(let profile) = try await bench.host.call("kos.profile") else { Issue.record("a profile without a login"); return }
        #expect(profile.code == -32003)
        #expect(profile.data?["fix"] == "assistantctl kos.login")
        await bench.stop()
    }

    @Test func aTokenAboutToExpireIsRefreshedFirst() async throws {
        let bench = try await Self.loggedIn()
        let before = try await Self.grants(bench)
        _ = try await bench.host.call("kos.profile").get()
        #expect(try await Self.grants(bench) == before, "a fresh token is used as it is")
        (bench.host.host.clock as? TestClock)?.advance(by: 250)  // 50 s left of 300: under the 60 s margin
        let profile = try await bench.host.call("kos.profile").get()
        #expect(profile["username"] == "novakjan")
        #expect(try await Self.grants(bench) == before + 1, "one refresh, before any 401")
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
        guard case .failure(let ended) = try await bench.host.call("kos.profile") else { Issue.record("served after the refresh was refused"); return }
        #expect(ended.code == -32003)
        guard case .failure(let again) = try await bench.host.call("kos.profile") else { Issue.record("served"); return }
        #expect(again.code == -32003)
        let notices = try await bench.host.call("notifications.list", ["topic": "kos.auth.expired"]).get().arrayValue ?? []
        #expect(notices.count == 1, "one notice")
        #expect(try await bench.host.call("kos.status").get()["state"] == "needs_reauth")
        // Public data goes on with the application's token.
        #expect(try await bench.host.call("kos.semester", ["which": "next"]).get()["code"] == "B252")
        await bench.stop()
    }
}
