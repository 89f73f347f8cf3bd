import AssistantClient
import AssistantTesting
import Foundation
import Testing

/// `assistantctl stag.login` prints the login address at once, through the real daemon.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct StagCLITests {
    func ctl(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> CommandResult {
        try await runCommand(Binaries.assistantctl, arguments, environment: DaemonProcess.environment(daemon.directory))
    }

    @Test func loginPrintsTheAddressAndBadInputIsClear() async throws {
        let daemon = try await DaemonProcess.started()
        let universities = try await ctl(daemon, ["stag.universities"])
        #expect(universities.status == 0)
        let ids = try JSONValue.decode(universities.stdout)["universities"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(ids.starts(with: ["zcu", "zcu-demo", "jcu"]))

        // Port 9 (discard): nothing is contacted until the browser comes back.
        let login = try await ctl(daemon, ["stag.login", "base_url=http://127.0.0.1:9", "account=lab"])
        #expect(login.status == 0, "\(login.stderr)")
        let printed = try JSONValue.decode(login.stdout)
        #expect(printed["account"] == "lab")
        #expect(printed["expires_in_s"] == 600)
        let url = try #require(printed["login_url"]?.stringValue)
        #expect(url.hasPrefix("http://127.0.0.1:9/ws/login?originalURL=http%3A%2F%2F127.0.0.1%3A"))
        #expect(url.hasSuffix("&longTicket=1"))

        let bad = try await ctl(daemon, ["stag.exams.register", "term_id=abc"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("term_id"), "\(bad.stderr)")
        let noAccount = try await ctl(daemon, ["stag.timetable"])
        #expect(noAccount.status != 0)
        #expect(noAccount.stderr.contains("stag.login"), "tells how to add an account: \(noAccount.stderr)")
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }
}
