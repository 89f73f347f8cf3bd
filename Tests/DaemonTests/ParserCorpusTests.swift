import AssistantTesting
import Foundation
import Testing

/// The parser fuzz target's seed corpus (`Fuzz/parser-corpus`, and every crash added to it once
/// fixed) replayed through the same entry the fuzzer drives: XML and Atom, JSON, iCalendar and
/// the logbook's CSV, STAG's and KOSapi's decoders,
/// the webcam's MJPEG splitter. A crash or hang in any parser fails this test.
@Suite(.timeLimit(.minutes(1))) struct ParserCorpusTests {
    @Test func theCorpusReplaysThroughEveryParser() async throws {
        let corpus = (Peers.packageRoot as NSString).appendingPathComponent("Fuzz/parser-corpus")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus).sorted().map { (corpus as NSString).appendingPathComponent($0) }
        #expect(files.count >= 15)
        // Every parser has seeds: the first byte of each file picks one.
        let selectors = Set(try files.map { try #require(FileManager.default.contents(atPath: $0)?.first).map { $0 % 7 } })
        #expect(selectors == [0, 1, 2, 3, 4, 5, 6])
        let binary = (Binaries.directory as NSString).appendingPathComponent("parser-fuzz")
        let result = try await runCommand(binary, files, environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "replayed \(files.count)\n")
    }
}
