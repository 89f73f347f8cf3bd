import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// The issue's command contract, and the generated reference page lists every command, topic,
/// option and error code (DocumentationTests keeps the page current).
@Suite(.stopsTestHosts)
struct StagManifestTests {
    @Test func everyContractCommandExistsAndThePageListsThem() throws {
        let manifest = StagPlugin().manifest
        let names = Set(manifest.commands.map(\.name))
        let contract = [
            "universities", "login", "login.ticket", "login.password", "status", "accounts.list", "accounts.default", "accounts.remove", "logout",
            "timetable", "exams", "exams.register", "exams.unregister", "grades", "results", "subject", "teacher", "student", "calendar",
            "export.ics", "canteen", "students", "theses", "exams.watch", "exams.watches", "exams.unwatch",
        ]
        for name in contract { #expect(names.contains("stag." + name), "stag.\(name) is in the issue's contract") }
        #expect(
            manifest.topics.map(\.topic).sorted() == [
                "stag.auth.expired", "stag.class.soon", "stag.exam.deadline", "stag.exam.new", "stag.exam.seat_freed", "stag.exam.signup_closing",
                "stag.exam.tomorrow", "stag.grade.new", "stag.students.mailed",
                "stag.timetable.changed", "stag.upstream.recovered", "stag.upstream.unreachable",
            ])
        #expect(manifest.jobs.map(\.id) == ["refresh", "watch", "evening"], "run as stag.refresh, stag.watch, stag.evening")
        #expect(manifest.commands.first { $0.name == "stag.login.password" }?.params.first { $0.name == "password" }?.type.name == "secret")

        // The generated page (docs/plugins/stag.md) lists each under its own heading.
        let page = try ReferencePageFile.text(plugin: "stag")
        let commands = try #require(ReferencePageFile.section(page, "Commands"))
        for command in manifest.commands { #expect(commands.contains("### `\(command.name)`"), "the page describes \(command.name)") }
        let topics = try #require(ReferencePageFile.section(page, "Notice topics"))
        for topic in manifest.topics { #expect(topics.contains("| `\(topic.topic)` |"), "the page lists \(topic.topic)") }
        let options = try #require(ReferencePageFile.section(page, "Options"))
        for option in manifest.configOptions { #expect(options.contains("| `\(option.key)` |"), "the page lists \(option.key)") }
        let errors = try #require(ReferencePageFile.section(page, "Error codes"))
        for code in manifest.errors?.codes.keys.sorted() ?? [] { #expect(errors.contains("| \(code) |"), "the page lists error \(code)") }
        #expect(manifest.errors?.codes.keys.sorted().first == 1301, "the block's first code")
        #expect(manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }

    /// export.ics declares its window rule with the command: refused before the handler (no
    /// account is needed to be refused), and named in help.
    @Test func theExportWindowIsARuleOfTheCommand() async throws {
        let host = try await TestHost.started(plugins: [StagPlugin()])
        for (from, to, problem) in [
            ("2026-02-01", "2026-01-01", "(2026-01-01) is before from (2026-02-01)"),
            ("2026-01-01", "2027-03-01", "is more than 400 days after from (2026-01-01 to 2027-03-01)"),
        ] {
            let result = try await host.call("stag.export.ics", ["path": "/tmp/x.ics", "from": .string(from), "to": .string(to)])
            guard case .failure(let refused) = result else {
                Issue.record("a window from \(from) to \(to) was accepted")
                continue
            }
            #expect(refused.code == -32602)
            #expect(refused.data?["param"] == "to")
            #expect(refused.data?["problem"] == .string(problem))
        }
        let help = try await host.call("help", ["method": "stag.export.ics"]).get()
        #expect(help["rules"] == ["to is not before from, and at most 400 days after it"])
        await host.stop()
    }
}
