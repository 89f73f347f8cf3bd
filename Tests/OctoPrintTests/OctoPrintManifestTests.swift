import Foundation
import HostCore
import OctoPrint
import Testing

@Suite(.timeLimit(.minutes(1)))
struct OctoPrintManifestTests {
    @Test func everyAreaIsCoveredDocumentedAndHasAnExample() throws {
        let manifest = OctoPrintPlugin().manifest
        let names = manifest.commands.map(\.name)
        let areas = ["connection", "files", "job", "printhead", "tool", "bed", "chamber", "sd", "controls", "error", "profiles", "settings",
                     "system", "slicing", "timelapse", "logs", "access", "languages", "util", "server", "webcam", "printers"]
        for area in areas { #expect(names.contains { $0.hasPrefix("octoprint.\(area).") }, "area \(area)") }
        for single in ["octoprint.gcode", "octoprint.status", "octoprint.discover"] { #expect(names.contains(single)) }
        let readme = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardized.path, encoding: .utf8)
        for c in manifest.commands {
            #expect(c.example?.hasPrefix("assistantctl \(c.name)") == true, "\(c.name) has an example")
            let short = String(c.name.dropFirst("octoprint.".count))
            let last = short.split(separator: ".").last.map(String.init) ?? short
            #expect(readme.contains(short) || readme.contains("/\(last)") || readme.contains("`\(c.name)`"), "README lists \(c.name)")
        }
        for t in manifest.topics { #expect(readme.contains(String(t.topic.split(separator: ".").last!)), "README names \(t.topic)") }
    }
}

extension OctoPrintManifestTests {
    /// The README's command reference is generated from the manifest: run
    /// `OCTOPRINT_COMMAND_REFERENCE=/tmp/ref.md swift test --filter commandReference` and paste it.
    @Test func commandReference() throws {
        let manifest = OctoPrintPlugin().manifest
        var lines = ["| command | what it does | example |", "|---|---|---|"]
        for c in manifest.commands.sorted(by: { $0.name < $1.name }) {
            lines.append("| `\(c.name)` | \(c.summary.replacingOccurrences(of: "|", with: "\\|")) | `\(c.example ?? "")` |")
        }
        let table = lines.joined(separator: "\n")
        if let path = ProcessInfo.processInfo.environment["OCTOPRINT_COMMAND_REFERENCE"] {
            try table.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let readme = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardized.path, encoding: .utf8)
        #expect(readme.contains(table), "README's OctoPrint command reference matches the manifest (regenerate it)")
    }
}
