import AssistantClient
import Foundation

/// The links between the documentation's pages (issue 29): every relative link names a file
/// that exists, and every `#anchor` a heading of its page (GitHub's anchors).
public enum DocLinks {
    /// Every Markdown page of the documentation, relative to `root`. `docs/intro/` holds the
    /// introductions the generated pages include: their links are checked where they end up, and
    /// their examples where they are written (`introductions: true`).
    public static func pages(root: String = Peers.packageRoot, introductions: Bool = false) -> [String] {
        var pages = ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md"]
        let walker = FileManager.default.enumerator(atPath: "\(root)/docs")
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".md"), introductions || !path.hasPrefix("intro/") { pages.append("docs/\(path)") }
        }
        return pages.filter { FileManager.default.fileExists(atPath: "\(root)/\($0)") }.sorted()
    }

    /// The links of a page outside code blocks and code spans.
    public static func links(_ text: String) -> [String] {
        var links: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard !inBlock else { continue }
            // Code spans are left out: `[x](y)` inside backticks is not a link.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                .joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                links.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return links
    }

    /// The anchors of a page's headings.
    public static func anchors(_ text: String) -> Set<String> {
        var anchors: Set<String> = []
        var inBlock = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inBlock.toggle() }
            guard !inBlock, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            anchors.insert(ReferencePages.anchor(heading))
        }
        return anchors
    }

    /// Each broken link as `page: link (why)`.
    public static func broken(root: String = Peers.packageRoot, pages: [String]? = nil) -> [String] {
        var broken: [String] = []
        for page in pages ?? self.pages(root: root) {
            guard let text = try? String(contentsOfFile: "\(root)/\(page)", encoding: .utf8) else {
                broken.append("\(page): cannot be read")
                continue
            }
            for link in links(text) {
                if link.hasPrefix("http://") || link.hasPrefix("https://") || link.hasPrefix("mailto:") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let folder = (page as NSString).deletingLastPathComponent
                let target = parts[0].isEmpty ? page : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                guard FileManager.default.fileExists(atPath: "\(root)/\(target)") else {
                    broken.append("\(page): \(link) (no file \(target))")
                    continue
                }
                if parts.count == 2, target.hasSuffix(".md") {
                    let targetText = (try? String(contentsOfFile: "\(root)/\(target)", encoding: .utf8)) ?? ""
                    if !anchors(targetText).contains(parts[1]) { broken.append("\(page): \(link) (no heading #\(parts[1]) in \(target))") }
                }
            }
        }
        return broken
    }
}
