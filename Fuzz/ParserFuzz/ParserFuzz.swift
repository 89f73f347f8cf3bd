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
            _ = TimetableEvent.from(row, role: "student")
            _ = ExamTerm.from(row, names: ["X": "Y"])
            _ = GradeRow(row, subjects: ["KIV/PPA1": (name: "Programování", credits: 6)])
            _ = StagService.meal(row)
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
            _ = KOSService.exam(entry, registered: ["1"])
            _ = KOSService.internalCode(entry)
        }
        _ = KOSService.slots(document.entries, grid: .fit, language: "cs")
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
    }
}

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
            print("replayed \(replayed)")
        }
    }
#endif
