import Foundation
import PluginKit

/// The logbook's import as the parser fuzz target (`Fuzz/ParserFuzz`) feeds it. One `package`
/// entry, so the CSV table, format detection and the importer stay internal.
package enum LogbookFuzzing {
    /// The whole text as a table, then the import as `logbook.import` runs it from the file on:
    /// the encoding pass, the batches of records (read in small chunks, so that records and
    /// characters fall across their ends), format detection and every row through the importer,
    /// into a sink that keeps nothing. `scratch` is a file the caller owns.
    package static func parse(_ bytes: [UInt8], scratch path: String) {
        // The same bytes as an attachment: told by content, and a picture's size read from its header.
        // (as a report draws it: the pixel count is what the drawing bounds).
        for type in [AttachmentContent.mediaType(of: bytes), .jpeg, .png].compactMap({ $0 }) {
            if let size = AttachmentContent.pixelSize(bytes, type) { _ = size.width * size.height }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? RecordReference(String(text.prefix(64)), param: "record")
        let header = text.prefix { $0 != "\n" && $0 != "\r" }
        _ = ImportFormat.detect(String(text.prefix(4000)))
        _ = try? CSVTable.parse(text, delimiter: CSVTable.delimiter(of: header))
        importLogbook(bytes, scratch: path)
    }

    private static func importLogbook(_ bytes: [UInt8], scratch path: String) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)),
            let chunks = try? SafeFile.chunks(path, limit: 1 << 20, chunkSize: 97),
            let encoding = try? CSVBatches.encoding(of: chunks)
        else { return }
        let batches = CSVBatches(chunks, encoding: encoding, batchSize: 512)
        guard let first = try? batches.next() else { return }
        let format = ImportFormat.detect(String(first.text.prefix(4000))) ?? .native
        let header = first.text.prefix { $0 != "\n" && $0 != "\r" }
        let delimiter: UnicodeScalar = format == .foreflight ? "," : CSVTable.delimiter(of: header)
        let context = DraftContext(airports: AirportLookup(user: [:]), aircraft: [:], profile: Profile(), criterion: .civilTwilight)
        var importer = Importer(format: format, context: context, sink: Importer.Sink(add: { _ in true }, addAircraft: { _ in }))
        var batch: (text: String, firstLine: Int)? = first
        while let (text, firstLine) = batch {
            guard let table = try? CSVTable.parse(text, delimiter: delimiter) else { return }
            do { try importer.read(table.rows.map { (line: $0.line + firstLine - 1, fields: $0.fields) }) } catch { return }
            batch = try? batches.next()
        }
    }
}
