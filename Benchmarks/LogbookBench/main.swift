import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Logbook

// The logbook benchmark (issue 4): 100 000 generated flights imported from the native CSV, then
// logbook.totals, logbook.limits, logbook.currency and logbook.ratings through the socket, each beside the same
// aggregate run directly in the sqlite3 shell on the same database (the floor), and a PDF of
// about 1 000 flights; the duty records the import makes, and an attachment at its 20 MB bound. Run with
// scripts/bench-logbook (release build).

let flightCount = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 100_000
let runs = 30
let at = "2026-11-20"
/// Each flight's duty from an hour before block off to half an hour after block on, so a day's legs
/// make one duty; LOGBOOK_BENCH_NO_DUTY=1 leaves duty out, to see what carrying it costs the import.
let withDuty = ProcessInfo.processInfo.environment["LOGBOOK_BENCH_NO_DUTY"] == nil

func p95(_ values: [Double]) -> Double { values.sorted()[min(values.count - 1, Int(Double(values.count) * 0.95))] }

/// The native CSV's header (see `logbook.export format=csv`).
let header = """
    kind,date,dep,arr,out,off,on,in,registration,aircraft_make,aircraft_model,aircraft_variant,aircraft_type,aircraft_engine,\
    aircraft_operation,aircraft_category,aircraft_class,\
    sp_se_min,sp_me_min,mp_min,total_min,night_min,ifr_min,pic_min,spic_min,picus_min,copilot_min,dual_min,instructor_min,examiner_min,\
    takeoffs_day,takeoffs_night,landings_day,landings_night,approaches,pic_name,remarks,duty_start,duty_end,fstd_type,fstd_qualification
    """

func generateCSV(flights: Int) -> String {
    struct Plane { var reg, make, model, type, engine, operation, cls: String }
    let fleet = [
        Plane(reg: "OK-SKA", make: "Cessna", model: "172", type: "C172", engine: "se", operation: "sp", cls: "SEP(land)"),
        Plane(reg: "OK-SKB", make: "Piper", model: "PA-28", type: "P28A", engine: "se", operation: "sp", cls: "SEP(land)"),
        Plane(reg: "OK-TWN", make: "Diamond", model: "DA42", type: "DA42", engine: "me", operation: "sp", cls: "MEP(land)"),
        Plane(reg: "OK-NEO", make: "Airbus", model: "A320", type: "A320", engine: "me", operation: "mp", cls: "A320"),
        Plane(reg: "OK-ATR", make: "ATR", model: "72", type: "AT76", engine: "me", operation: "mp", cls: "ATR42/72"),
    ]
    let airports = ["LKPR", "LKTB", "LKMT", "EGLL", "EDDM", "LOWW", "EPWA", "LZIB", "EDDF", "LFPG"]
    var generator = SystemRandomNumberGenerator()
    let firstDay = 9496  // 1996-01-01
    let lastDay = 20_777  // 2026-11-20
    let perDay = Double(flights) / Double(lastDay - firstDay + 1)
    var lines = [header]
    lines.reserveCapacity(flights + 1)
    var i = 0
    var day = firstDay
    var slot = 0
    var carry = 0.0
    while i < flights {
        carry += perDay
        while carry >= 1 && i < flights {
            carry -= 1
            let p = fleet[i % fleet.count]
            let total = 30 + Int.random(in: 0...210, using: &generator)
            let out = day * 1440 + 5 * 60 + slot * 95
            slot = (slot + 1) % 10
            func iso(_ minute: Int) -> String {
                let d = minute / 1440
                let m = minute % 1440
                let (y, mo, da) = civil(d)
                return String(format: "%04d-%02d-%02dT%02d:%02d:00Z", y, mo, da, m / 60, m % 60)
            }
            let (y, mo, da) = civil(day)
            let night = Int.random(in: 0...3, using: &generator) == 0 ? min(total, Int.random(in: 0...120, using: &generator)) : 0
            let se = p.operation == "sp" && p.engine == "se" ? total : 0
            let me = p.operation == "sp" && p.engine == "me" ? total : 0
            let mp = p.operation == "mp" ? total : 0
            let pic = i % 3 == 0 ? 0 : total
            let copilot = total - pic
            let dep = airports[i % airports.count]
            let arr = airports[(i / 3) % airports.count]
            lines.append(
                "flight,\(String(format: "%04d-%02d-%02d", y, mo, da)),\(dep),\(arr),\(iso(out)),,,\(iso(out + total)),\(p.reg),\(p.make),\(p.model),"
                    + ",\(p.type),\(p.engine),\(p.operation),aeroplane,\(p.cls),"
                    + "\(se),\(me),\(mp),\(total),\(night),\(i % 4 == 0 ? total : 0),\(pic),0,0,\(copilot),0,0,0,"
                    + "\(night > 0 ? 0 : 1),\(night > 0 ? 1 : 0),\(night > 0 ? 0 : 1),\(night > 0 ? 1 : 0),\(i % 5),"
                    + "\(pic > 0 ? "SELF" : "Capt. Novák"),generated \(i),"
                    + (withDuty ? "\(iso(out - 60)),\(iso(out + total + 30)),," : ",,,")
            )
            i += 1
        }
        day += 1
        slot = 0
    }
    return lines.joined(separator: "\n") + "\n"
}

/// Year, month, day of a day number (days since 1970-01-01), in UTC.
func civil(_ n: Int) -> (Int, Int, Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(n) * 86_400))
    return (c.year!, c.month!, c.day!)
}

let directory = TemporaryDirectory(prefix: "logbook-bench")
let host = try await TestHost.started(plugins: [LogbookPlugin()])
let connection = try await host.connect()
func call(_ method: String, _ params: JSONValue) async throws -> JSONValue {
    try await connection.callResult(method, params: params).get()
}

print("Generating \(flightCount) flights…")
let csvPath = directory.file("flights.csv")
try generateCSV(flights: flightCount).write(toFile: csvPath, atomically: true, encoding: .utf8)
let csvBytes = (try FileManager.default.attributesOfItem(atPath: csvPath)[.size] as? Int) ?? 0

let clock = ContinuousClock()
var imported: JSONValue = .null
let importTime = try await clock.measure { imported = try await call("logbook.import", ["path": .string(csvPath)]) }
print("import: \(imported["imported"]?.intValue ?? 0) flights (\(csvBytes / 1_000_000) MB CSV) in \(String(format: "%.2f", ms(importTime) / 1000)) s")

let database = host.directory.file("data") + "/assistant.sqlite"
let sums = """
    COALESCE(SUM(e.kind = 'flight'), 0), COALESCE(SUM(e.kind = 'fstd'), 0), COALESCE(SUM(e.sp_se_min), 0), COALESCE(SUM(e.sp_me_min), 0),
    COALESCE(SUM(e.mp_min), 0), COALESCE(SUM(CASE WHEN e.kind = 'flight' THEN e.total_min ELSE 0 END), 0), COALESCE(SUM(e.night_min), 0),
    COALESCE(SUM(e.ifr_min), 0), COALESCE(SUM(e.pic_min), 0), COALESCE(SUM(e.spic_min), 0), COALESCE(SUM(e.picus_min), 0),
    COALESCE(SUM(e.copilot_min), 0), COALESCE(SUM(e.dual_min), 0), COALESCE(SUM(e.instructor_min), 0), COALESCE(SUM(e.examiner_min), 0),
    COALESCE(SUM(e.takeoffs_day), 0), COALESCE(SUM(e.takeoffs_night), 0), COALESCE(SUM(e.landings_day), 0), COALESCE(SUM(e.landings_night), 0),
    COALESCE(SUM(e.approaches), 0), COALESCE(SUM(CASE WHEN e.kind = 'fstd' THEN e.total_min ELSE 0 END), 0)
    """
// The same aggregates the plugin runs (Rules/Totals.swift, Rules/FlightTimeLimits.swift, Commands/ReportCommands.swift).
let floors: [String: String] = [
    "logbook.totals": "SELECT \(sums) FROM logbook_entries e WHERE e.deleted_at IS NULL",
    // Flight time per day over the widest window, the duty records of the 28 days (start bounded
    // below by the longest duty, 36 h), and whether any duty was logged in the year.
    "logbook.limits": """
    SELECT date, SUM(total_min) FROM logbook_entries WHERE kind = 'flight' AND deleted_at IS NULL AND date >= '2025-12-01'
    AND date <= '2026-11-20' GROUP BY date;
    SELECT * FROM logbook_duties WHERE start_at < 29920320 AND start_at > 29877840 AND end_at > 29880000;
    SELECT EXISTS (SELECT 1 FROM logbook_duties WHERE start_at < 29920320 AND start_at > 29391120)
    """,
    "logbook.ratings": """
    SELECT * FROM logbook_certificates WHERE kind = 'rating' ORDER BY expiry_date, id;
    SELECT id, date, registration, total_min, pic_min + spic_min, takeoffs_day + takeoffs_night, landings_day + landings_night, dual_min
    FROM logbook_entries WHERE kind = 'flight' AND deleted_at IS NULL AND date >= '2026-03-31' AND date <= '2026-11-20'
    """,
    "logbook.currency": """
    SELECT registration, date, takeoffs_day, takeoffs_night, landings_day, landings_night, pic_min + spic_min FROM logbook_entries
    WHERE kind = 'flight' AND deleted_at IS NULL AND date > '2024-10-20' AND date <= '2026-11-20' ORDER BY date DESC
    """,
]

print("")
print("| command (\(flightCount) flights) | median | p95 | sqlite3 shell floor | ratio |")
print("|---|---|---|---|---|")
_ = try await call("logbook.certificates.add", ["kind": "rating", "class_rating": "SEP(land)", "expiry_date": "2027-03-31"])
_ = try await call("logbook.certificates.add", ["kind": "rating", "class_rating": "MEP(land)", "expiry_date": "2027-03-31"])
for method in ["logbook.totals", "logbook.limits", "logbook.currency", "logbook.ratings"] {
    let params: JSONValue = method == "logbook.totals" ? [:] : ["at": .string(at)]
    for _ in 0..<3 { _ = try await call(method, params) }
    var times: [Double] = []
    for _ in 0..<runs { times.append(ms(try await clock.measure { _ = try await call(method, params) })) }
    let floor = try SQLiteShellFloor.milliseconds(database, floors[method]!, runs: runs)
    print(String(format: "| `%@` | %.1f ms | %.1f ms | %.1f ms | %.2f× |", method, median(times), p95(times), floor, median(times) / floor))
    if method == "logbook.totals" {
        // What the plugin actually reads: the trigger-kept month sums (Rules/Totals.swift).
        // Rows there stand for `entries` entries each, so the counts are weighted as the plugin weights them.
        let monthSums =
            sums
            .replacingOccurrences(of: "SUM(e.kind = 'flight')", with: "SUM(CASE WHEN e.kind = 'flight' THEN e.entries ELSE 0 END)")
            .replacingOccurrences(of: "SUM(e.kind = 'fstd')", with: "SUM(CASE WHEN e.kind = 'fstd' THEN e.entries ELSE 0 END)")
        let months = try SQLiteShellFloor.milliseconds(database, "SELECT \(monthSums) FROM logbook_month_totals e", runs: runs)
        print(String(format: "| `%@` (floor: the month sums it reads) | | | %.1f ms | %.2f× |", method, months, median(times) / months))
    }
}

let toDay = 20_777
let fromDay = toDay - 112
let (fy, fm, fd) = civil(fromDay)
var pdf: JSONValue = .null
let pdfTime = try await clock.measure {
    pdf = try await call(
        "logbook.export",
        [
            "path": .string(directory.file("logbook.pdf")), "format": "pdf", "from_date": .string(String(format: "%04d-%02d-%02d", fy, fm, fd)),
            "to_date": .string(at),
        ])
}
print("")
print(String(format: "PDF: %d entries, %d pages in %.2f s", pdf["entries"]?.intValue ?? 0, pdf["pages"]?.intValue ?? 0, ms(pdfTime) / 1000))
var csv: JSONValue = .null
let csvTime = try await clock.measure { csv = try await call("logbook.export", ["path": .string(directory.file("all.csv")), "format": "csv"]) }
print(String(format: "CSV export: %d entries in %.2f s", csv["entries"]?.intValue ?? 0, ms(csvTime) / 1000))
var dry: JSONValue = .null
let dryTime = try await clock.measure { dry = try await call("logbook.import", ["path": .string(csvPath), "dry_run": true]) }
print(String(format: "re-import dry run: %d duplicates found in %.2f s", dry["duplicates"]?.intValue ?? 0, ms(dryTime) / 1000))

// Duty records: made from the flights' duty times by the import (legs of a day merged), listed a
// page at a time with each duty's flights.
let dutyCount = try await call("logbook.duty.list", ["limit": 1])["total_count"]?.intValue ?? 0
var dutyTimes: [Double] = []
for _ in 0..<runs { dutyTimes.append(ms(try await clock.measure { _ = try await call("logbook.duty.list", [:]) })) }
print(String(format: "duty records made by the import: %d; logbook.duty.list (50 with their flights): %.1f ms median", dutyCount, median(dutyTimes)))

// Logging one flight into 100 000: with duty times (its duty record made again in the same
// transaction) beside without.
var withDutyTimes: [Double] = []
var withoutDutyTimes: [Double] = []
for n in 0..<runs {
    let day = String(format: "2026-12-%02d", 1 + n % 28)
    let hour = 6 + n / 28 * 4
    func leg(_ base: Int) -> JSONValue {
        [
            "date": .string(day), "dep": "LKPR", "arr": "LKTB", "out": .string(String(format: "%02d:00", hour + base)),
            "in": .string(String(format: "%02d:50", hour + base)), "aircraft": "OK-SKA",
        ]
    }
    var dutyLeg = leg(0).objectValue!
    dutyLeg["duty_start"] = .string(String(format: "%02d:00", hour - 1 < 0 ? 0 : hour - 1))
    dutyLeg["duty_end"] = .string(String(format: "%02d:30", hour + 3))
    withDutyTimes.append(ms(try await clock.measure { _ = try await call("logbook.flights.add", .object(dutyLeg)) }))
    withoutDutyTimes.append(ms(try await clock.measure { _ = try await call("logbook.flights.add", leg(2)) }))
}
print(
    String(
        format: "logbook.flights.add into 100 000: with duty times %.2f ms median, without %.2f ms (%.2f×)", median(withDutyTimes),
        median(withoutDutyTimes), median(withDutyTimes) / median(withoutDutyTimes)))

// An attachment at the size bound (20 MB), kept in the database, against the sqlite3 shell
// inserting the same file (readfile) into a fresh table; and written back out.
let scan = directory.file("scan.pdf")
var bytes = [UInt8]("%PDF-1.7\n".utf8)
var rng = SystemRandomNumberGenerator()
bytes += (0..<(20 << 20) - 32).map { _ in UInt8.random(in: 0...255, using: &rng) }
bytes += [UInt8]("\n%%EOF\n".utf8)
_ = FileManager.default.createFile(atPath: scan, contents: Data(bytes))
let firstID = try await call("logbook.flights.list", ["limit": 1])["entries"]?.arrayValue?.first?["id"] ?? 1
var attached: JSONValue = .null
let attachTime = try await clock.measure {
    attached = try await call("logbook.attachments.add", ["record": .string("\(firstID.intValue ?? 1)"), "path": .string(scan)])
}
let getTime = try await clock.measure {
    _ = try await call("logbook.attachments.get", ["id": attached["id"] ?? 1, "out": .string(directory.file("back.pdf"))])
}
func shell(_ script: String) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [directory.file("floor.sqlite"), script]
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    return ms(ContinuousClock.now - start)
}
let insertFloor = try shell("CREATE TABLE IF NOT EXISTS t(b BLOB); INSERT INTO t VALUES (readfile('\(scan)'));") - (try shell("SELECT 1;"))
let writeFloor = try shell("SELECT writefile('\(directory.file("floor.pdf"))', b) FROM t LIMIT 1;") - (try shell("SELECT 1;"))
print(
    String(
        format: "attachment of 20 MB: added in %.0f ms (sqlite3 shell inserting it: %.0f ms, %.2f×); "
            + "written out in %.0f ms (shell: %.0f ms, %.2f×)",
        ms(attachTime), insertFloor, ms(attachTime) / insertFloor, ms(getTime), writeFloor, ms(getTime) / writeFloor))
if let keep = ProcessInfo.processInfo.environment["LOGBOOK_BENCH_KEEP"] {
    _ = try await call("backup", ["path": .string(keep)])
    print("database kept at \(keep)")
}
await connection.close()
await host.stop()
