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
