import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct ImportTests {
    func entries(_ lb: LogbookHost) async throws -> [JSONValue] {
        try await lb.call("logbook.flights.list", ["limit": 1000])["entries"]?.arrayValue?.reversed() ?? []
    }

    /// Dry run, import, re-import: the common path of every format.
    func importTwice(_ lb: LogbookHost, _ file: String, format: String, expect count: Int) async throws -> JSONValue {
        let path = fixture("import/\(file)")
        let dry = try await lb.call("logbook.import", ["path": .string(path), "dry_run": true])
        #expect(dry["format"]?.stringValue == format)
        #expect(dry["would_import"]?.intValue == Int64(count))
        #expect(dry["bad_rows"]?.arrayValue?.isEmpty == true, "\(file): \(dry["bad_rows"]?.encodedString() ?? "")")
        #expect(try await lb.count() == 0, "a dry run writes nothing")
        let done = try await lb.call("logbook.import", ["path": .string(path)])
        #expect(done["imported"]?.intValue == Int64(count))
        let again = try await lb.call("logbook.import", ["path": .string(path)])
        #expect(again["imported"] == 0, "re-importing adds nothing twice")
        #expect(again["duplicates"]?.intValue == Int64(count))
        #expect(try await lb.count() == Int64(count))
        return done
    }

    @Test func foreFlight() async throws {
        let lb = try await LogbookHost.started()
        let done = try await importTwice(lb, "foreflight.csv", format: "foreflight", expect: 3)
        #expect(done["aircraft_created"] == ["OK-SKA", "OK-TWN"])
        let e = try await entries(lb)
        #expect(e[0]["total_min"] == 65)
        #expect(e[0]["off"] == "2026-03-01T08:10:00Z")
        #expect(e[0]["remarks"] == "Nice day, smooth air")
        #expect(e[0]["pic_name"] == "Self")
        #expect(e[0]["sp_se_min"] == 65)
        #expect(e[1]["in"] == "2026-03-03T00:10:00Z", "arrival after midnight rolls to the next day")
        #expect(e[1]["sp_me_min"] == 100, "the aircraft table says multi-engine")
        #expect(e[1]["night_min"] == 100)
        #expect(e[1]["ifr_min"] == 60)
        #expect(e[1]["takeoffs_night"] == 1)
        #expect(e[1]["approaches"] == 3, "Approach1 and Approach2 counts")
        #expect(e[2]["kind"] == "fstd")
        #expect(e[2]["total_min"] == 120)
        #expect(e[2]["fstd_type"] == "Diamond DA42 FNPT II")
        let aircraft = try await lb.call("logbook.aircraft.list")["aircraft"]?.arrayValue ?? []
        #expect(aircraft.first { $0["registration"] == "OK-TWN" }?["type_designator"] == "DA42")
        await lb.stop()
    }

    @Test func logTenPro() async throws {
        let lb = try await LogbookHost.started()
        _ = try await importTwice(lb, "logten.tsv", format: "logten", expect: 2)
        let e = try await entries(lb)
        #expect(e[0]["dual_min"] == 80)
        #expect(e[0]["pic_min"] == 0)
        #expect(e[0]["approaches"] == 2)
        #expect(e[0]["remarks"] == "Training, ILS 24")
        #expect(e[0]["pic_name"] == "J. Instruktor")
        #expect(e[1]["out"] == "2026-04-11T09:00:00Z")
        #expect(e[1]["landings_day"] == 2)
        await lb.stop()
    }

    @Test func mccPilotLogWithSemicolonsAndMinutes() async throws {
        let lb = try await LogbookHost.started()
        _ = try await importTwice(lb, "mccpilotlog.csv", format: "mccpilotlog", expect: 3)
        let e = try await entries(lb)
        #expect(e[0]["total_min"] == 125)
        #expect(e[0]["copilot_min"] == 125)
        #expect(e[0]["mp_min"] == 125, "co-pilot time makes the new aircraft multi-pilot")
        #expect(e[0]["ifr_min"] == 125)
        #expect(e[0]["landings_night"] == 1)
        #expect(e[0]["pic_name"] == "Capt. Dvořák")
        #expect(e[2]["kind"] == "fstd")
        #expect(e[2]["fstd_type"] == "A320 FFS")
        #expect(e[2]["total_min"] == 240)
        await lb.stop()
    }

    @Test func myFlightbookWithLocalTimes() async throws {
        let lb = try await LogbookHost.started()
        _ = try await importTwice(lb, "myflightbook.csv", format: "myflightbook", expect: 2)
        let e = try await entries(lb)
        #expect(e[0]["out"] == "2026-07-04T08:00:00Z", "10:00 in Brno in summer is 08:00 UTC")
        #expect(e[0]["in"] == "2026-07-04T09:00:00Z")
        #expect(e[1]["out"] == "2026-12-04T09:00:00Z", "10:00 in Prague in winter is 09:00 UTC")
        #expect(e[1]["total_min"] == 50)
        #expect(e[1]["takeoffs_day"] == 2, "each landing had its takeoff")
        await lb.stop()
    }

    @Test func badRowsAbortTheImportUnlessSkipped() async throws {
        let lb = try await LogbookHost.started()
        let path = fixture("import/bad-rows.csv")
        let dry = try await lb.call("logbook.import", ["path": .string(path), "dry_run": true])
        let bad = dry["bad_rows"]?.arrayValue ?? []
        #expect(bad.map { $0["line"]?.intValue ?? 0 } == [3, 4, 5, 7, 8])
        #expect(bad.map { $0["field"]?.stringValue ?? "" } == ["arr", "Total Flight Time", "pic", "Block In Time", "FS Day Landings"])
        #expect(bad[0]["reason"]?.stringValue?.contains("QQQQ") == true)
        #expect(dry["would_import"] == 2)

        let refused = try await lb.failure("logbook.import", ["path": .string(path)])
        #expect(refused.code == 1104)
        #expect(refused.data?["bad_row_count"] == 5)
        #expect(try await lb.count() == 0, "one transaction: nothing was imported")
        #expect(try await lb.call("logbook.aircraft.list")["aircraft"]?.arrayValue?.isEmpty == true, "not even the aircraft")

        let skipped = try await lb.call("logbook.import", ["path": .string(path), "skip_invalid": true])
        #expect(skipped["imported"] == 2)
        #expect(try await lb.count() == 2)
        await lb.stop()
    }

    @Test func unusableFilesAndParameters() async throws {
        let lb = try await LogbookHost.started()
        let dir = TemporaryDirectory()
        #expect(try await lb.failure("logbook.import", ["path": .string(dir.file("missing.csv"))]).code == 1106)
        #expect(try await lb.failure("logbook.import", ["path": .string(dir.path)]).code == 1106)
        #expect(try await lb.failure("logbook.import", ["path": "relative.csv"]).data?["param"] == "path")
        let unknown = dir.write("other.csv", "a,b,c\n1,2,3\n")
        #expect(try await lb.failure("logbook.import", ["path": .string(unknown)]).data?["param"] == "format")
        let wrong = try await lb.failure("logbook.import", ["path": .string(fixture("import/logten.tsv")), "format": "mccpilotlog"])
        #expect(wrong.data?["param"] == "path")
        #expect(wrong.message.contains("mcc_DATE"))
        #expect(try await lb.failure("logbook.import", ["path": .string(unknown), "format": "excel"]).data?["param"] == "format")
        #expect(try await lb.count() == 0)
        await lb.stop()
    }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct ExportTests {
    func populate(_ lb: LogbookHost, flights: Int) async throws {
        try await lb.call("logbook.profile.set", ["name": "Jana Nováková"])
        try await lb.addSEP()
        try await lb.call(
            "logbook.aircraft.add",
            ["registration": "OK-TWN", "make": "Diamond", "model": "DA42", "type_designator": "DA42", "engine": "me", "operation": "sp"])
        for i in 0..<flights {
            let day = String(format: "2026-02-%02d", 1 + i % 28)
            let start = 6 * 60 + (i / 28) * 150
            let out = String(format: "%@T%02d:%02d:00Z", day, start / 60, start % 60)
            let end = start + 45 + i % 50
            let inAt = String(format: "%@T%02d:%02d:00Z", day, end / 60, end % 60)
            var p: [String: JSONValue] = [
                "dep": i % 3 == 0 ? "LKTB" : "LKPR", "arr": i % 2 == 0 ? "LKPR" : "LKTB", "out": .string(out), "in": .string(inAt),
                "aircraft": i % 4 == 0 ? "OK-TWN" : "OK-SKA", "remarks": .string("leg \(i), \"quoted\"; with, commas"),
            ]
            if i % 5 == 0 {
                p["function"] = "dual"
                p["pic_name"] = "FI Černý"
            }
            if i % 7 == 0 { p["ifr"] = 30 }
            try await lb.call("logbook.flights.add", .object(p))
        }
        try await lb.call(
            "logbook.fstd.add", ["date": "2026-02-15", "fstd_type": "DA42 FNPT II", "qualification": "CZ-7", "total": 90, "remarks": "IR"])
        try await lb.call("logbook.totals.starting.set", ["total": "250:30", "pic": "200:00", "landings_day": 400])
    }

    @Test func nativeCSVRoundTripsExactly() async throws {
        let source = try await LogbookHost.started()
        try await populate(source, flights: 30)
        let dir = TemporaryDirectory()
        let path = dir.file("logbook.csv")
        let exported = try await source.call("logbook.export", ["path": .string(path), "format": "csv"])
        #expect(exported["entries"] == 31)

        let target = try await LogbookHost.started()
        let imported = try await target.call("logbook.import", ["path": .string(path)])
        #expect(imported["format"] == "native")
        #expect(imported["imported"] == 31)
        func strip(_ list: JSONValue) -> [JSONValue] {
            (list["entries"]?.arrayValue ?? []).map { e in .object(e.objectValue!.filter { $0.key != "id" }) }
        }
        let a = strip(try await source.call("logbook.flights.list", ["limit": 100]))
        let b = strip(try await target.call("logbook.flights.list", ["limit": 100]))
        #expect(a.count == 31)
        #expect(a == b, "every field of every entry survives the round trip")
        let aircraftA = try await source.call("logbook.aircraft.list")
        let aircraftB = try await target.call("logbook.aircraft.list")
        #expect(aircraftA == aircraftB)
        #expect(try await target.call("logbook.import", ["path": .string(path)])["imported"] == 0)
        await source.stop()
        await target.stop()
    }

    /// Remarks a spreadsheet would run as formulas get a leading `'` in the CSV, and the import
    /// takes exactly that quote away: the round trip gives back what was written.
    @Test func formulasInTextAreNeutralisedAndRoundTrip() async throws {
        let source = try await LogbookHost.started()
        try await source.addSEP()
        let remarks = [
            "=HYPERLINK(\"http://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A2)", "'=already quoted", "''@twice",
            "'plain quote", "fine = not a formula",
        ]
        for (i, remark) in remarks.enumerated() {
            try await source.call(
                "logbook.flights.add",
                [
                    "date": .string("2026-03-1\(i)"), "dep": "LKPR", "arr": "LKTB", "out": "08:00", "in": "09:00", "aircraft": "OK-SKA",
                    "remarks": .string(remark), "pic_name": i == 0 ? "=1+1" : "SELF",
                ])
        }
        let dir = TemporaryDirectory()
        let path = dir.file("logbook.csv")
        try await source.call("logbook.export", ["path": .string(path), "format": "csv"])
        let cells = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").flatMap { $0.split(separator: ",") }
        for cell in [
            "\"'=HYPERLINK(\"\"http://evil.example\"\"", "'+cmd|' /C calc'!A0", "'-2+3", "'@SUM(A1:A2)", "''=already quoted", "'''@twice", "'=1+1",
        ] {
            #expect(cells.contains { $0 == cell }, "\(cell) is written neutralised")
        }
        #expect(cells.contains("'plain quote") && cells.contains("fine = not a formula"), "other text is written as it is")
        let target = try await LogbookHost.started()
        #expect(try await target.call("logbook.import", ["path": .string(path)])["imported"] == .int(Int64(remarks.count)))
        let entries = try await target.call("logbook.flights.list", ["limit": 100])["entries"]?.arrayValue ?? []
        #expect(Set(entries.map { $0["remarks"] ?? .null }) == Set(remarks.map(JSONValue.string)), "\(entries.map { $0["remarks"] ?? .null })")
        #expect(entries.contains { $0["pic_name"] == "=1+1" })
        await source.stop()
        await target.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(program: "/usr/bin/pdftotext")))
    func pdfInTheEASALayoutReadsBack() async throws {
        let lb = try await LogbookHost.started()
        try await populate(lb, flights: 20)
        let dir = TemporaryDirectory()
        let path = dir.file("logbook.pdf")
        let r = try await lb.call("logbook.export", ["path": .string(path), "format": "pdf"])
        #expect(r["pages"] == 2, "21 lines at 14 per page")
        let info = try await runCommand("/usr/bin/pdfinfo", [path], environment: ProcessInfo.processInfo.environment)
        #expect(
            info.stdout.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" 3") }, "two of the logbook, one of charts")
        let text = try await runCommand("/usr/bin/pdftotext", ["-layout", path, "-"], environment: ProcessInfo.processInfo.environment).stdout
        #expect(text.contains("PILOT LOGBOOK — Jana Nováková"))
        #expect(text.contains("OK-SKA"))
        #expect(text.contains("OK-TWN"))
        #expect(text.contains("DA42 FNPT II"))
        #expect(text.contains("TOTAL THIS PAGE"))
        #expect(text.contains("TOTAL FROM PREVIOUS PAGES"))
        #expect(text.contains("PILOT'S SIGNATURE"))
        for group in ["1 DATE", "2 DEPARTURE", "6 TOTAL", "8 LANDINGS", "10 PILOT FUNCTION TIME", "11 FSTD SESSION", "12 REMARKS"] {
            #expect(text.contains(group), "column group \(group)")
        }
        // The last page's TOTAL TIME equals starting totals plus every flight.
        let totals = try await lb.call("logbook.totals")
        let grand = totals["grand_total"]?["total_min"]?.intValue ?? 0
        let hhmm = "\(grand / 60):" + String(format: "%02d", grand % 60)
        let pages = text.components(separatedBy: "\u{0C}").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(pages.last?.contains("Flight time by month") == true, "the charts' page comes last")
        #expect(pages.last?.contains("Night and IFR time by month") == true)
        let lastPage = pages.last { $0.contains("TOTAL TIME") } ?? ""
        let totalLine = lastPage.split(separator: "\n").first { $0.contains("TOTAL TIME") } ?? ""
        #expect(totalLine.contains(hhmm), "TOTAL TIME line \(totalLine) shows \(hhmm)")
        let broughtForward = lastPage.split(separator: "\n").first { $0.contains("TOTAL FROM PREVIOUS PAGES") } ?? ""
        let firstPage = try await lb.call("logbook.totals", ["page_size": 14, "page": 1])
        let forward = firstPage["page"]?["total"]?["total_min"]?.intValue ?? 0
        #expect(broughtForward.contains("\(forward / 60):" + String(format: "%02d", forward % 60)))

        #expect(try await lb.failure("logbook.export", ["path": .string(dir.file("no/such/dir/x.pdf")), "format": "pdf"]).code == 1106)
        #expect(try await lb.failure("logbook.export", ["path": .string(dir.file("x.doc")), "format": "doc"]).data?["param"] == "format")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.doc")))
        await lb.stop()
    }

    /// What an examiner asks for: chosen records (`ids`) or a search (`aircraft`, `function`,
    /// `ifr`, …), exported or mailed; the PDF's totals say "selected records" and still carry what
    /// came before as brought forward.
    @Test(.enabled(if: Peers.shouldRun(program: "/usr/bin/pdftotext")))
    func chosenRecordsAreExportedAndSaidToBeSelected() async throws {
        let lb = try await LogbookHost.started()
        try await populate(lb, flights: 12)
        let dir = TemporaryDirectory()
        let all = try await lb.call("logbook.flights.list", ["limit": 100])["entries"]?.arrayValue ?? []
        let twin = all.filter { $0["aircraft"] == "OK-TWN" }
        let chosen = Array(all.filter { $0["aircraft"] == "OK-SKA" }.prefix(3))
        let ids = chosen.compactMap { $0["id"] }
        let csv = try await lb.call("logbook.export", ["path": .string(dir.file("chosen.csv")), "format": "csv", "ids": .array(ids)])
        #expect(csv["entries"] == 3)
        let written = try String(contentsOfFile: dir.file("chosen.csv"), encoding: .utf8)
        #expect(written.split(separator: "\n").count == 4, "a header and the three: \(written)")
        // A search: the same filters as flights.list, and the list's own answer for it.
        let byAircraft = try await lb.call("logbook.export", ["path": .string(dir.file("twin.csv")), "format": "csv", "aircraft": "OK-TWN"])
        #expect(byAircraft["entries"]?.intValue == Int64(twin.count) && !twin.isEmpty)
        let dual = try await lb.call("logbook.flights.list", ["function": "dual", "ifr": false])["total_count"]
        let dualExport = try await lb.call(
            "logbook.export", ["path": .string(dir.file("dual.csv")), "format": "csv", "function": "dual", "ifr": false])
        #expect(dualExport["entries"] == dual && dual != 0)
        #expect(try await lb.call("logbook.flights.list", ["ids": .array(ids)])["total_count"] == 3)
        // The PDF says it holds selected records; without a selection it says what it always said.
        _ = try await lb.call("logbook.export", ["path": .string(dir.file("chosen.pdf")), "format": "pdf", "ids": .array(ids)])
        let text = try await runCommand("/usr/bin/pdftotext", ["-layout", dir.file("chosen.pdf"), "-"], environment: nil).stdout
        #expect(
            text.contains("SELECTED RECORDS, THIS PAGE") && text.contains("TOTAL TIME (BROUGHT FORWARD + SELECTED RECORDS)"), "\(text.prefix(600))")
        #expect(!text.contains("TOTAL THIS PAGE"))
        // Bad selections: named, nothing written.
        // A chosen record outside the dates asked for is named, not quietly left out.
        let outside = try await lb.failure(
            "logbook.export", ["path": .string(dir.file("m.csv")), "format": "csv", "ids": .array(ids), "from_date": "2030-01-01"])
        #expect(outside.data?["param"] == "ids" && outside.message.contains("from_date"), "\(outside.message)")
        let missing = try await lb.failure("logbook.export", ["path": .string(dir.file("m.csv")), "format": "csv", "ids": [999_999]])
        #expect(missing.data?["param"] == "ids" && missing.message.contains("999999"), "\(missing.message)")
        for (ids, named) in [(["x"] as JSONValue, "ids[0]"), ([0], "ids[0]"), (.array(Array(repeating: 1, count: 10_001)), "ids")] {
            let refused = try await lb.failure("logbook.export", ["path": .string(dir.file("b.csv")), "format": "csv", "ids": ids])
            #expect(refused.data?["param"] == .string(named), "\(refused.message)")
        }
        #expect(
            try await lb.failure("logbook.export", ["path": .string(dir.file("b.csv")), "format": "csv", "function": "boss"]).data?["param"]
                == "function")
        #expect(!FileManager.default.fileExists(atPath: dir.file("m.csv")) && !FileManager.default.fileExists(atPath: dir.file("b.csv")))
        await lb.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd")))
    func reportMailCarriesThePDF() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let lb = try await LogbookHost.started { $0.sendMail(through: smtp) }
        try await lb.call("vault.set", ["name": "host/smtp/password", "secret": .string(smtp.password)])
        try await populate(lb, flights: 5)
        #expect(try await lb.failure("logbook.report.mail", ["to": "not an address"]).data?["param"] == "to")
        let r = try await lb.call("logbook.report.mail", ["to": "examiner@example.org", "from_date": "2026-02-01"])
        #expect(r["entries"] == 6)
        // Chosen records mailed: only those; a record not in the logbook is named and nothing is sent.
        let two = Array((try await lb.call("logbook.flights.list")["entries"]?.arrayValue ?? []).prefix(2).compactMap { $0["id"] })
        #expect(try await lb.call("logbook.report.mail", ["to": "examiner@example.org", "ids": .array(two)])["entries"] == 2)
        #expect(try await lb.failure("logbook.report.mail", ["to": "examiner@example.org", "ids": [424_242]]).data?["param"] == "ids")
        let message = try await smtp.message()
        #expect(message["rcpt_tos"] as? [String] == ["examiner@example.org"])
        let data = message["data"] as? String ?? ""
        #expect(data.contains("application/pdf"))
        #expect(data.contains("logbook.pdf"))
        await lb.stop()
    }
}

/// A logbook import of something that is not a plain file, or too large, is refused at once.
@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct HostileFileLogbookTests {
    @Test func importRefusesWhatIsNotAPlainFile() async throws {
        let lb = try await LogbookHost.started()
        let files = HostileFiles()
        for (path, problem) in files.cases {
            for _ in 0..<2 {
                let error = try await lb.failure("logbook.import", ["path": .string(path)])
                #expect(error.code == 1106)
                #expect(error.message.hasPrefix("Cannot use '\(path)': it \(problem)"), "\(error.message)")
            }
        }
        #expect(try await lb.count() == 0)
        await lb.stop()
    }
}

/// A CSV that is UTF-8 but for a few bytes is refused with the line, instead of being read as
/// Latin-1 with every accented name garbled; a file with no UTF-8 at all is still read as Latin-1.
@Suite(.stopsTestHosts) struct ImportEncodingTests {
    @Test func mixedEncodingsAreRefusedNamingTheLine() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKPR", "arr": "LKTB", "out": "2026-03-01T08:00:00Z", "in": "2026-03-01T09:05:00Z", "aircraft": "OK-SKA",
                "pic_name": "Jiří Černý",
            ])
        try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKTB", "arr": "LKPR", "out": "2026-03-02T08:00:00Z", "in": "2026-03-02T09:05:00Z", "aircraft": "OK-SKA", "remarks": "hello",
            ])
        let dir = TemporaryDirectory()
        let path = dir.file("logbook.csv")
        try await lb.call("logbook.export", ["path": .string(path), "format": "csv"])
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let hello = try #require(data.range(of: Data("hello".utf8)))
        data.replaceSubrange(hello, with: [0x68, 0xFF, 0xFE, 0x6F])
        let bad = dir.file("bad.csv")
        try data.write(to: URL(fileURLWithPath: bad))
        let target = try await LogbookHost.started()
        let error = try await target.failure("logbook.import", ["path": .string(bad)])
        #expect(error.code == 1106)
        #expect(error.message == "Cannot use '\(bad)': line 3 is not valid UTF-8 (the rest of the file is); save the file as UTF-8")
        #expect(try await target.count() == 0)
        // Latin-1 throughout (no UTF-8 anywhere) is read as Latin-1.
        let latin = dir.file("latin1.csv")
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "Jiří Černý", with: "Jörg Müller")
        try #require(text.data(using: .isoLatin1)).write(to: URL(fileURLWithPath: latin))
        #expect(try await target.call("logbook.import", ["path": .string(latin)])["imported"] == 2)
        let names = (try await target.call("logbook.flights.list")["entries"]?.arrayValue ?? []).compactMap { $0["pic_name"]?.stringValue }
        #expect(names.contains("Jörg Müller"))
        await lb.stop()
        await target.stop()
    }
}
