import Foundation
import PluginKit

/// Scans and photos kept with a record: added from a file, listed, written back out, deleted.
extension LogbookService {
    func attachmentsAdd(_ params: Params) async throws -> AttachmentResult {
        typealias P = LogbookParams
        let record = try RecordReference(try params[P.attachTo], param: P.attachTo.name)
        let path = try params[P.attachPath]
        let name = (params[P.attachName] ?? (path as NSString).lastPathComponent).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else { throw P.attachName.invalid("must be 1 to 200 characters") }
        // The record first: a file is not read for a record that is not there.
        try await database.read { db in try record.check(db, param: P.attachTo.name) }
        // Read and hashed off the cooperative pool: 20 MB is tens of milliseconds.
        let (bytes, digest): ([UInt8], String) = try await runBlocking {
            let bytes: [UInt8]
            do throws(SafeFile.Failure) {
                bytes = [UInt8](try SafeFile.read(path, limit: Attachment.largestBytes))
            } catch {
                if case .tooLarge = error.reason { throw P.attachPath.invalid("is over the 20 MB an attachment may be") }
                throw P.attachPath.invalid(error.problem)
            }
            return (bytes, Attachment.digest(bytes))
        }
        // Told by the content, never by the name; the error does not quote the file.
        guard let type = AttachmentContent.mediaType(of: bytes) else {
            throw P.attachPath.invalid("is not a JPEG, PNG or PDF file (told by its content, not its name)")
        }
        // A picture is kept only if a report can draw it.
        if type.isImage {
            guard let size = AttachmentContent.pixelSize(bytes, type) else {
                throw P.attachPath.invalid("is a picture without a readable size, or wider or taller than 32 767 pixels")
            }
            guard size.width * size.height <= AttachmentAppendix.largestPixels else {
                throw P.attachPath.invalid("is a picture of \(size.width) × \(size.height) pixels; at most 40 megapixels are kept")
            }
        }
        let now = ISO8601.string(context.clock.now)
        return try await database.write { db in
            try record.check(db, param: P.attachTo.name)
            let (entry, certificate): (Int64?, Int64?) =
                switch record {
                case .entry(let id): (id, nil)
                case .certificate(let id): (nil, id)
                }
            if let same = try Int64.fetchOne(
                db, sql: "SELECT id FROM logbook_attachments WHERE entry_id IS ? AND certificate_id IS ? AND sha256 = ?",
                arguments: [entry, certificate, digest])
            {
                throw P.attachPath.invalid("is already attached to \(record.label) as attachment \(same)")
            }
            try db.execute(
                sql: """
                    INSERT INTO logbook_attachments (entry_id, certificate_id, name, media_type, bytes, sha256, added_at, content)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [entry, certificate, name, type.rawValue, bytes.count, digest, now, Data(bytes)])
            let stored = try Row.fetchOne(
                db, sql: "SELECT \(Attachment.columns) FROM logbook_attachments WHERE id = ?", arguments: [db.lastInsertedRowID])
            guard let stored else { throw RPCError.internalError("the attachment just stored cannot be read back") }
            return AttachmentResult(attachment: Attachment(row: stored))
        }
    }

    func attachmentsList(_ params: Params) async throws -> AttachmentList {
        let record = try params[LogbookParams.attachedTo].map { s throws(RPCError) in try RecordReference(s, param: LogbookParams.attachedTo.name) }
        return try await database.read { db in
            var sql = "SELECT \(Attachment.columns) FROM logbook_attachments"
            var arguments: StatementArguments = []
            if let record {
                try record.check(db, param: LogbookParams.attachedTo.name)
                switch record {
                case .entry(let id): (sql, arguments) = (sql + " WHERE entry_id = ?", [id])
                case .certificate(let id): (sql, arguments) = (sql + " WHERE certificate_id = ?", [id])
                }
            }
            let list = try Row.fetchAll(db, sql: sql + " ORDER BY id", arguments: arguments).map { AttachmentResult(attachment: Attachment(row: $0)) }
            return AttachmentList(attachments: list)
        }
    }

    func attachmentsGet(_ params: Params) async throws -> AttachmentWritten {
        let id = try params[LogbookParams.attachmentID]
        let out = try params[LogbookParams.attachmentOut]
        let overwrite = params[FileOutput.overwrite] ?? false
        try FileOutput.checkTarget(out, param: LogbookParams.attachmentOut.name, overwrite: overwrite)
        let (attachment, content) = try await database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT \(Attachment.columns), content FROM logbook_attachments WHERE id = ?", arguments: [id])
            else { throw RPCError.notFound("attachment \(id)") }
            return (Attachment(row: row), row["content"] as Data)
        }
        try await FileOutput.write(content, to: out, param: LogbookParams.attachmentOut.name, overwrite: overwrite)
        return AttachmentWritten(attachment: attachment, out: out)
    }

    func attachmentsDelete(_ params: Params) async throws -> AttachmentDeleted {
        let id = try params[LogbookParams.attachmentID]
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM logbook_attachments WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw RPCError.notFound("attachment \(id)") }
            return AttachmentDeleted(deleted: id)
        }
    }
}
