import AssistantTesting
import Foundation
import HostCore
import OctoPrint
import Testing

/// Every REST area has commands with examples, and the README's command table is generated from
/// the manifest (`UPDATE_README=1 swift test --filter OctoPrintManifestTests` rewrites it).
@Suite(.stopsTestHosts, .timeLimit(.minutes(1)))
struct OctoPrintManifestTests {
    @Test func everyAreaIsCoveredDocumentedAndHasAnExample() throws {
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
        let (readme, block) = try READMETable.sync(manifest, marker: "octoprint-commands", detail: .example)
        #expect(
            readme.contains(block),
            "README's OctoPrint command table differs from the manifest; run UPDATE_README=1 swift test --filter OctoPrintManifestTests")
        let section = try #require(READMETable.section(readme, heading: "OctoPrint ("))
        for t in manifest.topics { #expect(section.contains("`\(t.topic)`"), "the OctoPrint section names \(t.topic)") }
    }
}
