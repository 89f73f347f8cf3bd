import AssistantTesting
import Foundation
import HostCore
import OctoPrint
import Testing

/// Every REST area has commands with examples, and the generated reference page lists every
/// command, topic, option and error code (DocumentationTests keeps the page current).
@Suite(.stopsTestHosts, .timeLimit(.minutes(1)))
struct OctoPrintManifestTests {
    @Test func everyAreaIsCoveredHasAnExampleAndIsOnItsPage() throws {
        let manifest = OctoPrintPlugin().manifest
        let names = manifest.commands.map(\.name)
        let areas = [
            "connection", "files", "job", "printhead", "tool", "bed", "chamber", "sd", "controls", "error", "profiles", "settings",
            "system", "slicing", "timelapse", "logs", "access", "languages", "util", "server", "webcam", "printers",
        ]
        for area in areas { #expect(names.contains { $0.hasPrefix("octoprint.\(area).") }, "area \(area)") }
        for single in ["octoprint.gcode", "octoprint.status", "octoprint.discover"] { #expect(names.contains(single)) }
        for c in manifest.commands {
            #expect(c.example?.hasPrefix("assistantctl \(c.name)") == true, "\(c.name) has an example")
        }
        // The generated page (docs/plugins/octoprint.md) lists each under its own heading.
        let page = try ReferencePageFile.text(plugin: "octoprint")
        let commands = try #require(ReferencePageFile.section(page, "Commands"))
        for command in manifest.commands { #expect(commands.contains("### `\(command.name)`"), "the page describes \(command.name)") }
        let topics = try #require(ReferencePageFile.section(page, "Notice topics"))
        for topic in manifest.topics { #expect(topics.contains("| `\(topic.topic)` |"), "the page lists \(topic.topic)") }
        let options = try #require(ReferencePageFile.section(page, "Options"))
        for option in manifest.configOptions { #expect(options.contains("| `\(option.key)` |"), "the page lists \(option.key)") }
        let errors = try #require(ReferencePageFile.section(page, "Error codes"))
        for code in manifest.errors?.codes.keys.sorted() ?? [] { #expect(errors.contains("| \(code) |"), "the page lists error \(code)") }
        #expect(manifest.errors?.codes.keys.sorted().first == 1001, "the block's first code")
    }
}
