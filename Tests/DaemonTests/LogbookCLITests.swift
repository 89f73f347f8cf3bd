import AssistantClient
import AssistantTesting
import Foundation
import Testing

/// The pilot's tour (docs/intro/logbook.md), through the real assistantctl and the real daemon.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct LogbookCLITests {
    func ctl(_ daemon: DaemonProcess, _ arguments: [String], cwd: String? = nil) async throws -> CommandResult {
        try await runCommand(Binaries.assistantctl, arguments, environment: DaemonProcess.environment(daemon.directory), currentDirectory: cwd)
    }

    func json(_ daemon: DaemonProcess, _ arguments: [String], cwd: String? = nil) async throws -> JSONValue {
        let r = try await ctl(daemon, arguments, cwd: cwd)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return try JSONValue.decode(r.stdout)
    }

    @Test func aPilotsTour() async throws {
        let daemon = try await DaemonProcess.started()
        let work = TemporaryDirectory()
        _ = try await json(daemon, ["logbook.profile.set", "name=Jana Nováková", "date_of_birth=1986-06-15", "default_function=pic"])
        _ = try await json(
            daemon, ["logbook.aircraft.add", "registration=OK-SKA", "make=Cessna", "model=172", "type_designator=C172", "class_rating=SEP(land)"])
        // Durations as people type them: minutes, H:MM, decimal hours.
        let a = try await json(
            daemon,
            ["logbook.flights.add", "dep=LKPR", "arr=LKTB", "date=2026-03-01", "out=08:00", "in=09:35", "aircraft=OK-SKA", "dual=1.5", "pic=0"])
        #expect(a["dual_min"] == 90, "1.5 on the command line is hours")
        #expect(a["total_min"] == 95)
        let b = try await json(
            daemon,
            ["logbook.flights.add", "dep=LKTB", "arr=LKPR", "date=2026-03-01", "out=10:00", "in=11:00", "aircraft=OK-SKA", "ifr=0:45", "night=0"])
        #expect(b["ifr_min"] == 45)
        let c = try await json(
            daemon, ["logbook.flights.add", "dep=LKPR", "arr=LKPR", "date=2026-03-02", "out=12:00", "in=13:00", "aircraft=OK-SKA", "total=50"])
        #expect(c["total_min"] == 50)
        let imported = try await json(daemon, ["logbook.import", "path=\(Peers.packageRoot)/Tests/LogbookTests/Fixtures/import/myflightbook.csv"])
        #expect(imported["imported"] == 2)
        let totals = try await json(daemon, ["logbook.totals", "group_by=aircraft"])
        #expect(totals["period"]?["flights"] == 5)
        let limits = try await json(daemon, ["logbook.limits", "at=2026-03-02"])
        #expect(limits["items"]?.arrayValue?.count == 6)
        let currency = try await json(daemon, ["logbook.currency", "at=2026-03-02"])
        #expect(currency["items"]?.arrayValue?.first { $0["rule"] == "passengers" }?["status"] == "ok")
        // A relative path is made absolute by the CLI.
        let pdf = try await json(daemon, ["logbook.export", "path=logbook.pdf", "format=pdf"], cwd: work.path)
        #expect(pdf["pages"] == 1)
        #expect(FileManager.default.fileExists(atPath: work.file("logbook.pdf")))

        let bad = try await ctl(
            daemon, ["logbook.flights.add", "dep=LKPR", "arr=LKTB", "date=2026-03-03", "out=08:00", "in=07:00", "aircraft=OK-SKA"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("'in'"))
        let help = try await ctl(daemon, ["help", "logbook.flights.add"])
        #expect(help.stdout.contains("logbook.flights.add"))
        #expect(help.stdout.contains("dep"))
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }
}
