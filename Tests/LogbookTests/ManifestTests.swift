import AssistantTesting
import Foundation
import HostCore
import Logbook
import Testing

/// The command contract, and the generated reference page lists every command, topic,
/// option and error code (DocumentationTests keeps the page current).
@Suite(.stopsTestHosts, .timeLimit(.minutes(1)))
struct LogbookManifestTests {
    @Test func everyCommandIsInTheContractAndOnItsPage() throws {
        let manifest = LogbookPlugin().manifest
        let names = Set(manifest.commands.map(\.name))
        let contract = [
            "profile.get", "profile.set", "aircraft.add", "aircraft.list", "aircraft.update", "aircraft.delete", "flights.add", "flights.get",
            "flights.update", "flights.delete", "flights.list", "fstd.add", "fstd.list", "fstd.delete", "certificates.add", "certificates.list",
            "certificates.delete", "airports.search", "airports.near", "airports.add", "totals", "totals.starting.set", "limits", "currency",
            "medical", "night", "ratings", "attachments.add", "attachments.list", "attachments.get", "attachments.delete", "duty.add", "duty.get",
            "duty.list", "duty.update", "duty.delete",
            "import", "export", "report.mail",
        ].map { "logbook." + $0 }
        for name in contract { #expect(names.contains(name), "\(name) is in the issue's contract") }
        // The generated page (docs/plugins/logbook.md) lists each under its own heading.
        let page = try ReferencePageFile.text(plugin: "logbook")
        let commands = try #require(ReferencePageFile.section(page, "Commands"))
        for command in manifest.commands { #expect(commands.contains("### `\(command.name)`"), "the page describes \(command.name)") }
        let topics = try #require(ReferencePageFile.section(page, "Notice topics"))
        for topic in manifest.topics { #expect(topics.contains("| `\(topic.topic)` |"), "the page lists \(topic.topic)") }
        let options = try #require(ReferencePageFile.section(page, "Options"))
        for option in manifest.configOptions { #expect(options.contains("| `\(option.key)` |"), "the page lists \(option.key)") }
        let errors = try #require(ReferencePageFile.section(page, "Error codes"))
        for code in manifest.errors?.codes.keys.sorted() ?? [] { #expect(errors.contains("| \(code) |"), "the page lists error \(code)") }
        #expect(manifest.errors?.codes.keys.sorted().first == 1101, "the block's first code")
        #expect(manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }
}
