import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML element tree built by Foundation's XML parser with namespaces on, so elements are
/// matched by namespace and local name whatever prefix a server chose. Attributes are keyed
/// `{namespace}local` (`{http://www.w3.org/1999/xlink}href`), or by local name alone when they
/// have no prefix: `atom:type` and `xsi:type` on the same element stay apart.
public final class XMLNode: @unchecked Sendable {
    public static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    public static let xlink = "http://www.w3.org/1999/xlink"
    public static let xsi = "http://www.w3.org/2001/XMLSchema-instance"

    public let namespace: String
    public let name: String
    public let attributes: [String: String]

    public func attribute(_ local: String, _ namespace: String? = nil) -> String? {
        attributes[namespace.map { "{\($0)}\(local)" } ?? local]
    }
    public internal(set) var children: [XMLNode] = []
    public internal(set) var text = ""

    init(namespace: String, name: String, attributes: [String: String]) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
    }

    public var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    public func children(_ name: String, _ namespace: String? = nil) -> [XMLNode] {
        children.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    public func first(_ name: String, _ namespace: String? = nil) -> XMLNode? {
        children.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// How much of a document from outside is read into a tree. The tree is walked and released
    /// recursively (an element's children are freed when it is), so its depth must be bounded:
    /// a server answering 50 000 nested elements overflowed the stack when the tree was freed.
    public struct Limits: Sendable {
        public var maxDepth: Int
        public var maxElements: Int

        public init(maxDepth: Int = 256, maxElements: Int = 1_000_000) {
            self.maxDepth = maxDepth
            self.maxElements = maxElements
        }

        public static let `default` = Limits()
    }

    /// Why a document was not read, in words that go into an error naming the server or file.
    public enum ParseFailure: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed
        case notUTF8
        case processingInstruction
        case tooDeep(limit: Int)
        case tooManyElements(limit: Int)
        /// Well-formed, but not the document that was asked for (`expected` names it).
        case unexpectedRoot(String, expected: String)

        public var description: String {
            switch self {
            case .malformed: "is not well-formed XML"
            case .notUTF8: "is not valid UTF-8"
            case .processingInstruction: "has a processing instruction (<?…?>) past the XML declaration, which is not read"
            case .unexpectedRoot(let root, let expected): "is XML, but <\(root)> instead of \(expected)"
            case .tooDeep(let limit): "nests XML elements deeper than the limit of \(limit)"
            case .tooManyElements(let limit): "has more XML elements than the limit of \(limit)"
            }
        }
    }

    /// Parses a document; nil when it is not well-formed XML or over the default limits.
    public static func parse(_ data: Data) -> XMLNode? { try? parse(data, limits: .default) }

    /// Parses a document within `limits`. External entities are never loaded. Parsing stops at
    /// the first element over a limit, so an over-deep document never becomes a tree.
    public static func parse(_ data: Data, limits: Limits) throws(ParseFailure) -> XMLNode {
        // Foundation's parser on Linux traps on an element name that is not valid UTF-8
        // (found by `scripts/fuzz parsers`: a 0xFF byte in a multistatus tag killed the process),
        // so only valid UTF-8 reaches it. Every upstream here sends UTF-8.
        guard String(validating: data, as: UTF8.self) != nil else { throw .notUTF8 }
        // It also crashes on a processing instruction without data (`<?x?>`: strlen of NULL, found
        // by the fuzzer too). No upstream here sends one beyond the declaration, so none is read.
        guard !hasProcessingInstruction(data) else { throw .processingInstruction }
        let builder = Builder(limits: limits)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let overLimit = builder.overLimit { throw overLimit }
        // Foundation's parser on Linux can report success for a document cut off mid-element:
        // every element must also have closed.
        guard parsed, !builder.failed, builder.stack.isEmpty, let root = builder.root else { throw .malformed }
        return root
    }

    /// Whether `data` holds `<?` anywhere past a leading XML declaration (`<?xml …?>`, after an
    /// optional byte-order mark). A `<?` inside a comment or CDATA counts too: refused as well.
    static func hasProcessingInstruction(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if bytes[start...].starts(with: Array("<?xml".utf8)), start + 5 < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5]) {
            var i = start + 5
            while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "?") && bytes[i + 1] == UInt8(ascii: ">")) { i += 1 }
            start = i + 2
        }
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "<") && bytes[i + 1] == UInt8(ascii: "?") { return true }
            i += 1
        }
        return false
    }

    private final class Builder: NSObject, XMLParserDelegate {
        let limits: Limits
        var root: XMLNode?
        var stack: [XMLNode] = []
        var failed = false
        var overLimit: ParseFailure?
        var elements = 0

        init(limits: Limits) { self.limits = limits }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { failed = true }
        /// Prefix → namespace as declared so far (the parser reports attributes by prefix).
        var prefixes: [String: String] = ["xml": XMLNode.xmlNamespace]

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            prefixes[prefix] = namespaceURI
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            var attributes: [String: String] = [:]
            for (key, value) in attributeDict {
                let parts = key.split(separator: ":", maxSplits: 1)
                if parts.count == 2, let namespace = prefixes[String(parts[0])] {
                    attributes["{\(namespace)}\(parts[1])"] = value
                } else {
                    attributes[key] = value
                }
            }
            elements += 1
            if stack.count >= limits.maxDepth || elements > limits.maxElements {
                overLimit = stack.count >= limits.maxDepth ? .tooDeep(limit: limits.maxDepth) : .tooManyElements(limit: limits.maxElements)
                parser.abortParsing()
                return
            }
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let element = XMLNode(namespace: namespaceURI ?? "", name: local, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            if overLimit == nil { _ = stack.popLast() }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if overLimit == nil { stack.last?.text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { stack.last?.text += String(decoding: CDATABlock, as: UTF8.self) }
    }
}
