import DequeModule
import Foundation
import PluginKit

/// The printer's serial log as the push connection reports it (`current.logs`: "Send: N5 M105*…",
/// "Recv: ok T:21.3 /0.0 …"): the last `capacity` lines, what diagnosing a printer needs.
struct TerminalLog: Sendable {
    enum Direction: String, Sendable, CaseIterable, Codable, ResultDescribing {
        case sent, received, other
    }

    struct Line: Sendable, Equatable, ResultObject {
        var time: Date
        var direction: Direction
        var text: String

        static let members = ResultMembers<Self>(
            .instant("time", \.time, "when the line reached the assistant"), .field("direction", \.direction),
            .field("text", \.text, "the line without its Send:/Recv: prefix"))
    }

    static let capacity = 1_000
    /// A line longer than this is cut: a printer's answers are short, a flood is not kept whole.
    static let maxLineLength = 512
    /// A push message carries at most this many lines here (OctoPrint batches them every half second).
    static let linesPerMessage = 200

    private var kept = Deque<Line>()
    /// How many lines were ever added: a mark to ask for what came after it.
    private(set) var added = 0

    var count: Int { kept.count }

    mutating func add(_ raw: String, at time: Date) {
        let (direction, text): (Direction, Substring) =
            if raw.hasPrefix("Send: ") { (.sent, raw.dropFirst(6)) } else if raw.hasPrefix("Recv: ") { (.received, raw.dropFirst(6)) } else {
                (.other, Substring(raw))
            }
        let line = Line(time: time, direction: direction, text: OneLine.flattened(String(text.prefix(Self.maxLineLength))))
        added += 1
        if kept.count == Self.capacity { kept.removeFirst() }
        kept.append(line)
    }

    /// The lines added after the mark `added` was at (those still kept), oldest first.
    func since(_ mark: Int) -> [Line] { last(max(0, min(added - mark, kept.count))) }

    /// The newest `count` lines, oldest first.
    func last(_ count: Int) -> [Line] { Array(kept.suffix(count)) }
}
