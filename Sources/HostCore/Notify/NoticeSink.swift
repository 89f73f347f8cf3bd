import Foundation

/// Somewhere notices go. A sink that throws is retried later from the persisted outbox.
public protocol NoticeSink: Sendable {
    var name: String { get }
    /// `blindCopies` go with a direct recipient only: in the envelope, never in a header.
    func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws
}

/// Which notices a sink takes: topic patterns (empty = all) and a minimum severity.
public struct NoticeRoute: Sendable, Equatable {
    public var topics: [TopicPattern]
    public var minimumSeverity: Severity

    public init(topics: [TopicPattern] = [], minimumSeverity: Severity = .debug) {
        self.topics = topics
        self.minimumSeverity = minimumSeverity
    }

    public func accepts(topic: String, severity: Severity) -> Bool {
        severity >= minimumSeverity && TopicPattern.anyMatches(topics, topic)
    }
}

public struct RoutedSink: Sendable {
    public var sink: any NoticeSink
    public var route: NoticeRoute
    /// Whether this sink can take direct mail (`notifications.send {to}`).
    public var isMail: Bool

    public init(sink: any NoticeSink, route: NoticeRoute, isMail: Bool = false) {
        self.sink = sink
        self.route = route
        self.isMail = isMail
    }
}

/// One line per notice on stdout: readable text, or the wire JSON object per line.
public struct StdoutSink: NoticeSink {
    public enum Format: String, Sendable { case text, json }
    public let name = "stdout"
    let format: Format
    let write: @Sendable (String) -> Void

    public init(format: Format, write: @escaping @Sendable (String) -> Void = StdoutSink.standardOutput) {
        self.format = format
        self.write = write
    }

    public static let standardOutput: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    public func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws {
        write(Self.render(notice, format: format))
    }

    public static func render(_ notice: Notice, format: Format) -> String {
        switch format {
        case .json:
            return (try? JSONValue(encoding: notice).encodedString()) ?? "{}"
        case .text:
            return notice.textLine
        }
    }
}
