import Foundation

public struct OutgoingAttachment: Sendable, Hashable {
    public var name: String
    public var contentType: String
    public var data: Data

    public init(name: String, contentType: String, data: Data) {
        self.name = name
        self.contentType = contentType
        self.data = data
    }

    /// Reads a file now, so a retry later does not depend on the file still being there.
    public static func file(atPath path: String, contentType: String? = nil) throws -> OutgoingAttachment {
        let data: Data
        do throws(SafeFile.Failure) { data = try SafeFile.read(path, limit: SafeFile.Limit.attachment) } catch {
            throw RPCError.invalidParam("attachments", "'\(path)' \(error.problem)")
        }
        let name = (path as NSString).lastPathComponent
        return OutgoingAttachment(name: name, contentType: contentType ?? MIMEType.guess(fileName: name), data: data)
    }
}

public struct NoticeDraft: Sendable {
    public var topic: String
    public var plugin: String
    public var title: String
    public var body: String
    public var severity: Severity
    public var dedupeKey: String?
    public var attachments: [OutgoingAttachment]
    /// Mail this address directly, outside the topic routing.
    public var directRecipient: String?
    /// With a direct recipient: addresses the mail goes to in Bcc, none of them seen by the others.
    public var blindCopies: [String] = []
    /// The sinks the user chose for this one notice (a task's reminder channels), outside the
    /// topic routing and its minimum severity; nil = routed as usual.
    public var channels: Set<NoticeChannel>?
    /// Where the notice points (see `Notice.link`).
    public var link: String?

    public init(
        topic: String, plugin: String, title: String, body: String, severity: Severity = .info, dedupeKey: String? = nil,
        attachments: [OutgoingAttachment] = [], directRecipient: String? = nil, channels: Set<NoticeChannel>? = nil, link: String? = nil
    ) {
        self.link = link
        self.channels = channels
        self.topic = topic
        self.plugin = plugin
        self.title = title
        self.body = body
        self.severity = severity
        self.dedupeKey = dedupeKey
        self.attachments = attachments
        self.directRecipient = directRecipient
    }
}

/// A kind of sink a notice can be sent to on purpose.
public enum NoticeChannel: String, Sendable, Hashable, CaseIterable {
    case stdout, mail
}

enum MIMEType {
    static func guess(fileName: String) -> String {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "pdf": "application/pdf"
        case "txt", "log": "text/plain"
        case "csv": "text/csv"
        case "json": "application/json"
        case "ics": "text/calendar"
        case "gcode": "text/x.gcode"
        default: "application/octet-stream"
        }
    }
}
