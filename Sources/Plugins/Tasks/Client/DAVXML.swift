import Foundation
import PluginKit

/// A WebDAV answer is the kit's `XMLNode` tree (Foundation's XML parser, namespaces on): elements
/// are matched by namespace and local name, so `<D:href>`, `<href xmlns="DAV:">` and
/// `<x:href xmlns:x="DAV:">` are the same thing. Every lookup names its namespace.
typealias DAVElement = XMLNode

extension XMLNode {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"
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
        for r in root.children("response", DAVElement.dav) {
            guard let href = r.first("href", DAVElement.dav)?.trimmedText else { continue }
            var response = DAVResponse(href: href)
            if let status = r.first("status", DAVElement.dav) { response.status = statusCode(status.trimmedText) }
            for propstat in r.children("propstat", DAVElement.dav) {
                let code = propstat.first("status", DAVElement.dav).flatMap { statusCode($0.trimmedText) } ?? 200
                guard (200..<300).contains(code), let prop = propstat.first("prop", DAVElement.dav) else { continue }
                for p in prop.children { response.properties["\(p.namespace)|\(p.name)"] = p }
            }
            responses.append(response)
        }
        return (responses, root.first("sync-token", DAVElement.dav)?.trimmedText)
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
