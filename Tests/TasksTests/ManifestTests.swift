import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// The command contract, and the generated reference page lists every command, topic,
/// option and error code (DocumentationTests keeps the page current).
@Suite(.stopsTestHosts)
struct TasksManifestTests {
    @Test func everyContractCommandExistsAndThePageListsThem() throws {
        let names = Set(TasksPlugin().manifest.commands.map(\.name))
        for name in [
            "add", "get", "update", "delete", "restore", "complete", "reopen", "snooze", "list", "agenda", "categories.list", "categories.add",
            "categories.remove", "export.ics", "import.ics", "feeds.add", "feeds.list", "feeds.remove", "feeds.refresh", "caldav.add",
            "caldav.list", "caldav.remove", "caldav.sync",
        ] {
            #expect(names.contains("tasks." + name), "tasks.\(name) is in the issue's contract")
        }
        // The generated page (docs/plugins/tasks.md) lists each under its own heading.
        let page = try ReferencePageFile.text(plugin: "tasks")
        let commands = try #require(ReferencePageFile.section(page, "Commands"))
        for command in TasksPlugin().manifest.commands { #expect(commands.contains("### `\(command.name)`"), "the page describes \(command.name)") }
        let topics = try #require(ReferencePageFile.section(page, "Notice topics"))
        for topic in TasksPlugin().manifest.topics { #expect(topics.contains("| `\(topic.topic)` |"), "the page lists \(topic.topic)") }
        let options = try #require(ReferencePageFile.section(page, "Options"))
        for option in TasksPlugin().manifest.configOptions { #expect(options.contains("| `\(option.key)` |"), "the page lists \(option.key)") }
        let errors = try #require(ReferencePageFile.section(page, "Error codes"))
        for code in TasksPlugin().manifest.errors?.codes.keys.sorted() ?? [] {
            #expect(errors.contains("| \(code) |"), "the page lists error \(code)")
        }
        #expect(TasksPlugin().manifest.errors?.codes.keys.sorted().first == 1201, "the block's first code")
        #expect(TasksPlugin().manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }
}
