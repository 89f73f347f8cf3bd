import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct WebcamTests {
    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func infoSnapshotAndFrames() async throws {
        try await OctoPrintHost.with { op in
            let cam = try await WebcamPeer()
            defer { cam.stop() }
            #expect(try await op.failure("octoprint.webcam.snapshot", ["out": "/tmp/x.jpg"]).code == 1011, "no snapshot URL yet")
            try await op.call(
                "octoprint.settings.patch",
                [
                    "settings": ["plugins": ["classicwebcam": ["snapshot": .string(cam.snapshotURL), "stream": .string(cam.streamURL)]]]
                ])
            let info = try await op.call("octoprint.webcam.info")
            let first = info["webcams"]?.arrayValue?.first
            #expect(first?["snapshot_url"]?.stringValue == cam.snapshotURL)
            #expect(first?["stream_url"]?.stringValue == cam.streamURL)
            let name = first?["name"] ?? .null
            #expect(try await op.call("octoprint.webcam.info", ["name": name])["snapshot_url"]?.stringValue == cam.snapshotURL)
            #expect(try await op.failure("octoprint.webcam.info", ["name": "garage"]).data?["param"] == "name")

            let dir = TemporaryDirectory()
            let shot = try await op.call("octoprint.webcam.snapshot", ["out": .string(dir.file("now.jpg"))])
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: dir.file("now.jpg")))
            #expect(shot["bytes"]?.intValue == Int64(jpeg.count))
            #expect(jpeg.prefix(2) == Data([0xFF, 0xD8]) && jpeg.suffix(2) == Data([0xFF, 0xD9]))

            let frames = try await op.call("octoprint.webcam.frames", ["out_dir": .string(dir.path), "count": 5])
            let files = frames["files"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(files.count == 5)
            var seen = Set<Data>()
            for f in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: f))
                #expect(data.prefix(2) == Data([0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9]), "\(f) is a whole JPEG")
                seen.insert(data)
            }
            #expect(seen.count == 5, "five different frames")
            #expect(
                try await op.failure("octoprint.webcam.frames", ["out_dir": .string(dir.file("missing")), "count": 2]).data?["param"] == "out_dir")
            #expect(try await op.failure("octoprint.webcam.frames", ["out_dir": .string(dir.path), "count": 0]).data?["param"] == "count")
        }
    }
}
