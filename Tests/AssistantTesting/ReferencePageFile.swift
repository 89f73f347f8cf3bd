import Foundation

/// A plugin's generated reference page (`docs/plugins/<id>.md`, written by `scripts/docs`; a
/// DaemonTests test keeps it current) and its sections, for the manifest tests' checks that the
/// page lists every topic, option and error code under its own heading.
public enum ReferencePageFile {
    public static func text(plugin id: String) throws -> String {
        try String(contentsOfFile: "\(Peers.packageRoot)/docs/plugins/\(id).md", encoding: .utf8)
    }

    /// The text from `## <heading>` to the next `## `.
    public static func section(_ page: String, _ heading: String) -> String? {
        guard let start = page.range(of: "\n## \(heading)\n") else { return nil }
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }
}
