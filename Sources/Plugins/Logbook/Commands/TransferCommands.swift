import Foundation
import PluginKit

/// Import, export and the mailed report.
extension LogbookService {
    /// `Entry.identity`, computed by SQLite.
    static let identityExpression = """
        CASE kind
            WHEN 'flight' THEN 'F|' || date || '|' || COALESCE(dep, '') || '|' || COALESCE(arr, '') || '|' || COALESCE(out_at, 0)
                || '|' || COALESCE(registration, '')
            ELSE 'S|' || date || '|' || COALESCE(fstd_type, '') || '|' || COALESCE(fstd_qualification, '') || '|' || total_min || '|' || remarks
        END
        """
    static let identitySQL = "SELECT \(identityExpression) FROM logbook_entries WHERE deleted_at IS NULL"

    /// Streams the file into one transaction, a batch of rows at a time: all of it (with
    /// `skip_invalid`, all the good rows) or nothing. A dry run does the same and rolls back, so
    /// what it reports is exactly what the import would do.
    func importFile(_ params: Params, call: CallContext) async throws -> ImportResult {
        let path = try params[LogbookParams.importPath]
        let dryRun = params[LogbookParams.dryRun]
        let skipInvalid = params[LogbookParams.skipInvalid]
        var named: ImportFormat?
        let name = params[LogbookParams.importFormat]
        if name != "auto" {
            guard let format = ImportFormat(rawValue: name) else {
                throw LogbookParams.exportFormat.invalid("must be one of auto, \(ImportFormat.names.joined(separator: ", ")), got '\(name)'")
            }
            named = format
        }
        let givenFormat = named
        let outcome = try await database.writeWithoutTransaction { db -> Importer.Outcome in
            var outcome: Importer.Outcome?
            try db.inTransaction {
                let (read, duties) = try Self.importStream(path: path, format: givenFormat, db: db, context: try self.draftContext(db), call: call)
                outcome = read
                if read.badRowCount > 0 && !skipInvalid && !dryRun { throw LogbookError.badRows(read.badRows, count: read.badRowCount) }
                if dryRun { return .rollback }
                // The imported flights' duty times become records once, after every row is in.
                if let (lo, hi) = duties.span { try DutyPeriods.rebuild(db, from: lo, to: hi) }
                try call.committing()
                return .commit
            }
            guard let outcome else { throw RPCError.internalError("the import ended without an outcome") }
            return outcome
        }
        return ImportResult(
            format: outcome.format.rawValue, path: path, dryRun: dryRun, rowsRead: outcome.rowsRead, duplicates: outcome.duplicates,
            imported: dryRun ? 0 : outcome.imported, badRows: outcome.badRows, badRowCount: outcome.badRowCount,
            aircraftCreated: outcome.aircraftCreated, wouldImport: dryRun ? outcome.imported : nil,
            sample: dryRun ? outcome.sample.map(\.json) : nil)
    }

    /// The file's rows into the logbook, inside the caller's transaction.
    private static func importStream(path: String, format named: ImportFormat?, db: Database, context: DraftContext, call: CallContext) throws
        -> (Importer.Outcome, DutySpan)
    {
        let chunks: SafeFile.Chunks
        do throws(SafeFile.Failure) { chunks = try SafeFile.chunks(path, limit: SafeFile.Limit.importFile) } catch {
            throw LogbookError.file(path, "it \(error.problem)")
        }
        do {
            let batches = CSVBatches(chunks, encoding: try CSVBatches.encoding(of: chunks))
            let first = try batches.next()
            let format: ImportFormat
            if let named {
                format = named
            } else {
                guard let detected = ImportFormat.detect(String((first?.text ?? "").prefix(4000))) else {
                    throw LogbookParams.exportFormat.invalid(
                        "could not be detected from the file's header; give format= one of \(ImportFormat.names.joined(separator: ", "))")
                }
                format = detected
            }
            let header = (first?.text ?? "").prefix { $0 != "\n" && $0 != "\r" }
            let delimiter: UnicodeScalar = format == .foreflight ? "," : CSVTable.delimiter(of: header)
            let duties = DutySpan()
            var importer = Importer(format: format, context: context, sink: try Self.sink(db, duties: duties))
            var batch = first
            var nextProgress = 10_000
            while let (text, firstLine) = batch {
                let table: CSVTable
                do {
                    table = try CSVTable.parse(text, delimiter: delimiter)
                } catch {
                    throw LogbookError.file(path, "it is not readable CSV (\(error))")
                }
                try importer.read(table.rows.map { (line: $0.line + firstLine - 1, fields: $0.fields) })
                if importer.outcome.rowsRead >= nextProgress {
                    nextProgress += 10_000
                    call.progress("read \(importer.outcome.rowsRead) rows", done: Int64(batches.bytesRead), total: chunks.size)
                }
                batch = try batches.next()
            }
            return (importer.outcome, duties)
        } catch let failure as CSVBatchFailure {
            throw LogbookError.file(path, failure.reason)
        }
    }

    /// Entries and aircraft into the logbook. Duplicates (of the logbook or of the file) are found
    /// by a set of identity hashes, 8 bytes an entry, and a hit is confirmed in the database: a
    /// set of the identities themselves took 100 MB for a million rows.
    private static func sink(_ db: Database, duties: DutySpan) throws -> Importer.Sink {
        let hashes = HashSet()
        let identities = try String.fetchCursor(db, sql: identitySQL)
        while let identity = try identities.next() { hashes.set.insert(identity.hashValue) }
        return Importer.Sink(
            add: { entry in
                let identity = entry.identity
                if !hashes.set.insert(identity.hashValue).inserted,
                    try Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT EXISTS (\(identitySQL) AND date = ? AND (\(identityExpression)) = ?)"),
                        arguments: ["\(entry.date)", identity]) == true
                {
                    return false
                }
                do {
                    _ = try entry.insert(db)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw LogbookError.duplicateFlight(entry)
                }
                if let s = entry.dutyStart, let e = entry.dutyEnd { duties.cover(s.value, e.value) }
                return true
            },
            addAircraft: { try $0.save(db) })
    }

    /// The identity hashes an import has seen, shared by the sink's closure.
    private final class HashSet { var set = Set<Int>() }

    /// The time the imported flights' duties cover, shared by the sink's closure.
    final class DutySpan {
        private(set) var span: (Int, Int)?
        func cover(_ start: Int, _ end: Int) { span = span.map { (min($0.0, start), max($0.1, end)) } ?? (start, end) }
    }

    func exportData(from: Day?, to: Day?, search: EntrySearch = EntrySearch())
        async throws -> (entries: [Entry], aircraft: [String: Aircraft], starting: ColumnTotals, profile: Profile)
    {
        return try await database.read { db in
            // Brought forward: starting totals plus everything before the period.
            var starting = try ColumnTotals.loadStarting(db)
            if let from { starting = starting + (try TotalsReport.sums(db, from: nil, to: from.adding(days: -1))) }
            return (try Self.entries(db, from: from, to: to, search: search), try Aircraft.all(db), starting, try Profile.load(db))
        }
    }

    /// The search of a report, its ids checked against the logbook: a record that is not there is
    /// named, rather than a report that quietly leaves it out.
    func reportSearch(_ params: Params) async throws -> EntrySearch {
        let search = try EntrySearch(params)
        guard let ids = params[LogbookParams.ids]?.compactMap(\.intValue), !ids.isEmpty else { return search }
        let from = day(params, LogbookParams.fromDate)?.description ?? "0000-01-01"
        let to = day(params, LogbookParams.toDate)?.description ?? "9999-12-31"
        let known = try await database.read { db in
            try Set(
                Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM logbook_entries WHERE deleted_at IS NULL AND date >= ? AND date <= ?
                        AND id IN (SELECT value FROM json_each(?))
                        """,
                    arguments: [from, to, JSONValue.array(ids.map(JSONValue.int)).encodedString()]))
        }
        let missing = ids.filter { !known.contains($0) }
        guard missing.isEmpty else {
            let named = missing.prefix(10).map(String.init).joined(separator: ", ")
            throw LogbookParams.ids.invalid("names records that are not in the logbook, or not within from_date–to_date: \(named)")
        }
        return search
    }

    func export(_ params: Params) async throws -> ExportResult {
        let path = try params[LogbookParams.exportPath]
        let format = try params[LogbookParams.exportFormat]
        let overwrite = params[FileOutput.overwrite] ?? false
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LogbookError.file(path, "the folder \(directory) does not exist")
        }
        if !overwrite { try FileOutput.checkFree(path, param: LogbookParams.exportPath.name) }
        if format != "pdf", params[LogbookParams.withAttachments] { throw LogbookParams.withAttachments.invalid("only applies to format=pdf") }
        let search = try await reportSearch(params)
        let data = try await exportData(from: day(params, LogbookParams.fromDate), to: day(params, LogbookParams.toDate), search: search)
        switch format {
        case "csv":
            let csv = try await runBlocking { CSVExporter.render(data.entries, aircraft: data.aircraft) }
            // Written whole or not at all through swift-nio's file system; the logbook's own
            // error (1103, naming the file) rather than the kit's -32602.
            do {
                try await FileOutput.write(csv, to: path, param: LogbookParams.exportPath.name, overwrite: overwrite)
            } catch let error as RPCError where !FileOutput.refusedAsTaken(error) {
                throw LogbookError.file(path, error.message.replacingOccurrences(of: "Invalid params: 'path' ", with: ""))
            }
            return ExportResult(path: path, format: "csv", entries: data.entries.count, pages: nil)
        default:
            let made = try await pdf(
                data, to: path, overwrite: overwrite, selected: search.narrows, withAttachments: params[LogbookParams.withAttachments])
            return ExportResult(path: path, format: "pdf", entries: data.entries.count, pages: made.pages, attachments: made.attachments)
        }
    }

    func pdf(
        _ data: (entries: [Entry], aircraft: [String: Aircraft], starting: ColumnTotals, profile: Profile), to path: String, overwrite: Bool,
        selected: Bool = false, withAttachments: Bool = false, largestAttachments: Int? = nil
    ) async throws -> (pages: Int, attachments: Int?) {
        let renderer = PDFLogbook(
            pilotName: data.profile.name ?? "(set your name with logbook.profile.set)",
            rowsPerPage: Int(context.config[LogbookConfig.pdfRowsPerPage]), aircraft: data.aircraft, selected: selected)
        guard withAttachments else {
            return (try await runBlocking { try renderer.write(entries: data.entries, starting: data.starting, to: path, overwrite: overwrite) }, nil)
        }
        let appendix = try await database.read { db in
            try AttachmentAppendix.load(db, entries: data.entries, largestBytes: largestAttachments ?? AttachmentAppendix.largestBytes)
        }
        guard !appendix.documents.isEmpty else {
            let pages = try await runBlocking {
                try renderer.write(entries: data.entries, starting: data.starting, to: path, overwrite: overwrite, appendix: appendix)
            }
            return (pages, appendix.items.count)
        }
        // Drawn in a private folder and joined beside the file it becomes, then put in place
        // whole: a report is written entirely or not at all, and never held in memory.
        let folder = try PrivateFolder(purpose: "logbook-report")
        defer { folder.remove() }
        let logbook = folder.path + "/logbook.pdf"
        let pages = try await runBlocking {
            try renderer.write(entries: data.entries, starting: data.starting, to: logbook, overwrite: false, appendix: appendix)
        }
        var documents: [(AttachmentAppendix.Item, path: String)] = []
        for item in appendix.documents {
            let file = folder.path + "/attachment-\(item.attachment.id).pdf"
            try await FileOutput.write(Data(item.content), to: file, param: LogbookParams.withAttachments.name, overwrite: false)
            documents.append((item, file))
        }
        let joined = try FileOutput.temporaryFile(beside: path)
        do {
            try await AttachmentAppendix.unite(logbook, with: documents, into: joined, clock: context.clock)
            try FileOutput.place(joined, at: path, param: LogbookParams.exportPath.name, overwrite: overwrite)
        } catch {
            unlink(joined)
            throw error
        }
        return (pages, appendix.items.count)
    }

    func reportMail(_ params: Params) async throws -> ReportMailed {
        let to = try params[LogbookParams.mailTo].trimmingCharacters(in: .whitespaces)
        guard MailAddress.isInternetAddress(to) else {
            throw LogbookParams.mailTo.invalid("'\(to)' is not a mail address")
        }
        let from = day(params, LogbookParams.fromDate)
        let until = day(params, LogbookParams.toDate)
        let search = try await reportSearch(params)
        let data = try await exportData(from: from, to: until, search: search)
        let folder = try PrivateFolder(purpose: "logbook-mail")
        defer { folder.remove() }
        let path = folder.path + "/logbook.pdf"
        // A mail carries at most 25 MB: the attachments are measured before anything is drawn,
        // and the report after.
        let (pages, attachments) = try await pdf(
            data, to: path, overwrite: false, selected: search.narrows, withAttachments: params[LogbookParams.withAttachments],
            largestAttachments: SafeFile.Limit.attachment - (1 << 20))
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= SafeFile.Limit.attachment else {
            throw LogbookParams.withAttachments.invalid(
                "makes a report of \(size >> 20) MB, more than the 25 MB a mail may carry; choose fewer records, or export it (logbook.export)")
        }
        let attachment = try OutgoingAttachment.file(atPath: path, contentType: "application/pdf")
        let language = context.language
        let range = NoticeWords.range.text(
            language,
            ["from": from?.description ?? NoticeWords.firstEntry.text(language), "to": until?.description ?? NoticeWords.lastEntry.text(language)])
        var totals = ColumnTotals()
        data.entries.forEach { totals.add($0) }
        try await context.notifier.mail(
            to: to, title: NoticeWords.report.text(language, ["range": range]),
            body: NoticeWords.reportBody.text(
                language,
                [
                    "range": range, "entries": "\(data.entries.count)", "pages": NoticeWords.pages(pages, language),
                    "total": Minutes.hhmm(totals["total_min"]), "pic": Minutes.hhmm(totals["pic_min"]), "night": Minutes.hhmm(totals["night_min"]),
                    "landings": "\(totals["landings_day"] + totals["landings_night"])",
                ]),
            attachments: [attachment], topic: LogbookTopic.report)
        return ReportMailed(to: to, entries: data.entries.count, pages: pages, attachments: attachments)
    }
}
