import Foundation

public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case debug, info, warning, error, critical

    private var rank: Int { Severity.allCases.firstIndex(of: self)! }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

public struct NoticeAttachment: Sendable, Codable, Hashable {
    public var name: String
    public var contentType: String
    public var size: Int

    public init(name: String, contentType: String, size: Int) {
        self.name = name
        self.contentType = contentType
        self.size = size
    }

    enum CodingKeys: String, CodingKey {
        case name
        case contentType = "content_type"
        case size
    }
}

/// A notice as it appears on the wire, in `notifications.list`, and in the stdout JSON format.
public struct Notice: Sendable, Codable, Hashable {
    public var id: String
    public var topic: String
    public var plugin: String
    public var title: String
    public var body: String
    public var severity: Severity
    /// ISO 8601 UTC.
    public var time: String
    public var dedupeKey: String?
    public var attachments: [NoticeAttachment]

    public init(
        id: String, topic: String, plugin: String, title: String, body: String, severity: Severity,
        time: String, dedupeKey: String?, attachments: [NoticeAttachment]
    ) {
        self.id = id
        self.topic = topic
        self.plugin = plugin
        self.title = title
        self.body = body
        self.severity = severity
        self.time = time
        self.dedupeKey = dedupeKey
        self.attachments = attachments
    }

    enum CodingKeys: String, CodingKey {
        case id, topic, plugin, title, body, severity, time
        case dedupeKey = "dedupe_key"
        case attachments
    }

    // Always write dedupe_key (null when absent) so every notice has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(topic, forKey: .topic)
        try c.encode(plugin, forKey: .plugin)
        try c.encode(title, forKey: .title)
        try c.encode(body, forKey: .body)
        try c.encode(severity, forKey: .severity)
        try c.encode(time, forKey: .time)
        try c.encode(dedupeKey, forKey: .dedupeKey)
        try c.encode(attachments, forKey: .attachments)
    }
}

/// Topic patterns match exactly or by a trailing `*` (`octoprint.print.*`, `octoprint.*`, `*`).
public struct TopicPattern: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }

    public func matches(_ topic: String) -> Bool {
        if text.hasSuffix("*") { return topic.hasPrefix(text.dropLast()) }
        return topic == text
    }

    public var description: String { text }

    /// Empty means "everything".
    public static func anyMatches(_ patterns: [TopicPattern], _ topic: String) -> Bool {
        patterns.isEmpty || patterns.contains { $0.matches(topic) }
    }
}

public enum ISO8601 {
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    public static func date(_ text: String) -> Date? {
        if let d = try? Date(text, strategy: .iso8601) { return d }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

extension Notice {
    /// The one-line text form used by the stdout sink and `assistantctl watch` on a terminal.
    public var textLine: String {
        var line = "\(time) \(severity.rawValue.uppercased()) [\(topic)] \(title)"
        let flatBody = body.split(whereSeparator: \.isNewline).joined(separator: " / ")
        if !flatBody.isEmpty { line += ": \(flatBody)" }
        if !attachments.isEmpty { line += " (attachments: \(attachments.map(\.name).joined(separator: ", ")))" }
        return line
    }
}
