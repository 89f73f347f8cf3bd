import AssistantTesting
import Foundation
import PluginKit
import Testing

@testable import OctoPrint

/// A download is refused before it starts when it is over `download_max_mb`, or when it would
/// leave less than 5 % of the disk free; a server that hides the size is cut off at the limit.
struct DownloadRoomTests {
    @Test func overTheLimitOrTheDisksLastFivePercentIsRefused() throws {
        let folder = NSTemporaryDirectory()
        let limit: Int64 = 1 << 20
        #expect(throws: Never.self) { try OctoPrintService.checkRoom(for: 1000, limit: limit, folder: folder) }
        let tooLarge = #expect(throws: RPCError.self) { try OctoPrintService.checkRoom(for: limit + 1, limit: limit, folder: folder) }
        #expect(tooLarge?.message.contains("larger than 1 MB (plugins.octoprint.download_max_mb)") == true, "\(tooLarge?.message ?? "")")

        var disk = statvfs()
        try #require(statvfs(folder, &disk) == 0)
        let total = Int64(disk.f_blocks) * Int64(disk.f_frsize)
        let free = Int64(disk.f_bavail) * Int64(disk.f_frsize)
        // Just enough to leave 5 % free passes; one more byte does not.
        let fits = free - total / 20
        if fits > 0 {
            #expect(throws: Never.self) { try OctoPrintService.checkRoom(for: fits, limit: .max, folder: folder) }
        }
        let full = #expect(throws: RPCError.self) { try OctoPrintService.checkRoom(for: max(fits, 0) + 1, limit: .max, folder: folder) }
        #expect(full?.message.contains("would leave less than 5 % of the disk free") == true)
        #expect(full?.data?["param"] == "out")
    }
}

/// `octoprint.files.upload url=`: a file fetched from an address (a loopback server), then
/// uploaded as a local file is; one too big, or too slow, is cut off and nothing is uploaded.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct UploadFromAddressTests {
    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func aFileFetchedFromAnAddressIsUploaded() async throws {
        let upstream = try await HTTPUpstreamPeer()
        defer { upstream.stop() }
        try await OctoPrintHost.with(options: ["download_max_mb": 1, "fetch_timeout_s": 2]) { op in
            let uploaded = try await op.call("octoprint.files.upload", ["url": .string(upstream.baseURL + "/files/fetched.gcode")])
            #expect(uploaded["done"] == true, "\(uploaded)")
            let listed = try await op.call("octoprint.files.list")
            #expect(listed.encodedString().contains("fetched.gcode"), "\(listed)")
            // A download link that redirects, as most do.
            _ = try await op.call("octoprint.files.upload", ["url": .string(upstream.baseURL + "/redirect/moved.gcode")])
            #expect(try await op.call("octoprint.files.list").encodedString().contains("moved.gcode"))
            let count = { (try await op.call("octoprint.files.list")).encodedString().components(separatedBy: "\"name\"").count }
            let before = try await count()
            // Too big (counted as it comes, no size announced), too slow, not there, not an address: named, nothing uploaded.
            for (address, said) in [
                (upstream.baseURL + "/stream/big.gcode", "larger than 1 MB"), (upstream.baseURL + "/slow/slow.gcode", "did not finish within 2 s"),
                (upstream.baseURL + "/status/404/missing.gcode", "answered 404"), ("ftp://127.0.0.1/x.gcode", "not an http"),
                ("http://me:pw@127.0.0.1/x.gcode", "carries a user"), (upstream.baseURL + "/", "file's name"),
            ] {
                let refused = try await op.failure("octoprint.files.upload", ["url": .string(address)])
                #expect(refused.data?["param"] == "url" && refused.message.contains(said), "\(address): \(refused.message)")
                #expect(!refused.message.contains(":pw@"))
            }
            #expect(try await count() == before, "nothing was uploaded")
            // One of file and url.
            #expect(try await op.failure("octoprint.files.upload", [:]).data?["param"] == "file")
            #expect(
                try await op.failure("octoprint.files.upload", ["file": "/tmp/x.gcode", "url": .string(upstream.baseURL + "/files/a.gcode")])
                    .data?["param"] == "url")
            // No fetch folder is left behind.
            let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("assistantd-fetch-") }
            #expect(left.isEmpty, "\(left)")
        }
    }
}
