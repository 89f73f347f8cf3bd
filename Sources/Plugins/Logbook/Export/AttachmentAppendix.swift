import CCairo
import Foundation
import PluginKit
import Subprocess

/// The attachments a PDF report carries (`with_attachments`): the exported records' in their
/// order, then the certificates'. After the logbook's pages come a page listing them, each
/// picture on a page of its own with its caption, and then each PDF as it is.
struct AttachmentAppendix: Sendable {
    struct Item: Sendable {
        var number: Int
        var attachment: Attachment
        var content: [UInt8]
        /// "flight 12, 2026-03-01 LKPR → LKTB" or "certificate 3, Class 2 medical".
        var record: String

        var caption: String { "Attachment \(number): \(attachment.name) — \(record)" }
    }

    var items: [Item]

    /// A report carries at most this many, and this much in all: a mail or a file an examiner opens.
    static let largestCount = 100
    static let largestBytes = 100 << 20
    /// Pictures are drawn by Cairo, which decodes a PNG whole: a bound on its pixels is a bound on memory.
    static let largestPixels = 40_000_000

    /// What a report of `entries` carries: first what each attachment is (never its content), the
    /// bounds checked on that, then each one's content by id.
    static func load(_ db: Database, entries: [Entry], largestBytes: Int = largestBytes) throws -> AttachmentAppendix {
        var chosen: [(Attachment, record: String)] = []
        let ids = entries.compactMap(\.id)
        if !ids.isEmpty {
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT \(Attachment.columns) FROM logbook_attachments WHERE entry_id IN (SELECT value FROM json_each(?)) ORDER BY id",
                arguments: [JSONValue.array(ids.map(JSONValue.int)).encodedString()])
            let grouped = Dictionary(grouping: rows) { $0["entry_id"] as Int64 }
            for e in entries {
                guard let id = e.id else { continue }
                let what =
                    e.kind == .fstd
                    ? "FSTD session \(id), \(e.date) \(e.fstdType ?? "")" : "flight \(id), \(e.date) \(e.dep ?? "") → \(e.arr ?? "")"
                chosen += (grouped[id] ?? []).map { (Attachment(row: $0), what) }
            }
        }
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT a.\(Attachment.columns.replacingOccurrences(of: ", ", with: ", a.")), c.name AS certificate_name
                FROM logbook_attachments a JOIN logbook_certificates c ON c.id = a.certificate_id ORDER BY c.id, a.id
                """)
        {
            chosen.append((Attachment(row: row), "certificate \(row["certificate_id"] as Int64), \(row["certificate_name"] as String)"))
        }
        let total = chosen.reduce(0) { $0 + $1.0.bytes }
        guard chosen.count <= largestCount, total <= largestBytes else {
            throw LogbookParams.withAttachments.invalid(
                "would carry \(chosen.count) attachments of \(total >> 20) MB; this report carries at most \(largestCount) and "
                    + "\(largestBytes >> 20) MB: choose fewer records (ids, from_date, to_date)")
        }
        var items: [Item] = []
        for (attachment, record) in chosen {
            guard let content = try Data.fetchOne(db, sql: "SELECT content FROM logbook_attachments WHERE id = ?", arguments: [attachment.id])
            else { continue }
            items.append(Item(number: items.count + 1, attachment: attachment, content: [UInt8](content), record: record))
        }
        return AttachmentAppendix(items: items)
    }

    var pictures: [Item] { items.filter { $0.attachment.mediaType.isImage } }
    var documents: [Item] { items.filter { !$0.attachment.mediaType.isImage } }

    /// The list page, then a page per picture, on the logbook's own surface.
    func draw(_ cr: OpaquePointer, width: Double, height: Double, margin: Double) throws {
        guard !items.isEmpty else { return }
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_font_size(cr, 14)
        cairo_move_to(cr, margin, margin + 14)
        cairo_show_text(cr, "ATTACHMENTS")
        cairo_set_font_size(cr, 9)
        var y = margin + 40
        for item in items {
            let place = item.attachment.mediaType.isImage ? "on the pages that follow" : "after the pictures, as it is"
            cairo_move_to(cr, margin, y)
            cairo_show_text(cr, "\(item.caption) (\(item.attachment.mediaType.rawValue), \(item.attachment.bytes) bytes; \(place))")
            y += 13
            if y > height - margin {
                cairo_show_page(cr)
                y = margin + 14
            }
        }
        cairo_show_page(cr)
        for item in pictures {
            try drawPicture(item, cr, width: width, height: height, margin: margin)
            cairo_show_page(cr)
        }
    }

    private func drawPicture(_ item: Item, _ cr: OpaquePointer, width: Double, height: Double, margin: Double) throws {
        let type = item.attachment.mediaType
        guard let size = AttachmentContent.pixelSize(item.content, type), size.width * size.height <= Self.largestPixels else {
            throw LogbookError.pdf("attachment \(item.attachment.id)'s picture has no readable size, or more than 40 megapixels")
        }
        let image = try surface(item, size: size)
        defer { cairo_surface_destroy(image) }
        cairo_set_font_size(cr, 10)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_move_to(cr, margin, margin + 10)
        cairo_show_text(cr, item.caption)
        let (boxWidth, boxHeight) = (width - 2 * margin, height - 2 * margin - 20)
        let scale = min(boxWidth / Double(size.width), boxHeight / Double(size.height), 1)
        cairo_save(cr)
        cairo_translate(cr, margin + (boxWidth - Double(size.width) * scale) / 2, margin + 20)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// A PNG decoded by Cairo; a JPEG not decoded at all: Cairo's PDF surface embeds the JPEG's own
    /// bytes (its MIME data) in place of a surface of the same size, so a one-bit surface suffices.
    private func surface(_ item: Item, size: (width: Int, height: Int)) throws -> OpaquePointer {
        switch item.attachment.mediaType {
        case .png:
            var reader = PNGReader(bytes: item.content)
            let image = withUnsafeMutablePointer(to: &reader) { pointer in
                cairo_image_surface_create_from_png_stream(PNGReader.read, pointer)
            }
            guard let image, cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else {
                if let image { cairo_surface_destroy(image) }
                throw LogbookError.pdf("attachment \(item.attachment.id)'s PNG could not be read")
            }
            return image
        default:
            guard let image = cairo_image_surface_create(CAIRO_FORMAT_A1, Int32(size.width), Int32(size.height)),
                cairo_surface_status(image) == CAIRO_STATUS_SUCCESS
            else { throw LogbookError.pdf("no surface for attachment \(item.attachment.id)") }
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: item.content.count)
            copy.initialize(from: item.content, count: item.content.count)
            let status = cairo_surface_set_mime_data(
                image, CAIRO_MIME_TYPE_JPEG, copy, UInt(item.content.count), { $0?.assumingMemoryBound(to: UInt8.self).deallocate() }, copy)
            guard status == CAIRO_STATUS_SUCCESS else {
                copy.deallocate()
                cairo_surface_destroy(image)
                throw LogbookError.pdf("attachment \(item.attachment.id)'s JPEG could not be embedded")
            }
            return image
        }
    }

    /// Cairo reads a PNG through a callback; this hands it the stored bytes.
    private struct PNGReader {
        var bytes: [UInt8]
        var offset = 0

        static let read: cairo_read_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let reader = closure.assumingMemoryBound(to: PNGReader.self)
            let wanted = Int(length)
            guard reader.pointee.offset + wanted <= reader.pointee.bytes.count else { return CAIRO_STATUS_READ_ERROR }
            reader.pointee.bytes.withUnsafeBufferPointer { source in
                data.update(from: source.baseAddress! + reader.pointee.offset, count: wanted)
            }
            reader.pointee.offset += wanted
            return CAIRO_STATUS_SUCCESS
        }
    }

    /// The logbook's pages with each PDF attachment after them, by poppler's `pdfunite` in a
    /// process of its own: joining PDFs needs a PDF parser, and a hostile file that upsets one
    /// must fail this report, not the daemon.
    static func unite(_ logbook: String, with documents: [(Item, path: String)], into out: String, clock: any HostClock) async throws {
        let arguments = [logbook] + documents.map(\.path) + [out]
        let status: TerminationStatus
        do {
            status = try await withDeadline(.seconds(120), clock: clock, timedOut: { LogbookError.pdf("pdfunite took longer than 120 s") }) {
                try await Subprocess.run(.name("pdfunite"), arguments: Arguments(arguments), output: .discarded, error: .discarded).terminationStatus
            }
        } catch is SubprocessError {
            throw LogbookParams.withAttachments.invalid("needs pdfunite to append PDF attachments (Debian: apt install poppler-utils)")
        }
        guard status.isSuccess else {
            // Which attachment is not said by pdfunite in words we may repeat (they quote the file).
            let numbers = documents.map { "\($0.0.attachment.id)" }.joined(separator: ", ")
            throw LogbookError.pdf("a PDF attachment (one of \(numbers)) could not be joined to the report; check it opens")
        }
    }
}
