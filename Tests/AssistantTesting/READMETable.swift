import Foundation
import HostCore

/// A plugin's command table in the README, generated from its manifest between
/// `<!-- <marker>:begin -->` and `<!-- <marker>:end -->`. `UPDATE_README=1` rewrites the block;
/// a test then expects the README to contain it.
public enum READMETable {
    public static func commands(_ manifest: PluginManifest) -> String {
        var lines = ["| command | what it does | parameters (* = required) |", "|---|---|---|"]
        for c in manifest.commands {
            let params = c.params.map { "`\($0.name)`\($0.required ? "*" : "")" }.joined(separator: " ")
            lines.append("| `\(c.name)` | \(c.summary) | \(params.isEmpty ? "–" : params) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The README (rewritten first under `UPDATE_README=1`) and the block it must contain.
    public static func sync(_ manifest: PluginManifest, marker: String) throws -> (readme: String, block: String) {
        let path = "\(Peers.packageRoot)/README.md"
        var readme = try String(contentsOfFile: path, encoding: .utf8)
        let begin = "<!-- \(marker):begin -->\n", end = "\n<!-- \(marker):end -->"
        let block = begin + commands(manifest) + end
        if ProcessInfo.processInfo.environment["UPDATE_README"] == "1", let a = readme.range(of: begin), let b = readme.range(of: end) {
            readme.replaceSubrange(a.lowerBound..<b.upperBound, with: block)
            try readme.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return (readme, block)
    }
}
