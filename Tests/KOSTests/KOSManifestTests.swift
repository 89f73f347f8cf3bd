import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// The command contract, and the generated reference page lists every command, topic,
/// option and error code (DocumentationTests keeps the page current).
@Suite(.stopsTestHosts)
struct KOSManifestTests {
    @Test func everyContractCommandExistsAndThePageListsThem() throws {
        let manifest = KOSPlugin().manifest
        let names = Set(manifest.commands.map(\.name))
        let contract = [
            "setup", "login", "login.code", "status", "logout", "profile", "semester", "timetable", "courses", "results", "course", "exams", "events",
            "people.search", "office", "export.ics", "exams.watch", "exams.watches", "exams.unwatch",
        ]
        for name in contract { #expect(names.contains("kos." + name), "kos.\(name) is in the issue's contract") }
        #expect(
            manifest.topics.map(\.topic).sorted() == [
                "kos.auth.expired", "kos.class.soon", "kos.event.new", "kos.exam.deadline", "kos.exam.new", "kos.exam.seat_freed",
                "kos.exam.signup_closing", "kos.exam.tomorrow",
                "kos.result.changed",
                "kos.upstream.recovered", "kos.upstream.unreachable",
            ])
        #expect(manifest.jobs.map(\.id) == ["refresh", "watch", "evening"], "run as kos.refresh, kos.watch, kos.evening")
        #expect(manifest.commands.first { $0.name == "kos.setup" }?.params.first { $0.name == "client_secret" }?.type.name == "secret")

        // The generated page (docs/plugins/kos.md) lists each under its own heading.
        let page = try ReferencePageFile.text(plugin: "kos")
        let commands = try #require(ReferencePageFile.section(page, "Commands"))
        for command in manifest.commands { #expect(commands.contains("### `\(command.name)`"), "the page describes \(command.name)") }
        let topics = try #require(ReferencePageFile.section(page, "Notice topics"))
        for topic in manifest.topics { #expect(topics.contains("| `\(topic.topic)` |"), "the page lists \(topic.topic)") }
        let options = try #require(ReferencePageFile.section(page, "Options"))
        for option in manifest.configOptions { #expect(options.contains("| `\(option.key)` |"), "the page lists \(option.key)") }
        let errors = try #require(ReferencePageFile.section(page, "Error codes"))
        for code in manifest.errors?.codes.keys.sorted() ?? [] { #expect(errors.contains("| \(code) |"), "the page lists error \(code)") }
        #expect(manifest.errors?.codes.keys.sorted().first == 1401, "the block's first code")
        #expect(manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }
}
