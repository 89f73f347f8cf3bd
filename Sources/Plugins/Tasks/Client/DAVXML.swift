import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A WebDAV answer as a small element tree, built by Foundation's XML parser with namespaces on
/// (never regular expressions over XML): elements are matched by namespace and local name, so
/// `<D:href>`, `<href xmlns="DAV:">` and `<x:href xmlns:x="DAV:">` are the same thing.
final class DAVElement: @unchecked Sendable {
    let namespace: String
    let name: String
    let attributes: [String: String]
    var children: [DAVElement] = []
    var text = ""

    init(namespace: String, name: String, attributes: [String: String]) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
    }

    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

    func children(_ name: String, _ namespace: String = DAVElement.dav) -> [DAVElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    func first(_ name: String, _ namespace: String = DAVElement.dav) -> DAVElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Depth-first search.
    func find(_ name: String, _ namespace: String = DAVElement.dav) -> DAVElement? {
        if self.name == name && self.namespace == namespace { return self }
        for c in children { if let hit = c.find(name, namespace) { return hit } }
        return nil
    }

    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    static func parse(_ data: Data) -> DAVElement? {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        // Foundation's parser on Linux can report success for a document cut off mid-element.
        guard parser.parse(), builder.stack.isEmpty else { return nil }
        return builder.root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: DAVElement?
        var stack: [DAVElement] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes attributeDict: [String: String] = [:]) {
            let element = DAVElement(namespace: namespaceURI ?? "", name: elementName, attributes: attributeDict)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }
    }
}

/// One `<response>` of a multistatus: its href, the properties that came back 200, and a status.
struct DAVResponse: Sendable {
    var href: String
    var status: Int?
    var properties: [String: DAVElement] = [:]

    func property(_ name: String, _ namespace: String = DAVElement.dav) -> DAVElement? { properties["\(namespace)|\(name)"] }
    func text(_ name: String, _ namespace: String = DAVElement.dav) -> String? { property(name, namespace)?.trimmedText }

    static func statusCode(_ line: String) -> Int? {
        // "HTTP/1.1 404 Not Found"
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    static func multistatus(_ root: DAVElement) -> (responses: [DAVResponse], syncToken: String?) {
        var responses: [DAVResponse] = []
        for r in root.children("response") {
            guard let href = r.first("href")?.trimmedText else { continue }
            var response = DAVResponse(href: href)
            if let status = r.first("status") { response.status = statusCode(status.trimmedText) }
            for propstat in r.children("propstat") {
                let code = propstat.first("status").flatMap { statusCode($0.trimmedText) } ?? 200
                guard (200..<300).contains(code), let prop = propstat.first("prop") else { continue }
                for p in prop.children { response.properties["\(p.namespace)|\(p.name)"] = p }
            }
            responses.append(response)
        }
        return (responses, root.first("sync-token")?.trimmedText)
    }
}

enum DAVBody {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static let discovery = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
        <d:prop><d:resourcetype/><d:displayname/><d:current-user-principal/><c:calendar-home-set/>
        <c:supported-calendar-component-set/><d:sync-token/><cs:getctag/></d:prop></d:propfind>
        """

    static let etags = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>
        """

    static func syncCollection(token: String?) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escape(token ?? ""))</d:sync-token><d:sync-level>1</d:sync-level>
        <d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    static func multiget(_ hrefs: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>
        \(hrefs.map { "<d:href>\(escape($0))</d:href>" }.joined())</c:calendar-multiget>
        """
    }
}
