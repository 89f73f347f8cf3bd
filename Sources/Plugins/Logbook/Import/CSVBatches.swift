import Foundation
import PluginKit

/// A logbook file read as batches of whole CSV records, about a megabyte each, so that an import
/// holds one batch and never the file (a 1 000 000-row file once took the daemon to 1.3 GB). Each
/// batch is parsed by the CSV library as it always was; this only finds where records end (a line
/// break outside quotes), which the library cannot tell from a stream it does not own.
final class CSVBatches {
    /// A batch is cut at the first record end past this size.
    static let batchSize = 1 << 20
    /// One record (a row with its quoted line breaks) longer than this is refused.
    static let maxRecord = 16 << 20

    enum Encoding { case utf8, latin1 }

    private let chunks: SafeFile.Chunks
    private let encoding: Encoding
    private let batchSize: Int
    private var pending: [UInt8] = []
    private var scanned = 0
    private var inQuotes = false
    private var lastRecordEnd: Int?
    private var atEnd = false
    private var atStart = true
    private var nextLine = 1

    init(_ chunks: SafeFile.Chunks, encoding: Encoding, batchSize: Int = CSVBatches.batchSize) {
        self.chunks = chunks
        self.encoding = encoding
        self.batchSize = batchSize
    }

    var bytesRead: Int { chunks.bytesRead }

    /// The next batch of whole records and the line number of its first, or nil at the end.
    func next() throws -> (text: String, firstLine: Int)? {
        while true {
            // The byte order mark, which a chunk's end may cut, goes before anything is scanned.
            if atStart && (pending.count >= 3 || atEnd) {
                atStart = false
                if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
            }
            if atStart {
                if let chunk = try readChunk() { pending += chunk } else { atEnd = true }
                continue
            }
            pending.withUnsafeBufferPointer { bytes in
                for i in scanned..<bytes.count {
                    if bytes[i] == 0x22 {
                        inQuotes.toggle()
                    } else if bytes[i] == 0x0A && !inQuotes {
                        lastRecordEnd = i + 1
                    }
                }
            }
            scanned = pending.count
            if atEnd { return pending.isEmpty ? nil : emit(upTo: pending.count) }
            if let end = lastRecordEnd, pending.count >= batchSize { return emit(upTo: end) }
            guard let chunk = try readChunk() else {
                atEnd = true
                continue
            }
            pending += chunk
            guard pending.count - (lastRecordEnd ?? 0) <= Self.maxRecord else {
                throw CSVBatchFailure(
                    reason:
                        "the record that begins on line \(nextLine + newlines(pending.prefix(lastRecordEnd ?? 0))) "
                        + "is longer than \(Self.maxRecord) bytes"
                )
            }
        }
    }

    private func readChunk() throws -> [UInt8]? {
        do throws(SafeFile.Failure) { return try chunks.next() } catch { throw CSVBatchFailure(reason: "it \(error.problem)") }
    }

    private func emit(upTo end: Int) -> (text: String, firstLine: Int) {
        let bytes = pending[..<end]
        let text =
            switch encoding {
            case .utf8: String(decoding: bytes, as: UTF8.self)
            case .latin1: String(bytes: Array(bytes), encoding: .isoLatin1) ?? ""
            }
        let first = nextLine
        nextLine += newlines(bytes)
        pending.removeFirst(end)
        scanned -= end
        lastRecordEnd = nil
        return (text, first)
    }

    private func newlines(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }

    /// How the file is encoded, from one pass over it: UTF-8, or Latin-1 for a file with no UTF-8
    /// in it at all (older Windows exports). A file that is UTF-8 except for some bytes is refused,
    /// naming the first bad line: read as Latin-1 it would come in with every accented name in it
    /// garbled, and silently. Leaves the file at its start.
    static func encoding(of chunks: SafeFile.Chunks) throws -> Encoding {
        var carry: [UInt8] = []
        var line = 1
        var sawMultibyte = false
        var firstBadLine: Int?
        while let chunk = try { () throws -> [UInt8]? in
            do throws(SafeFile.Failure) { return try chunks.next() } catch { throw CSVBatchFailure(reason: "it \(error.problem)") }
        }() {
            var bytes = carry + chunk
            // A character cut by the chunk's end is read with the next chunk.
            let cut = incompleteTail(bytes)
            carry = Array(bytes.suffix(cut))
            bytes.removeLast(cut)
            if String(validating: bytes, as: UTF8.self) != nil {
                if !sawMultibyte && bytes.contains(where: { $0 >= 0x80 }) { sawMultibyte = true }
                line += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                continue
            }
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    if scalar == "\n" { line += 1 }
                    if scalar.value >= 0x80 { sawMultibyte = true }
                case .error:
                    if firstBadLine == nil { firstBadLine = line }
                case .emptyInput:
                    break decoding
                }
            }
        }
        if !carry.isEmpty && firstBadLine == nil { firstBadLine = line }
        do throws(SafeFile.Failure) { try chunks.rewind() } catch { throw CSVBatchFailure(reason: "it \(error.problem)") }
        guard let firstBadLine else { return .utf8 }
        if sawMultibyte { throw CSVBatchFailure(reason: "line \(firstBadLine) is not valid UTF-8 (the rest of the file is); save the file as UTF-8") }
        return .latin1
    }

    /// How many bytes at the end begin a UTF-8 sequence that the bytes do not finish.
    private static func incompleteTail(_ bytes: [UInt8]) -> Int {
        var i = bytes.count - 1
        while i >= 0 && i >= bytes.count - 4 {
            let byte = bytes[i]
            if byte & 0xC0 != 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let have = bytes.count - i
                return have < length ? have : 0
            }
            i -= 1
        }
        return 0
    }
}

/// Why a logbook file cannot be read, in words for a message that names the file.
struct CSVBatchFailure: Error, Sendable { var reason: String }
