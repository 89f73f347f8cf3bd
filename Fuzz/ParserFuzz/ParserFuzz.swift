import Foundation
import HostCore

@testable import KOS
@testable import Logbook
@testable import Stag
@testable import Tasks

// libFuzzer's entry point for what upstreams and files hand the daemon: the first byte of an
// input picks the parser, the rest is its input. 0: the XML tree and Atom (CalDAV, KOSapi);
// 1: the JSON parser (STAG, OctoPrint, the socket); 2: the iCalendar reader (imports, feeds,
// CalDAV); 3: the logbook's CSV table and format detection; 4: STAG's decoders (timetable
// actions, exam terms, grades, canteen meals, the login callback) over parsed JSON; 5: KOSapi's
// decoders (exams, timetable slots, course codes, office hours, week lists) over parsed Atom.
// Built by `scripts/fuzz parsers`
// with `-sanitize=fuzzer,address -D FUZZING -enable-testing`; without FUZZING, `main` replays
// the files it is given (the test suite replays `Fuzz/parser-corpus` through it).

let now = Date(timeIntervalSince1970: 1_780_000_000)
let utc = Zone(TimeZone(identifier: "UTC") ?? .current)

func parse(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let body = Array(bytes.dropFirst())
    switch selector % 6 {
    case 4:
        let text = String(decoding: body, as: UTF8.self)
        _ = try? StagCallback.parse(url: text)
        _ = StagCallback.decodeInfo(text)
        guard let json = try? JSONValue.parse(bytes: body) else { return }
        for row in json.arrayValue ?? json.objectValue.map({ Array($0.values) }) ?? [json] {
            _ = TimetableEvent(stag: row, role: "student")?.json
            _ = ExamTerm(stag: row, names: ["X": "Y"])?.json
            _ = GradeRow(stag: row, subjects: ["KIV/PPA1": (name: "Programování", credits: 6)])?.json
            _ = StagRows.decode(row, as: StagRow.Menu.self).map { try? JSONStreamEncoder.encode($0.soups.map(CanteenMenu.Meal.init)) }
            _ = StagRows.decode(row, as: StagRow.SubjectInfo.self).map { try? JSONStreamEncoder.encode(SubjectDetails($0, subject: "X/Y")) }
            _ = StagRows.decode(row, as: StagRow.Teacher.self).map { try? JSONStreamEncoder.encode(TeacherDetails($0, id: 1)) }
            _ = StagRows.decode(row, as: StagRow.Student.self).map { try? JSONStreamEncoder.encode(StudentDetails($0, id: "A")) }
            _ = StagRows.decode(row, as: StagRow.Thesis.self).map { try? JSONStreamEncoder.encode(Thesis($0)) }
            _ = StagRows.decode(row, as: StagRow.Room.self).map { try? JSONStreamEncoder.encode(Room($0, addresses: [:])) }
            _ = StagRows.decode(row, as: StagRow.Building.self)?.address
            _ = StagIdentity(row)
            for value in row.arrayValue ?? row.objectValue.map({ Array($0.values) }) ?? [] {
                _ = StagValue.date(value)
                _ = StagValue.dateTime(value)
                _ = StagValue.time(value)
                _ = StagValue.personName(value)
                _ = StagValue.quotedNames(StagValue.text(value))
            }
        }
    case 5:
        guard let document = try? AtomDocument(parsing: Data(body)) else {
            _ = KOSService.weeks(String(decoding: body, as: UTF8.self))
            return
        }
        for entry in document.entries {
            _ = KOSExam(entry, registered: ["1"])?.json
            _ = KOSService.internalCode(entry)
            _ = try? JSONStreamEncoder.encode(FoundCourse(entry, language: "cs"))
            _ = try? JSONStreamEncoder.encode(CourseParallel(entry, course: "X", slots: []))
            _ = try? JSONStreamEncoder.encode(TeacherSlot(entry, grid: .fit))
        }
        _ = KOSService.slots(document.entries, grid: .fit, language: "cs").map(\.json)
        if let table = try? JSONValue.parse(bytes: body) { _ = KOSService.officeHours(table) }
    case 0:
        _ = try? XMLNode.parse(Data(body), limits: .default)
        _ = try? AtomDocument(parsing: Data(body))
    case 1:
        _ = try? JSONValue.parse(bytes: body)
    case 2:
        let reader = ICSReader(text: String(decoding: body, as: UTF8.self), defaultZone: utc, now: now)
        _ = reader.items.count + reader.problems.count
    default:
        let text = String(decoding: body, as: UTF8.self)
        let header = text.prefix { $0 != "\n" && $0 != "\r" }
        _ = ImportFormat.detect(String(text.prefix(4000)))
        _ = try? CSVTable.parse(text, delimiter: CSVTable.delimiter(of: header))
        importLogbook(body)
    }
}

/// The logbook import as `logbook.import` runs it, from the file on: the encoding pass, the
/// batches of records (read in small chunks, so that records and characters fall across their
/// ends), format detection and every row through the importer, into a sink that keeps nothing.
func importLogbook(_ bytes: [UInt8]) {
    let path = scratchFile
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

let scratchFile = NSTemporaryDirectory() + "parser-fuzz-\(getpid()).csv"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    parse(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if FUZZING
    // SwiftPM links an executable target's entry point as `<target>_main`; libFuzzer's driver is
    // started from there (as in Fuzz/RPCFuzz).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    @_cdecl("parser_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var argc = argc
        var argv = argv
        atexit { _ = unlink(scratchFile) }
        return runFuzzerDriver(&argc, &argv, fuzzOne)
    }
#else
    @main struct Replay {
        static func main() {
            var replayed = 0
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                    exit(66)
                }
                parse([UInt8](data))
                replayed += 1
            }
            unlink(scratchFile)
            print("replayed \(replayed)")
        }
    }
#endif
