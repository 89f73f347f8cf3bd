import Foundation

/// A minimal reader for the messages we write: headers (unfolded) and MIME parts.
public struct ParsedMail {
    public var headers: [String: String] = [:]
    public var body: String = ""

    public init(_ raw: String) {
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n")
        let split = text.range(of: "\n\n")!
        let headerText = text[..<split.lowerBound].replacingOccurrences(of: "\n ", with: " ")
        for line in headerText.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[String(parts[0]).lowercased()] = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
        }
        body = String(text[split.upperBound...])
    }

    /// Decodes RFC 2047 `=?UTF-8?B?…?=` words.
    public static func decodeWords(_ value: String) -> String {
        let words = value.split(separator: " ")
        if words.allSatisfy({ $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") }) {
            return words.map { w -> String in
                let b64 = w.dropFirst(10).dropLast(2)
                return String(decoding: Data(base64Encoded: String(b64))!, as: UTF8.self)
            }.joined()
        }
        return value
    }

    public var subject: String { Self.decodeWords(headers["subject"] ?? "") }

    /// The base64 payloads of each MIME part, keyed by content type (first one wins).
    public var parts: [(type: String, disposition: String?, payload: Data)] {
        guard let contentType = headers["content-type"], let b = contentType.range(of: "boundary=\"") else {
            let data = Data(base64Encoded: body.replacingOccurrences(of: "\n", with: "")) ?? Data(body.utf8)
            return [(headers["content-type"] ?? "", nil, data)]
        }
        let boundary = String(contentType[b.upperBound...].prefix { $0 != "\"" })
        return body.components(separatedBy: "--\(boundary)").dropFirst().compactMap { chunk in
            let chunk = String(chunk.drop { $0 == "\n" })
            guard !chunk.hasPrefix("--"), let split = chunk.range(of: "\n\n") else { return nil }
            let part = ParsedMail(chunk[..<split.lowerBound] + "\n\n")
            let payload = Data(base64Encoded: chunk[split.upperBound...].replacingOccurrences(of: "\n", with: "")) ?? Data()
            return (part.headers["content-type"] ?? "", part.headers["content-disposition"], payload)
        }
    }
}
