import Foundation

/// An RFC 5322 message with MIME (RFC 2045–2049): UTF-8 headers as RFC 2047 encoded words,
/// base64 bodies, attachments as multipart/mixed. Hand-written: none of the project's libraries
/// composes mail, and the format needs only this much.
struct MailMessage {
    var from: String
    var fromName: String = "assistantd"
    var to: [String]
    var subject: String
    var body: String
    var attachments: [OutgoingAttachment] = []
    var date: Date
    var extraHeaders: [(String, String)] = []
    var messageIDDomain: String = "assistantd.localhost"

    func render() -> Data {
        // Every value from outside is flattened to one line (OneLine): a line break in a subject,
        // an address or a file name would otherwise start a header of its own.
        var headers: [(String, String)] = [
            ("From", "\(Self.encodeWord(fromName)) <\(from)>"),
            ("To", to.map(OneLine.flattened).joined(separator: ", ")),
            ("Subject", Self.encodeWord(subject)),
            ("Date", Self.rfc5322Date(date)),
            ("Message-ID", "<\(UUID().uuidString.lowercased())@\(messageIDDomain)>"),
            ("MIME-Version", "1.0"),
            // RFC 3834: tells auto-responders and mailing lists not to answer.
            ("Auto-Submitted", "auto-generated"),
        ]
        headers.append(contentsOf: extraHeaders.map { ($0.0, Self.encodeWord(OneLine.flattened($0.1))) })

        var out = ""
        if attachments.isEmpty {
            headers.append(contentsOf: Self.textPartHeaders(body))
            for (name, value) in headers { out += "\(name): \(value)\r\n" }
            out += "\r\n" + Self.textPartBody(body)
        } else {
            let boundary = "=_assistantd_\(UUID().uuidString)"
            headers.append(("Content-Type", "multipart/mixed; boundary=\"\(boundary)\""))
            for (name, value) in headers { out += "\(name): \(value)\r\n" }
            out += "\r\nThis is a multi-part message in MIME format.\r\n"
            out += "--\(boundary)\r\n"
            for (name, value) in Self.textPartHeaders(body) { out += "\(name): \(value)\r\n" }
            out += "\r\n" + Self.textPartBody(body)
            for attachment in attachments {
                let fileName = OneLine.flattened(attachment.name).replacingOccurrences(of: "\"", with: "'")
                let encodedName = fileName.allSatisfy(\.isASCII) ? "filename=\"\(fileName)\"" : "filename*=UTF-8''\(Self.percentEncode(fileName))"
                out += "--\(boundary)\r\n"
                out += "Content-Type: \(OneLine.flattened(attachment.contentType))\r\n"
                out += "Content-Transfer-Encoding: base64\r\n"
                out += "Content-Disposition: attachment; \(encodedName)\r\n\r\n"
                out += Self.base64Lines(attachment.data)
            }
            out += "--\(boundary)--\r\n"
        }
        return Data(out.utf8)
    }

    static func textPartHeaders(_ body: String) -> [(String, String)] {
        [("Content-Type", "text/plain; charset=utf-8"), ("Content-Transfer-Encoding", "base64")]
    }

    static func textPartBody(_ body: String) -> String {
        let normalised = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        return base64Lines(Data(normalised.utf8))
    }

    static func base64Lines(_ data: Data) -> String {
        let encoded = data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        return encoded.isEmpty ? "\r\n" : encoded + "\r\n"
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words of at most 75 characters, split on character boundaries.
    static func encodeWord(_ raw: String) -> String {
        let text = OneLine.flattened(raw)
        if text.allSatisfy({ $0.isASCII && !$0.isNewline }) && !text.contains("=?") { return text }
        var words: [String] = []
        var chunk = ""
        // 75 - len("=?UTF-8?B?") - len("?=") = 63 base64 characters = 45 bytes of UTF-8.
        for character in text {
            if (chunk + String(character)).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    static func percentEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? "attachment"
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
