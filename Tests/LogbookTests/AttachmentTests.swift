import AssistantTesting
import Foundation
import HostCore
import Testing

/// Scans and photos kept with records: told by content, bounded, written back whole, and appended
/// to a PDF report when asked.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct AttachmentTests {
    func flight(_ lb: LogbookHost, _ date: String) async throws -> Int64 {
        try await lb.call(
            "logbook.flights.add", ["date": .string(date), "dep": "LKTB", "arr": "LKPR", "out": "09:00", "in": "10:00", "aircraft": "OK-SKA"]
        )["id"]?.intValue ?? -1
    }

    func pages(_ path: String) async throws -> Int {
        let info = try await runCommand("/usr/bin/pdfinfo", [path], environment: ProcessInfo.processInfo.environment).stdout
        let line = info.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }

    @Test(.enabled(if: Peers.shouldRun(program: "/usr/bin/pdfunite")))
    func aPictureAndAPDFAreKeptAndAppendedToTheReport() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let dir = TemporaryDirectory()
        let first = try await flight(lb, "2026-03-01")
        let second = try await flight(lb, "2026-03-02")
        // Real files: a chart the logbook draws (PNG), its own PDF, and a camera's JPEG.
        try await lb.call("logbook.chart", ["kind": "hours_by_month", "path": .string(dir.file("chart.png"))])
        try await lb.call("logbook.export", ["path": .string(dir.file("medical.pdf")), "format": "pdf"])
        let certificate = try await lb.call(
            "logbook.certificates.add", ["kind": "other", "name": "Class 2 medical scan", "expiry_date": "2027-05-01"])

        let png = try await lb.call("logbook.attachments.add", ["record": .string("\(first)"), "path": .string(dir.file("chart.png"))])
        #expect(png["media_type"] == "image/png")
        #expect(png["name"] == "chart.png")
        #expect(png["record"] == .string("\(first)"))
        let pngBytes = try Data(contentsOf: URL(fileURLWithPath: dir.file("chart.png")))
        #expect(png["bytes"]?.intValue == Int64(pngBytes.count))
        let jpeg = try await lb.call(
            "logbook.attachments.add", ["record": .string("flight:\(second)"), "path": .string(fixture("scan.jpg")), "name": "Signed page"])
        #expect(jpeg["media_type"] == "image/jpeg")
        #expect(jpeg["name"] == "Signed page")
        let pdf = try await lb.call(
            "logbook.attachments.add", ["record": .string("certificate:\(certificate["id"]!.intValue!)"), "path": .string(dir.file("medical.pdf"))])
        #expect(pdf["media_type"] == "application/pdf")
        #expect(pdf["record"] == .string("certificate:\(certificate["id"]!.intValue!)"))

        // Listed with their records: the flight shows its own, the certificates theirs.
        let shown = try await lb.call("logbook.flights.get", ["id": .int(first)])
        #expect(shown["attachments"]?.arrayValue?.map { $0["id"] } == [png["id"]], "\(shown)")
        #expect(shown["dep"] == "LKTB" && shown["total_min"] == 60)
        let certificates = try await lb.call("logbook.certificates.list")["certificates"]?.arrayValue ?? []
        #expect(certificates.first?["attachments"]?.arrayValue?.map { $0["name"] } == ["medical.pdf"], "\(certificates)")
        // Listed with their records; written back byte for byte.
        #expect(try await lb.call("logbook.attachments.list")["attachments"]?.arrayValue?.count == 3)
        let mine = try await lb.call("logbook.attachments.list", ["record": .string("\(first)")])["attachments"]?.arrayValue ?? []
        #expect(mine.compactMap { $0["id"] } == [png["id"]!])
        let back = try await lb.call("logbook.attachments.get", ["id": png["id"]!, "out": .string(dir.file("back.png"))])
        #expect(back["bytes"]?.intValue == Int64(pngBytes.count))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("back.png"))) == pngBytes)
        let taken = try await lb.failure("logbook.attachments.get", ["id": png["id"]!, "out": .string(dir.file("back.png"))])
        #expect(taken.data?["param"] == "out", "nothing is overwritten unless asked")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("back.png"))) == pngBytes)

        // The report: the logbook's page and the charts' page, the list, a page per picture, then the PDF's pages.
        let report = try await lb.call(
            "logbook.export", ["path": .string(dir.file("report.pdf")), "format": "pdf", "with_attachments": true])
        #expect(report["attachments"] == 3)
        let medicalPages = try await pages(dir.file("medical.pdf"))
        #expect(medicalPages == 2)
        #expect(try await pages(dir.file("report.pdf")) == 2 + 1 + 2 + medicalPages)
        let text = try await runCommand("/usr/bin/pdftotext", ["-layout", dir.file("report.pdf"), "-"], environment: nil).stdout
        #expect(text.contains("ATTACHMENTS"))
        #expect(text.contains("Attachment 2: Signed page — flight \(second), 2026-03-02 LKTB → LKPR"), "\(text)")
        #expect(text.contains("Attachment 3: medical.pdf — certificate"))
        let images = try await runCommand("/usr/bin/pdfimages", ["-list", dir.file("report.pdf")], environment: nil).stdout
        let rows = images.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.contains { $0.count > 8 && $0[3] == "160" && $0[4] == "100" && $0[8] == "jpeg" }, "the JPEG embedded as it is: \(images)")
        #expect(rows.contains { $0.count > 8 && $0[8] != "jpeg" }, "the PNG drawn: \(images)")
        // Without asking, the report is as before; a CSV takes none.
        let plain = try await lb.call("logbook.export", ["path": .string(dir.file("plain.pdf")), "format": "pdf"])
        #expect(plain["attachments"] == nil)
        #expect(try await pages(dir.file("plain.pdf")) == 2)
        #expect(
            try await lb.failure("logbook.export", ["path": .string(dir.file("x.csv")), "format": "csv", "with_attachments": true])
                .data?["param"] == "with_attachments")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.csv")))

        #expect(try await lb.call("logbook.attachments.delete", ["id": jpeg["id"]!])["deleted"] == jpeg["id"]!)
        #expect(try await lb.call("logbook.attachments.list")["attachments"]?.arrayValue?.count == 2)
        #expect(try await lb.failure("logbook.attachments.delete", ["id": jpeg["id"]!]).code == RPCErrorCode.notFound)
        await lb.stop()
    }

    @Test func filesThatAreNotWhatTheyClaimAreRefusedAndNothingIsKept() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let dir = TemporaryDirectory()
        let id = try await flight(lb, "2026-03-01")
        func refused(_ params: JSONValue, _ param: String, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let error = try await lb.failure("logbook.attachments.add", params)
            #expect(error.data?["param"]?.stringValue == param, "\(params)", sourceLocation: sourceLocation)
            #expect(error.message.contains(words), "\(error.message)", sourceLocation: sourceLocation)
        }
        // A text file named .pdf, and a PDF cut short: neither is a PDF by its content; the error quotes neither.
        let secret = "password=hunter2 do not leak"
        try Data(secret.utf8).write(to: URL(fileURLWithPath: dir.file("medical.pdf")))
        try await refused(["record": .string("\(id)"), "path": .string(dir.file("medical.pdf"))], "path", "is not a JPEG, PNG or PDF file")
        let error = try await lb.failure("logbook.attachments.add", ["record": .string("\(id)"), "path": .string(dir.file("medical.pdf"))])
        #expect(!error.message.contains("hunter2") && !(error.data?.encodedString().contains("hunter2") ?? true))
        try Data(("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" + String(repeating: "x", count: 100)).utf8).write(
            to: URL(fileURLWithPath: dir.file("cut.pdf")))
        try await refused(["record": .string("\(id)"), "path": .string(dir.file("cut.pdf"))], "path", "is not a JPEG, PNG or PDF file")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: fixture("scan.jpg")))
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: dir.file("half.jpg")))
        try await refused(["record": .string("\(id)"), "path": .string(dir.file("half.jpg"))], "path", "is not a JPEG, PNG or PDF file")
        // Over 20 MB: refused before it is read whole.
        #expect(FileManager.default.createFile(atPath: dir.file("big.pdf"), contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("big.pdf")))
        try handle.truncate(atOffset: UInt64(20 << 20) + 1)
        try handle.close()
        try await refused(["record": .string("\(id)"), "path": .string(dir.file("big.pdf"))], "path", "over the 20 MB")
        try await refused(["record": .string("\(id)"), "path": .string(dir.file("none.jpg"))], "path", "does not exist")
        // Pictures a report could not draw: a JPEG without a frame header, a PNG claiming 4 294 967 295 pixels a side.
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: dir.file("empty.jpg")))
        try await refused(["record": .string("\(id)"), "path": .string(dir.file("empty.jpg"))], "path", "without a readable size")
        let ihdr: [UInt8] = [0, 0, 0, 13] + Array("IHDR".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        let padding: [UInt8] = [0, 0, 0, 12] + Array("tEXtpadding!".utf8) + [0, 0, 0, 0]
        let end: [UInt8] = [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ihdr + padding + end).write(to: URL(fileURLWithPath: dir.file("huge.png")))
        try await refused(["record": .string("\(id)"), "path": .string(dir.file("huge.png"))], "path", "without a readable size")
        // A record that is not there, or not a record at all.
        #expect(
            try await lb.failure("logbook.attachments.add", ["record": "999", "path": .string(fixture("scan.jpg"))]).code == RPCErrorCode.notFound)
        try await refused(["record": "flight:x", "path": .string(fixture("scan.jpg"))], "record", "is not a record")
        try await refused(["record": "aircraft:1", "path": .string(fixture("scan.jpg"))], "record", "is not a record")
        try await refused(["record": .string("\(id)"), "path": .string(fixture("scan.jpg")), "name": "  "], "name", "1 to 200")
        // The same file twice on one record.
        try await lb.call("logbook.attachments.add", ["record": .string("\(id)"), "path": .string(fixture("scan.jpg"))])
        try await refused(["record": .string("\(id)"), "path": .string(fixture("scan.jpg"))], "path", "already attached")
        #expect(try await lb.call("logbook.attachments.list")["attachments"]?.arrayValue?.count == 1)
        #expect(try await lb.failure("logbook.attachments.list", ["record": "certificate:5"]).code == RPCErrorCode.notFound)
        // A purged flight takes its attachments with it.
        try await lb.call("logbook.flights.delete", ["id": .int(id)])
        try await lb.call("logbook.flights.purge", ["id": .int(id)])
        #expect(try await lb.call("logbook.attachments.list")["attachments"] == [])
        await lb.stop()
    }

    /// A mail carries at most 25 MB: attachments past it are refused before anything is drawn or sent.
    @Test func aMailTooBigForItsAttachmentsIsRefusedFirst() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let dir = TemporaryDirectory()
        let id = try await flight(lb, "2026-03-01")
        for n in 0..<2 {
            var bytes = [UInt8]("%PDF-1.7\n".utf8) + [UInt8](repeating: UInt8(ascii: "a") + UInt8(n), count: 13 << 20)
            bytes += [UInt8]("\n%%EOF\n".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: dir.file("scan\(n).pdf")))
            try await lb.call("logbook.attachments.add", ["record": .string("\(id)"), "path": .string(dir.file("scan\(n).pdf"))])
        }
        let error = try await lb.failure("logbook.report.mail", ["to": "me@example.org", "with_attachments": true])
        #expect(error.data?["param"] == "with_attachments" && error.message.contains("26 MB"), "\(error.message)")
        #expect(try await lb.call("notifications.list", ["topic": "logbook.report"]).arrayValue?.isEmpty == true)
        await lb.stop()
    }
}
