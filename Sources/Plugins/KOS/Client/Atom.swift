import Foundation
import PluginKit

/// An Atom feed or entry (RFC 4287) with a payload in `atom:content`, as KOSapi serves them:
/// relative links resolved against `xml:base` and the next page's address (the content is read by KOSRows).
/// Public for the KOS benchmark, which times it on its own.
public struct AtomDocument: Sendable {
    public static let atom = "http://www.w3.org/2005/Atom"
    public static let openSearch = "http://a9.com/-/spec/opensearch/1.1/"

    public struct Entry: Sendable {
        /// The last `:` segment of `atom:id` (`urn:cvut:kos:course:23368305` → `23368305`).
        public var id: String?
        public var title: String?
        public var updated: String?
        /// `rel="self"`, resolved.
        public var selfLink: String?
        /// `xsi:type` of the content (`course`, `parallel`, …).
        public var type: String?
        public var content: XMLNode?
    }

    /// `xml:base` as sent.
    public var base: String?
    public var language: String?
    public var entries: [Entry]
    /// The resolved `rel="next"` address, nil on the last page.
    public var next: String?
    public var totalResults: Int?

    /// nil when the bytes are not an Atom feed or entry, or are over the default limits.
    public init?(_ data: Data) {
        guard let document = try? Self(parsing: data) else { return nil }
        self = document
    }

    /// Reads an Atom feed or entry within `limits`; the failure says why not, for an error
    /// naming the server.
    public init(parsing data: Data, limits: XMLNode.Limits = .default) throws(XMLNode.ParseFailure) {
        let root = try XMLNode.parse(data, limits: limits)
        guard root.namespace == Self.atom, root.name == "feed" || root.name == "entry" else {
            throw .unexpectedRoot(root.name, expected: "an Atom feed or entry")
        }
        base = root.attribute("base", XMLNode.xmlNamespace)
        language = root.attribute("lang", XMLNode.xmlNamespace)
        let base = self.base
        func entry(_ node: XMLNode) -> Entry {
            let content = node.first("content", Self.atom)
            let link = node.children("link", Self.atom).first { ($0.attribute("rel") ?? "alternate") == "self" }?.attribute("href")
            return Entry(
                id: node.first("id", Self.atom)?.trimmedText.split(separator: ":").last.map(String.init),
                title: node.first("title", Self.atom)?.trimmedText, updated: node.first("updated", Self.atom)?.trimmedText,
                selfLink: link.map { Self.resolve($0, base: base) },
                // Recorded feeds write `xsi:type="course"`; some documentation prefixes the value.
                type: content?.attribute("type", XMLNode.xsi).map { $0.split(separator: ":").last.map(String.init) ?? $0 }, content: content)
        }
        if root.name == "entry" {
            entries = [entry(root)]
        } else {
            entries = root.children("entry", Self.atom).map(entry)
            next = root.children("link", Self.atom).first { $0.attribute("rel") == "next" }?.attribute("href").map { Self.resolve($0, base: base) }
            totalResults = root.first("totalResults", Self.openSearch).flatMap { Int($0.trimmedText) }
        }
    }

    /// Joins a relative link to `xml:base`, reading the base as a directory: KOSapi's base may
    /// come without its trailing slash (`…/api/3`), and plain RFC 3986 resolution would then
    /// drop the version segment (`…/api/courses`).
    public static func resolve(_ href: String, base: String?) -> String {
        if href.hasPrefix("http://") || href.hasPrefix("https://") { return href }
        guard var base, !base.isEmpty else { return href }
        if !base.hasSuffix("/") { base += "/" }
        guard let baseURL = URL(string: base), let resolved = URL(string: href, relativeTo: baseURL) else { return base + href }
        return resolved.absoluteString
    }
}
