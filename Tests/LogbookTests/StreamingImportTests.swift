import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Logbook

/// The logbook import reads the file in batches of whole records: a record is never cut (a quoted
/// remark with line breaks stays whole wherever a batch ends), line numbers run on across batches,
/// a character cut by a chunk's end is still UTF-8, and duplicates are found across batches.
@Suite(.stopsTestHosts) struct StreamingImportTests {
    static func batches(_ text: [UInt8], chunk: Int, batch: Int) throws -> [(text: String, firstLine: Int)] {
        let directory = TemporaryDirectory()
        let path = directory.file("rows.csv")
        _ = FileManager.default.createFile(atPath: path, contents: Data(text))
        let chunks = try SafeFile.chunks(path, limit: 1 << 20, chunkSize: chunk)
        let batches = CSVBatches(chunks, encoding: try CSVBatches.encoding(of: chunks), batchSize: batch)
        var all: [(String, Int)] = []
        while let next = try batches.next() { all.append(next) }
        return all
    }

    static let rows =
        "kind,date,remarks\r\n"
        + (1...40).map { i in
            i % 7 == 0
                ? "flight,2026-01-\(10 + i % 9),\"a remark \"\"quoted\"\"\nover two lines\"\r\n"
                : "flight,2026-01-\(10 + i % 9),plain řádek \(i)\r\n"
        }.joined()

    @Test(arguments: [(1, 1), (3, 16), (7, 64), (4096, 4096)])
    func batchesEndOnlyBetweenRecordsAndKeepTheirLineNumbers(chunk: Int, batch: Int) throws {
        let batches = try Self.batches(Array("\u{FEFF}\(Self.rows)".utf8), chunk: chunk, batch: batch)
        #expect(batches.map(\.text).joined() == Self.rows, "every byte once, in order, without the BOM")
        var line = 1
        for (text, firstLine) in batches {
            #expect(firstLine == line)
            line += text.utf8.filter { $0 == 0x0A }.count
            let table = try CSVTable.parse(text, delimiter: ",")
            #expect(table.rows.allSatisfy { $0.fields.count == 3 }, "a record was cut: \(text.debugDescription)")
        }
        if batch < 64 { #expect(batches.count > 10, "small batches were asked for") }
    }

    @Test func encodingIsDecidedOverTheWholeFileWhereverAChunkEnds() throws {
        // "ř" (two bytes) cut by every chunk size in turn.
        for chunk in 1...5 {
            let batches = try Self.batches(Array("a,b\nř,ž\n".utf8), chunk: chunk, batch: 2)
            #expect(batches.map(\.text).joined() == "a,b\nř,ž\n", "chunk \(chunk)")
        }
        let latin = Array("a,b\nJ\u{F6}rg,x\n".data(using: .isoLatin1)!)
        #expect(try Self.batches(latin, chunk: 3, batch: 4).map(\.text).joined() == "a,b\nJörg,x\n")
        var mixed = Array("a,b\nř,x\n".utf8)
        mixed += [0x79, 0xFF, 0x0A]
        #expect(throws: CSVBatchFailure.self) { try Self.batches(mixed, chunk: 2, batch: 4) }
    }

    @Test func aLargeFileIsReadInBatchesWithDuplicatesAndLinesAcrossThem() async throws {
        let lb = try await LogbookHost.started()
        let directory = TemporaryDirectory()
        // About 1.7 MB: two batches. Row 9000 repeats row 10; row 15000 is bad; row 12000 has a
        // quoted remark over two lines, so every line number after it is one more than its row.
        var csv = "kind,date,dep,arr,out,in,registration,total_min,remarks\n"
        let badLine = 15_000 + 3
        let start = Date(timeIntervalSince1970: 1_500_000_000)
        func row(_ i: Int) -> String {
            let out = start.addingTimeInterval(Double(i) * 3600)
            let day = ISO8601.string(out).prefix(10)
            let remark = i == 12_000 ? "\"two\nlines\"" : i == 15_000 ? "bad" : "row \(i) with a fairly long remark to fill the batch"
            let kind = i == 15_000 ? "glider" : "flight"
            return "\(kind),\(day),LKPR,LKTB,\(ISO8601.string(out)),\(ISO8601.string(out.addingTimeInterval(1800))),OK-SKA,30,\(remark)\n"
        }
        for i in 0..<16_000 { csv += row(i == 9_000 ? 10 : i) }
        let path = directory.write("big.csv", csv)
        #expect(csv.utf8.count > CSVBatches.batchSize, "the file spans more than one batch")
        let dry = try await lb.call("logbook.import", ["path": .string(path), "dry_run": true, "skip_invalid": true])
        #expect(dry["would_import"] == 15_998)
        #expect(dry["duplicates"] == 1)
        #expect(dry["bad_rows"]?.arrayValue?.map { $0["line"] } == [.int(Int64(badLine))])
        #expect(try await lb.count() == 0, "a dry run writes nothing")
        let done = try await lb.call("logbook.import", ["path": .string(path), "skip_invalid": true])
        #expect(done["imported"] == 15_998)
        #expect(done["duplicates"] == 1)
        let again = try await lb.call("logbook.import", ["path": .string(path), "skip_invalid": true])
        #expect(again["imported"] == 0)
        #expect(again["duplicates"] == 15_999)
        #expect(try await lb.count() == 15_998)
        await lb.stop()
    }
}
