import Foundation

public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case debug, info, warning, error, critical

    private var rank: Int { Severity.allCases.firstIndex(of: self)! }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

public struct NoticeAttachment: Sendable, Hashable, StoredResultObject {
    public var name = ""
    public var contentType = ""
    public var size = 0

    public init(name: String, contentType: String, size: Int) {
        self.name = name
        self.contentType = contentType
        self.size = size
    }

    public init() {}

    public static let members = ResultMembers<Self>(.field("name", \.name), .field("content_type", \.contentType), .field("size", \.size))
}

extension Severity: ResultDescribing {}

/// A notice as it appears on the wire, in `notifications.list`, and in the stdout JSON format.
/// Every notice has the same keys (`dedupe_key` is null when it has none); `link` is there only
/// when the notice points somewhere.
public struct Notice: Sendable, Hashable, StoredResultObject {
    public var id = ""
    public var topic = ""
    public var plugin = ""
    public var title = ""
    public var body = ""
    public var severity = Severity.info
    /// ISO 8601 UTC.
    public var time = ""
    public var dedupeKey: String?
    public var attachments: [NoticeAttachment] = []
    /// Where the notice points (a printer's page, an exam term in the study system), if anywhere:
    /// a phone opens it on a tap.
    public var link: String?

    public init(
        id: String, topic: String, plugin: String, title: String, body: String, severity: Severity,
        time: String, dedupeKey: String?, attachments: [NoticeAttachment], link: String? = nil
    ) {
        self.link = link
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

    public init() {}

    public static let members = ResultMembers<Self>(
        .field("id", \.id), .field("topic", \.topic), .field("plugin", \.plugin), .field("title", \.title), .field("body", \.body),
        .field("severity", \.severity), .field("time", \.time, .dateTime), .field("dedupe_key", \.dedupeKey),
        .field("attachments", \.attachments),
        .omittedWhenNil("link", \.link, "where the notice points (a printer's page, an exam term)"))
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
    /// `YYYY-MM-DDTHH:MM:SSZ`, as `Date.ISO8601FormatStyle()` writes it (seconds rounded down).
    /// Written here for the years 1583–9999 because Foundation's style took 2.4 µs a date, and a
    /// list of 500 tasks writes 1 000 of them; outside those years (Foundation switches to the
    /// Julian calendar before 1582) Foundation writes it.
    public static func string(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        guard t >= -12_212_553_600, t < 253_402_300_800 else { return date.formatted(Date.ISO8601FormatStyle()) }
        let seconds = Int64(t.rounded(.down))
        var days = seconds / 86_400
        var secondOfDay = Int(seconds % 86_400)
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDate.civil(days: Int(days))
        return String(unsafeUninitializedCapacity: 20) { buffer in
            func put(_ value: Int, _ digits: Int, at offset: Int) {
                var v = value
                for i in stride(from: offset + digits - 1, through: offset, by: -1) {
                    buffer[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
                    v /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = 45
            put(month, 2, at: 5)
            buffer[7] = 45
            put(day, 2, at: 8)
            buffer[10] = 84
            put(secondOfDay / 3_600, 2, at: 11)
            buffer[13] = 58
            put(secondOfDay / 60 % 60, 2, at: 14)
            buffer[16] = 58
            put(secondOfDay % 60, 2, at: 17)
            buffer[19] = 90
            return 20
        }
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
