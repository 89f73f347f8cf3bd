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

    private var ring: [Line] = []
    private var next = 0

    var count: Int { ring.count }

    mutating func add(_ raw: String, at time: Date) {
        let (direction, text): (Direction, Substring) =
            if raw.hasPrefix("Send: ") { (.sent, raw.dropFirst(6)) } else if raw.hasPrefix("Recv: ") { (.received, raw.dropFirst(6)) } else {
                (.other, Substring(raw))
            }
        let line = Line(time: time, direction: direction, text: OneLine.flattened(String(text.prefix(Self.maxLineLength))))
        if ring.count < Self.capacity {
            ring.append(line)
        } else {
            ring[next] = line
            next = (next + 1) % Self.capacity
        }
    }

    /// The newest `count` lines, oldest first.
    func last(_ count: Int) -> [Line] {
        let ordered = ring.count < Self.capacity ? ring : Array(ring[next...] + ring[..<next])
        return Array(ordered.suffix(count))
    }
}

/// `octoprint.terminal`: a printer's last lines.
struct TerminalLines: ResultObject, CallResult {
    let printer: String
    let lines: [TerminalLog.Line]

    static let members = ResultMembers<Self>(.field("printer", \.printer), .field("lines", \.lines, "oldest first"))
}

extension OctoPrintService {
    func terminal(_ params: Params) async throws -> TerminalLines {
        let printer = try PrinterStore.resolve(try await printers(), params[OctoPrintParams.printer])
        guard let watch = await live.watch(for: printer.name) else {
            throw RPCError.notFound("the terminal of \(printer.name) (the live monitor is not watching it)", data: ["printer": .string(printer.name)])
        }
        return TerminalLines(printer: printer.name, lines: await watch.terminal.last(Int(params[OctoPrintParams.terminalLines])))
    }
}
