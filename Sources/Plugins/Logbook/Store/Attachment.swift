import Crypto
import Foundation
import PluginKit

/// A scan or photo kept with a flight, an FSTD session or a certificate: a medical, a signed page.
/// Stored in the database, so a backup of the logbook holds them too.
struct Attachment: Sendable {
    var id: Int64
    var record: RecordReference
    var name: String
    var mediaType: MediaType
    var bytes: Int
    var sha256: String
    var addedAt: String

    static let largestBytes = 20 << 20

    /// The columns every listing reads: everything but the content.
    static let columns = "id, entry_id, certificate_id, name, media_type, bytes, sha256, added_at"

    init(row: Row) {
        id = row["id"]
        record = (row["entry_id"] as Int64?).map(RecordReference.entry) ?? .certificate(row["certificate_id"])
        name = row["name"]
        mediaType = MediaType(rawValue: row["media_type"]) ?? .pdf
        bytes = row["bytes"]
        sha256 = row["sha256"]
        addedAt = row["added_at"]
    }

    enum MediaType: String, Sendable, CaseIterable, Encodable, ResultDescribing {
        case jpeg = "image/jpeg"
        case png = "image/png"
        case pdf = "application/pdf"

        var isImage: Bool { self != .pdf }
    }

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE logbook_attachments (
                    id INTEGER PRIMARY KEY,
                    entry_id INTEGER REFERENCES logbook_entries(id) ON DELETE CASCADE,
                    certificate_id INTEGER REFERENCES logbook_certificates(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    media_type TEXT NOT NULL CHECK (media_type IN (\(MediaType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")))),
                    bytes INTEGER NOT NULL, sha256 TEXT NOT NULL, added_at TEXT NOT NULL,
                    content BLOB NOT NULL,
                    CHECK ((entry_id IS NULL) != (certificate_id IS NULL))
                );
                CREATE INDEX logbook_attachments_entry ON logbook_attachments(entry_id) WHERE entry_id IS NOT NULL;
                CREATE INDEX logbook_attachments_certificate ON logbook_attachments(certificate_id) WHERE certificate_id IS NOT NULL;
                """)
    }

    static func digest(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }
}

/// What an attachment belongs to: `12` or `flight:12` (a flight or an FSTD session, as
/// `logbook.flights.list` shows it), `fstd:12`, or `certificate:3`.
enum RecordReference: Sendable, Equatable, CustomStringConvertible {
    case entry(Int64)
    case certificate(Int64)

    init(_ text: String, param: String) throws(RPCError) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = t.split(separator: ":", maxSplits: 1).map(String.init)
        let (kind, number) = parts.count == 2 ? (parts[0], parts[1]) : ("flight", t)
        guard let id = Int64(number), id > 0, number.count <= 18 else {
            throw RPCError.invalidParam(param, "'\(text)' is not a record: give a flight's id (12), fstd:12 or certificate:3")
        }
        switch kind {
        case "flight", "fstd", "entry": self = .entry(id)
        case "certificate": self = .certificate(id)
        default: throw RPCError.invalidParam(param, "'\(text)' is not a record: give a flight's id (12), fstd:12 or certificate:3")
        }
    }

    var description: String {
        switch self {
        case .entry(let id): "\(id)"
        case .certificate(let id): "certificate:\(id)"
        }
    }

    /// The record exists (a deleted flight takes no new attachment).
    func check(_ db: Database, param: String) throws {
        let exists: Bool
        switch self {
        case .entry(let id):
            exists =
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM logbook_entries WHERE id = ? AND deleted_at IS NULL)", arguments: [id])
                ?? false
        case .certificate(let id):
            exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM logbook_certificates WHERE id = ?)", arguments: [id]) ?? false
        }
        if !exists { throw RPCError.notFound(self.label) }
    }

    var label: String {
        switch self {
        case .entry(let id): "logbook entry \(id)"
        case .certificate(let id): "certificate \(id)"
        }
    }
}

/// What a file is, told by its content, never by its name: a JPEG, PNG or PDF whole from its first
/// bytes to its last, or nothing. Only the signatures are read; the picture is not decoded here.
enum AttachmentContent {
    static func mediaType(of bytes: [UInt8]) -> Attachment.MediaType? {
        if isPNG(bytes) { return .png }
        if isJPEG(bytes) { return .jpeg }
        if isPDF(bytes) { return .pdf }
        return nil
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The signature, the header chunk first, and the end chunk last.
    static func isPNG(_ b: [UInt8]) -> Bool {
        b.count >= 57 && Array(b.prefix(8)) == pngSignature && Array(b[12..<16]) == Array("IHDR".utf8)
            && Array(b.suffix(8).prefix(4)) == Array("IEND".utf8)
    }

    /// Start of image, a marker segment after it, and end of image last (trailing padding allowed).
    static func isJPEG(_ b: [UInt8]) -> Bool {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF else { return false }
        let end = b.lastIndex { $0 != 0 && $0 != 0x0A && $0 != 0x0D } ?? 0
        return end >= 1 && b[end - 1] == 0xFF && b[end] == 0xD9
    }

    /// `%PDF-1.x` first, `%%EOF` in the last kilobyte.
    static func isPDF(_ b: [UInt8]) -> Bool {
        guard b.count >= 16, Array(b.prefix(5)) == Array("%PDF-".utf8), b[5].isASCIIDigit, b[6] == UInt8(ascii: "."), b[7].isASCIIDigit
        else { return false }
        let tail = b.suffix(1024)
        let marker = Array("%%EOF".utf8)
        return tail.indices.contains { i in i + marker.count <= tail.endIndex && Array(tail[i..<(i + marker.count)]) == marker }
    }

    /// Cairo's largest side: a picture wider or taller is not drawn, and the bound keeps the
    /// product of the two far from overflowing.
    static let largestSide = 32_767

    /// A PNG's size from its header, or a JPEG's from its first frame header (read by hand: no
    /// library here reads a JPEG's header, and Cairo embeds a JPEG without decoding it, which
    /// needs its size); nil when unreadable, zero or over `largestSide`.
    static func pixelSize(_ b: [UInt8], _ type: Attachment.MediaType) -> (width: Int, height: Int)? {
        guard let size = headerSize(b, type), (1...largestSide).contains(size.width), (1...largestSide).contains(size.height) else { return nil }
        return size
    }

    private static func headerSize(_ b: [UInt8], _ type: Attachment.MediaType) -> (width: Int, height: Int)? {
        switch type {
        case .png:
            guard b.count >= 24 else { return nil }
            func be32(_ at: Int) -> Int { b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            return (be32(16), be32(20))
        case .jpeg:
            // Segments from after SOI: each marker FFxx with a 2-byte length, until a start of frame.
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF {
                    i += 1
                    continue
                }
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    let h = Int(b[i + 5]) << 8 | Int(b[i + 6])
                    let w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                    return (w, h)
                }
                guard length >= 2 else { return nil }
                i += 2 + length
            }
            return nil
        case .pdf: return nil
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}
