import Foundation
import HostCore

/// A plugin's command table in the README, generated from its manifest between
/// `<!-- <marker>:begin -->` and `<!-- <marker>:end -->`. `UPDATE_README=1` rewrites the block;
/// a test then expects the README to contain it.
public enum READMETable {
    /// The third column: each command's parameters, or its example.
    public enum Detail: Sendable { case parameters, example }

    public static func commands(_ manifest: PluginManifest, detail: Detail = .parameters) -> String {
        var lines = [
            "| command | what it does | \(detail == .parameters ? "parameters (* = required)" : "example") | result (? = may be absent) |",
            "|---|---|---|---|",
        ]
        for c in manifest.commands {
            let summary = c.summary.replacingOccurrences(of: "|", with: "\\|")
            let result = "`\(shape(c.result.value))`".replacingOccurrences(of: "|", with: "\\|")
            switch detail {
            case .parameters:
                let params = c.params.map { "`\($0.name)`\($0.required ? "*" : "")" }.joined(separator: " ")
                lines.append("| `\(c.name)` | \(summary) | \(params.isEmpty ? "–" : params) | \(result) |")
            case .example:
                lines.append("| `\(c.name)` | \(summary) | \(c.example.map { "`\($0)`" } ?? "–") | \(result) |")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A result's top-level shape from its schema: `{tasks, count, truncated}`, `[{…}]`, `"pong"`.
    public static func shape(_ schema: JSONValue) -> String {
        if let properties = schema["properties"]?.objectValue {
            let required = (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue)
            let names = required + properties.keys.filter { !required.contains($0) }.sorted().map { $0 + "?" }
            return "{" + names.joined(separator: ", ") + "}"
        }
        if schema["type"] == "array", let items = schema["items"] {
            return items["properties"] != nil ? "[{…}]" : "[\(JSONSchema(json: items.objectValue ?? [:]).summary)]"
        }
        if let choices = (schema["oneOf"] ?? schema["anyOf"])?.arrayValue { return choices.map(shape).joined(separator: " or ") }
        return JSONSchema(json: schema.objectValue ?? [:]).summary
    }

    /// The README (rewritten first under `UPDATE_README=1`) and the block it must contain.
    public static func sync(_ manifest: PluginManifest, marker: String, detail: Detail = .parameters) throws -> (readme: String, block: String) {
        let path = "\(Peers.packageRoot)/README.md"
        var readme = try String(contentsOfFile: path, encoding: .utf8)
        let begin = "<!-- \(marker):begin -->\n"
        let end = "\n<!-- \(marker):end -->"
        let block = begin + commands(manifest, detail: detail) + end
        if ProcessInfo.processInfo.environment["UPDATE_README"] == "1", let a = readme.range(of: begin), let b = readme.range(of: end) {
            readme.replaceSubrange(a.lowerBound..<b.upperBound, with: block)
            try readme.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return (readme, block)
    }

    /// The plugin's own section of the README: from its `## <title>` heading to the next one.
    public static func section(_ readme: String, heading: String) -> String? {
        guard let start = readme.range(of: "\n## \(heading)") else { return nil }
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }
}
