import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// The README's command table is generated from the manifest; this keeps them the same
/// (`UPDATE_README=1 swift test --filter TasksManifestTests` rewrites the block).
@Suite(.stopsTestHosts)
struct TasksManifestTests {
    @Test func everyContractCommandExistsAndTheREADMETableIsGenerated() throws {
        let names = Set(TasksPlugin().manifest.commands.map(\.name))
        for name in [
            "add", "get", "update", "delete", "restore", "complete", "reopen", "snooze", "list", "agenda", "categories.list", "categories.add",
            "categories.remove", "export.ics", "import.ics", "feeds.add", "feeds.list", "feeds.remove", "feeds.refresh", "caldav.add",
            "caldav.list", "caldav.remove", "caldav.sync",
        ] {
            #expect(names.contains("tasks." + name), "tasks.\(name) is in the issue's contract")
        }
        let (readme, block) = try READMETable.sync(TasksPlugin().manifest, marker: "tasks-commands")
        #expect(
            readme.contains(block),
            "README's tasks command table differs from the manifest; run UPDATE_README=1 swift test --filter TasksManifestTests")
        for topic in TasksPlugin().manifest.topics { #expect(readme.contains("`\(topic.topic)`"), "README names \(topic.topic)") }
        for option in TasksPlugin().manifest.configOptions { #expect(readme.contains("`\(option.key)`"), "README names \(option.key)") }
        #expect(TasksPlugin().manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }
}
