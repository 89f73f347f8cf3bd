import Foundation
import HostCore
import KOS
import Logbook
import OctoPrint
import Stag
import Tasks

// libFuzzer's entry point for what upstreams and files hand the daemon: the first byte of an
// input picks the parser, the rest is its input. 0: the XML tree and Atom (CalDAV, KOSapi);
// 1: the JSON parser (STAG, OctoPrint, the socket); 2: the iCalendar reader (imports, feeds,
// CalDAV); 3: the logbook's CSV table and format detection; 4: STAG's decoders (timetable
// actions, exam terms, grades, canteen meals, the login callback) over parsed JSON; 5: KOSapi's
// decoders (exams, timetable slots, course codes, office hours, week lists) over parsed Atom;
// 6: OctoPrint's webcam MJPEG splitter (a Content-Type line, then the stream). Each plugin
// offers its parsers through one `package` entry (`StagFuzzing`, …), so this target needs no
// `@testable` and builds in release with the rest of the package.
// Built by `scripts/fuzz parsers` with `-sanitize=fuzzer,address -D FUZZING`; without FUZZING,
// `main` replays the files it is given (the test suite replays `Fuzz/parser-corpus` through it).

func parse(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let body = Array(bytes.dropFirst())
    switch selector % 7 {
    case 0:
        _ = try? XMLNode.parse(Data(body), limits: .default)
        _ = try? AtomDocument(parsing: Data(body))
    case 1: _ = try? JSONValue.parse(bytes: body)
    case 2: TasksFuzzing.parseCalendar(body)
    case 3: LogbookFuzzing.parse(body, scratch: scratchFile)
    case 4: StagFuzzing.parse(body)
    case 5: KOSFuzzing.parse(body)
    default: OctoPrintFuzzing.splitStream(body)
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
