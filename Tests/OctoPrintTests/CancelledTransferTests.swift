import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// A client that hangs up in the middle of a transfer: the call is cancelled, its HTTP request
/// is aborted, and nothing half-written is left on the printer or here.
@Suite(.stopsTestHosts, .timeLimit(.minutes(5)))
struct CancelledTransferTests {
    /// `megabytes` of G-code comments.
    static func bigFile(in dir: TemporaryDirectory, _ name: String, megabytes: Int) throws -> String {
        let path = dir.file(name)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let line = Data("; padding padding padding padding padding padding padding padding padding padding pad\n".utf8)
        let chunk = Array(repeating: line, count: (1 << 20) / line.count).reduce(Data(), +)
        for _ in 0..<megabytes { try handle.write(contentsOf: chunk) }
        try handle.close()
        return path
    }

    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func aHangUpMidUploadLeavesNoFileOnThePrinterAndNothingHere() async throws {
        try await OctoPrintHost.with { op in
            let dir = TemporaryDirectory()
            let big = try Self.bigFile(in: dir, "big.gcode", megabytes: 256)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
            let connection = try await op.host.connect()
            var notifications = connection.notifications.makeAsyncIterator()
            let outcome = try await withThrowingTaskGroup(of: Result<JSONValue, RPCError>?.self) { group in
                group.addTask {
                    do { return try await connection.callResult("octoprint.files.upload", params: ["file": .string(big)]) } catch { return nil }
                }
                // Hang up at the first sign of bytes going out, far from the end.
                var sent: Int64?
                while let note = await notifications.next() {
                    if note.method == "progress", let done = note.params["done"]?.intValue, done > 0 {
                        sent = done
                        break
                    }
                }
                #expect(sent.map { $0 < Int64(size) / 2 } == true, "the hang-up came mid-upload (\(String(describing: sent)) of \(size) bytes)")
                await connection.close()
                return try await group.next() ?? nil
            }
            #expect(outcome == nil, "the client saw its connection close, not a reply")
            // The call ends by cancellation; had it run on, the whole file would be on the printer now.
            await op.host.host.server.waitUntilNoCallsInFlight()
            let files = try await op.call("octoprint.files.list")["files"]?.arrayValue ?? []
            #expect(files.compactMap { $0["name"]?.stringValue } == [], "no partial file on the printer")
            #expect(!FileManager.default.fileExists(atPath: op.octoprint.directory.file("uploads/big.gcode")))
            // Nothing written beside the source here.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["big.gcode"])
            // The printer still takes uploads.
            try await op.call("octoprint.files.upload", ["file": .string(OctoPrintRESTTests.cube(in: dir))])
            let after = try await op.call("octoprint.files.list")["files"]?.arrayValue ?? []
            #expect(after.compactMap { $0["name"]?.stringValue } == ["cube.gcode"])
        }
    }
}
