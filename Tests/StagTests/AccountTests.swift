import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// Two universities, one account each: the default, one failing account not stopping the
/// other, logout, removal, and the calendar file a refresh rewrites.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct AccountTests {
    @Test func twoAccountsOneExpiredTheOtherServed() async throws {
        let bench = try await StagBench.start { $0.http.timeoutSeconds = 2 }
        let second = try await StagFake.start()
        defer { second.stop() }
        try await bench.fake.loadFixture()
        try await second.loadFixture()
        try await bench.login(account: "zcu")
        try await second.admin("login", ["user": "dual", "mode": "normal"])
        let started = try await bench.host.call("stag.login", ["base_url": .string(second.base), "account": "upol"]).get()
        _ = try await Browser.open(try require(started["login_url"]?.stringValue))
        _ = try await bench.host.call("stag.login.wait", ["account": "upol"]).get()

        let accounts = try await bench.host.call("stag.accounts.list").get()["accounts"]?.arrayValue ?? []
        #expect(accounts.map { $0["account"] } == ["upol", "zcu"])
        #expect(accounts.map { $0["default"] } == [false, true], "the first account stays the default")
        #expect(try await bench.host.call("stag.timetable", ["account": "upol", "role": "teacher"]).get()["events"]?.arrayValue?.count == 1)

        try await bench.fake.admin("expire")
        let run = try await bench.host.call("jobs.run", ["id": "stag.refresh"]).get()
        #expect(run["last_outcome"] == "failed")
        #expect(run["last_error"]?.stringValue?.contains("zcu") == true)
        guard case .failure(let expired) = try await bench.host.call("stag.exams") else {
            Issue.record("zcu served")
            return
        }
        #expect(expired.code == -32003)
        #expect(try await bench.host.call("stag.timetable", ["account": "upol", "role": "teacher"]).get()["stale"] == false, "upol is unaffected")
        let status = try await bench.host.call("stag.status").get()["accounts"]?.arrayValue ?? []
        #expect(status.map { $0["state"] } == ["ready", "needs_reauth"])
        #expect(status.first?["last_refresh"] == "2026-11-24T08:00:00Z", "upol was refreshed although zcu failed")

        _ = try await bench.host.call("stag.accounts.default", ["account": "upol"]).get()
        #expect(try await bench.host.call("stag.timetable", ["role": "teacher"]).get()["events"]?.arrayValue?.count == 1, "the default is upol now")
        _ = try await bench.host.call("stag.accounts.remove", ["account": "zcu"]).get()
        #expect(try await bench.host.call("stag.accounts.list").get()["accounts"]?.arrayValue?.map { $0["account"] } == ["upol"])
        #expect(!(try await bench.host.call("vault.list").get().encodedString().contains("stag/zcu/")), "its ticket is gone")
        await bench.stop()
    }

    @Test func logoutInvalidatesTheTicketAtSTAGAndForgetsIt() async throws {
        let bench = try await StudyTests.student()
        let out = try await bench.host.call("stag.logout").get()
        #expect(out == ["account": "school", "logged_in": false, "invalidated_at_stag": true])
        let invalidate = try await bench.fake.requests().filter { $0["path"] == "help/invalidateTicket" }
        #expect(invalidate.count == 1)
        #expect(invalidate.first?["query"]?["ticket"]?.stringValue?.count == 64, "the one call that takes the ticket as a parameter")
        #expect(!(try await bench.host.call("vault.list").get().encodedString().contains("stag/school/ticket")))
        guard case .failure(let loggedOut) = try await bench.host.call("stag.grades") else {
            Issue.record("served after logout")
            return
        }
        #expect(loggedOut.code == -32003)
        #expect(try await NoticeTests.notices(bench, "stag.auth.expired").isEmpty, "a logout is not an expiry")
        await bench.stop()
    }

    @Test func eachRefreshRewritesTheCalendarFile() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("stag.ics")
        let bench = try await StagBench.start {
            $0.http.timeoutSeconds = 2
            $0.plugins["stag"]?["ics_path"] = .string(path)
        }
        try await bench.fake.loadFixture()
        try await bench.login()
        try await NoticeTests.refresh(bench)
        let first = try String(contentsOfFile: path, encoding: .utf8)
        #expect(first.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(
            first.components(separatedBy: "BEGIN:VEVENT").count - 1 == 4,
            "24 Nov – the 14-week window: PPA1, the VSS exam, MA1 on 30 Nov, and 23 Nov's MA1")
        var rows = StagFake.fixture["timetable"]!.arrayValue!
        rows.removeLast(2)
        try await bench.fake.admin("timetable", ["rows": .array(rows)])
        try await NoticeTests.refresh(bench)
        let second = try String(contentsOfFile: path, encoding: .utf8)
        #expect(second.components(separatedBy: "BEGIN:VEVENT").count - 1 == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["stag.ics"], "no temporary file is left")
        await bench.stop()
    }
}
