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

    /// A camera served elsewhere than OctoPrint says: its addresses set on the printer replace the
    /// first webcam's, and the printer's API key does not go to it (another origin).
    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func aCameraOfItsOwnGetsNoCredentials() async throws {
        try await OctoPrintHost.with { op in
            let cam = try await WebcamPeer()
            defer { cam.stop() }
            let printer = try #require(try await op.call("octoprint.printers.list")["printers"]?.arrayValue?.first?["name"])
            // Bad addresses: named, nothing saved.
            for (param, bad) in [
                ("snapshot_url", "ftp://127.0.0.1/x.jpg"), ("snapshot_url", "not an address"), ("stream_url", "http://me:secret@127.0.0.1/s"),
                ("stream_url", "http:///nohost"), ("snapshot_url", "http://127.0.0.1/cgi-bin/api.cgi?cmd=Snap&user=admin&password=secret"),
            ] {
                let refused = try await op.failure("octoprint.printers.update", .object(["name": printer, param: .string(bad)]))
                #expect(refused.data?["param"] == .string(param), "\(bad): \(refused.message)")
                #expect(!refused.message.contains("secret"))
            }
            #expect(try await op.call("octoprint.printers.list")["printers"]?.arrayValue?.first?["snapshot_url"] == nil)
            try await op.call(
                "octoprint.printers.update", ["name": printer, "snapshot_url": .string(cam.snapshotURL), "stream_url": .string(cam.streamURL)])
            let listed = try await op.call("octoprint.printers.list")["printers"]?.arrayValue?.first
            #expect(listed?["snapshot_url"]?.stringValue == cam.snapshotURL && listed?["stream_url"]?.stringValue == cam.streamURL)
            let info = try await op.call("octoprint.webcam.info")["webcams"]?.arrayValue?.first
            #expect(info?["snapshot_url"]?.stringValue == cam.snapshotURL && info?["can_snapshot"] == true, "\(info ?? .null)")
            let dir = TemporaryDirectory()
            _ = try await op.call("octoprint.webcam.snapshot", ["out": .string(dir.file("own.jpg"))])
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("own.jpg"))).prefix(2) == Data([0xFF, 0xD8]))
            let asked = try JSONValue.decode(try await Browser.open("http://127.0.0.1:\(cam.port)/asked.json").body)
            let headers = asked.arrayValue?.last?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(!headers.isEmpty && !headers.contains("x-api-key") && !headers.contains("authorization"), "\(headers)")
            // Cleared: OctoPrint's own (none here) again.
            try await op.call("octoprint.printers.update", ["name": printer, "snapshot_url": "", "stream_url": ""])
            #expect(try await op.failure("octoprint.webcam.snapshot", ["out": .string(dir.file("again.jpg"))]).code == 1011)
        }
    }
}
