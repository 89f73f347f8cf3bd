import Foundation
import HostCore

/// Import, export and the mailed report.
extension LogbookService {
    static let identitySQL = """
        SELECT CASE kind
            WHEN 'flight' THEN 'F|' || date || '|' || COALESCE(dep, '') || '|' || COALESCE(arr, '') || '|' || COALESCE(out_at, 0) || '|' || COALESCE(registration, '')
            ELSE 'S|' || date || '|' || COALESCE(fstd_type, '') || '|' || COALESCE(fstd_qualification, '') || '|' || total_min || '|' || remarks
        END FROM logbook_entries WHERE deleted_at IS NULL
        """

    func importFile(_ params: Params, call: CallContext) async throws -> JSONValue {
        let path = try params.requiredString("path")
        let dryRun = params.bool("dry_run") ?? false
        let skipInvalid = params.bool("skip_invalid") ?? false
        let text = try await runBlocking { try Importer.load(path: path) }
        let format: ImportFormat
        if let name = params.string("format"), name != "auto" {
            guard let named = ImportFormat(rawValue: name) else {
                throw RPCError.invalidParam("format", "must be one of auto, \(ImportFormat.names.joined(separator: ", ")), got '\(name)'")
            }
            format = named
        } else {
            guard let detected = ImportFormat.detect(String(text.prefix(4000))) else {
                throw RPCError.invalidParam(
                    "format", "could not be detected from the file's header; give format= one of \(ImportFormat.names.joined(separator: ", "))")
            }
            format = detected
        }
        let (context, known) = try await database.read { db in
            (try self.draftContext(db), Set(try String.fetchAll(db, sql: Self.identitySQL)))
        }
        let outcome: Importer.Outcome
        do {
            outcome = try await runBlocking {
                var importer = Importer(format: format, context: context, known: known)
                return try importer.run(text: text)
            }
        } catch let error as RPCError {
            throw error
        } catch {
            throw LogbookError.file(path, "it is not readable CSV (\(error))")
        }
        var report: [String: JSONValue] = [
            "format": .string(format.rawValue), "path": .string(path), "dry_run": .bool(dryRun),
            "rows_read": .count(outcome.entries.count + outcome.duplicates + outcome.badRows.count),
            "duplicates": .count(outcome.duplicates), "bad_rows": .array(outcome.badRows),
            "aircraft_created": .array(outcome.aircraftCreated.map { .string($0.registration) }),
        ]
        if !outcome.badRows.isEmpty && !skipInvalid && !dryRun { throw LogbookError.badRows(outcome.badRows) }
        if dryRun {
            report["would_import"] = .count(outcome.entries.count)
            report["imported"] = 0
            report["sample"] = .array(outcome.entries.prefix(5).map { $0.entry.json })
            return .object(report)
        }
        let entries = outcome.entries
        let total = Int64(entries.count)
        try await database.write { db in
            for a in outcome.aircraftCreated { try a.save(db) }
            for (i, item) in entries.enumerated() {
                do {
                    _ = try item.entry.insert(db)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw LogbookError.duplicateFlight(item.entry)
                }
                if i % 10_000 == 9_999 { call.progress("imported \(i + 1) of \(total)", done: Int64(i + 1), total: total) }
            }
        }
        report["imported"] = .count(entries.count)
        return .object(report)
    }

    func exportData(from: Day?, to: Day?) async throws -> (entries: [Entry], aircraft: [String: Aircraft], starting: ColumnTotals, profile: Profile) {
        if let from, let to, to < from { throw RPCError.invalidParam("to_date", "(\(to)) is before from_date (\(from))") }
        return try await database.read { db in
            // Brought forward: starting totals plus everything before the period.
            var starting = try ColumnTotals.loadStarting(db)
            if let from { starting = starting + (try TotalsReport.sums(db, from: nil, to: from.adding(days: -1))) }
            return (try Self.entries(db, from: from, to: to), try Aircraft.all(db), starting, try Profile.load(db))
        }
    }

    func export(_ params: Params) async throws -> JSONValue {
        let path = try params.requiredString("path")
        let format = try params.requiredString("format")
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LogbookError.file(path, "the folder \(directory) does not exist")
        }
        let data = try await exportData(from: day(params, "from_date"), to: day(params, "to_date"))
        switch format {
        case "csv":
            let csv = try await runBlocking { CSVExporter.render(data.entries, aircraft: data.aircraft) }
            // Written whole or not at all through swift-nio's file system; the logbook's own
            // error (1103, naming the file) rather than the kit's -32602.
            do {
                try await FileOutput.write(csv, to: path, param: "path")
            } catch let error as RPCError {
                throw LogbookError.file(path, error.message.replacingOccurrences(of: "Invalid params: 'path' ", with: ""))
            }
            return ["path": .string(path), "format": "csv", "entries": .count(data.entries.count)]
        default:
            let pages = try await pdf(data, to: path)
            return ["path": .string(path), "format": "pdf", "entries": .count(data.entries.count), "pages": .count(pages)]
        }
    }

    func pdf(_ data: (entries: [Entry], aircraft: [String: Aircraft], starting: ColumnTotals, profile: Profile), to path: String) async throws -> Int {
        let renderer = PDFLogbook(
            pilotName: data.profile.name ?? "(set your name with logbook.profile.set)",
            rowsPerPage: Int(context.config[LogbookConfig.pdfRowsPerPage]), aircraft: data.aircraft)
        return try await runBlocking { try renderer.write(entries: data.entries, starting: data.starting, to: path) }
    }

    func reportMail(_ params: Params) async throws -> JSONValue {
        let to = try params.requiredString("to").trimmingCharacters(in: .whitespaces)
        let parts = to.split(separator: "@")
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !to.contains(where: { $0.isWhitespace || $0 == "," || $0 == "<" }) else {
            throw RPCError.invalidParam("to", "'\(to)' is not a mail address")
        }
        let from = day(params, "from_date"), until = day(params, "to_date")
        let data = try await exportData(from: from, to: until)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("logbook.pdf").path
        let pages = try await pdf(data, to: path)
        let attachment = try OutgoingAttachment.file(atPath: path, contentType: "application/pdf")
        let range = "\(from?.description ?? "the first entry") to \(until?.description ?? "the last entry")"
        var totals = ColumnTotals()
        data.entries.forEach { totals.add($0) }
        try await context.notifier.mail(
            to: to, title: "Pilot logbook, \(range)",
            body: """
                Your logbook from \(range): \(data.entries.count) entries on \(pages) page\(pages == 1 ? "" : "s") (attached).
                Flight time \(Minutes.hhmm(totals["total_min"])), PIC \(Minutes.hhmm(totals["pic_min"])), night \(Minutes.hhmm(totals["night_min"])), landings \(totals["landings_day"] + totals["landings_night"]).
                """,
            attachments: [attachment], topic: "logbook.report")
        return ["to": .string(to), "entries": .count(data.entries.count), "pages": .count(pages)]
    }
}
