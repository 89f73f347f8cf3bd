import Foundation
import PluginKit

/// What bounds reading a calendar, and why one could not be read at all.
enum CalendarLimits {
    /// The longest unfolded line accepted: far above any real property (a 10 MB attachment
    /// inline is 14 MB in base64), well below the memory the daemon may take.
    static let lineLength = 32 << 20
    /// Components nest in a task or event (VALARM); deeper is refused, since libical frees a
    /// component tree recursively.
    static let nesting = 8
    /// Components nested anywhere in the file: deeper is refused for the whole file.
    static let outerNesting = 16
    /// Content lines in one task or event (properties, alarms).
    static let lines = 100_000

    static let notCalendar = "it is not an iCalendar file (no BEGIN:VCALENDAR)"
    static let orphan = "an overridden instance (RECURRENCE-ID) without its series"
}

/// Why a calendar cannot be read at all, in words for a message that names the file or server.
struct CalendarReadFailure: Error, Sendable { var reason: String }

/// The bytes of a calendar, a chunk at a time, and back to the start for a second pass.
protocol CalendarBytes {
    mutating func nextChunk() throws -> [UInt8]?
    mutating func rewind() throws
}

/// A calendar already in memory (a feed's or a CalDAV server's answer).
struct CalendarText: CalendarBytes {
    private let bytes: [UInt8]
    private var given = false

    init(_ text: String) { bytes = Array(text.utf8) }

    mutating func nextChunk() -> [UInt8]? {
        defer { given = true }
        return given ? nil : bytes
    }

    mutating func rewind() { given = false }
}

/// A calendar file, read a megabyte at a time.
struct CalendarFile: CalendarBytes {
    let chunks: SafeFile.Chunks

    func nextChunk() throws -> [UInt8]? {
        do throws(SafeFile.Failure) { return try chunks.next() } catch { throw CalendarReadFailure(reason: error.problem) }
    }

    func rewind() throws {
        do throws(SafeFile.Failure) { try chunks.rewind() } catch { throw CalendarReadFailure(reason: error.problem) }
    }
}

/// RFC 5545 content lines (section 3.1), unfolded, without their line ends, each with the number
/// of its first line in the file. Hand-written because libical reads a string by scanning the rest
/// of the current line for each 80-byte piece it takes, which is quadratic: one 10 MB line took
/// 8 s. This is linear, and holds one chunk and one line, never the file.
struct ContentLines<Source: CalendarBytes> {
    private(set) var source: Source
    private var chunk: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var pending: [UInt8]?
    private var pendingLine = 0
    private var physicalLine = 0

    init(_ source: Source) { self.source = source }

    /// The next unfolded line and the number of its first physical line, or nil at the end.
    mutating func next() throws -> (bytes: [UInt8], line: Int)? {
        while let physical = try nextPhysical() {
            physicalLine += 1
            if let first = physical.first, first == 0x20 || first == 0x09, pending != nil {
                guard pending!.count + physical.count <= CalendarLimits.lineLength else { throw tooLong(pendingLine) }
                pending?.append(contentsOf: physical.dropFirst())
                continue
            }
            if physical.isEmpty { continue }
            let previous = pending.map { ($0, pendingLine) }
            pending = physical
            pendingLine = physicalLine
            if let previous { return previous }
        }
        defer { pending = nil }
        return pending.map { ($0, pendingLine) }
    }

    /// Back to the first line, for a second pass over the same source.
    mutating func rewind() throws {
        try source.rewind()
        self = ContentLines(source)
    }

    private func tooLong(_ line: Int) -> CalendarReadFailure {
        CalendarReadFailure(reason: "line \(line) is longer than the limit of \(CalendarLimits.lineLength) bytes")
    }

    /// The next physical line without its CR LF (or LF), or nil at the end.
    private mutating func nextPhysical() throws -> [UInt8]? {
        var line: [UInt8]?
        while true {
            if position >= chunk.count {
                guard !atEnd, let next = try source.nextChunk() else {
                    atEnd = true
                    chunk = []
                    position = 0
                    return line.map(withoutCR)
                }
                chunk = next
                position = 0
            }
            let end = chunk[position...].firstIndex(of: 0x0A)
            let piece = chunk[position..<(end ?? chunk.count)]
            guard (line?.count ?? 0) + piece.count <= CalendarLimits.lineLength else { throw tooLong(physicalLine + 1) }
            if line == nil { line = Array(piece) } else { line?.append(contentsOf: piece) }
            if let end {
                position = end + 1
                return withoutCR(line ?? [])
            }
            position = chunk.count
        }
    }

}

private func withoutCR(_ line: [UInt8]) -> [UInt8] {
    var line = line
    if line.last == 0x0D { line.removeLast() }
    return line
}
