import AsyncHTTPClient
import Foundation
import HostCore
import NIOCore
import NIOHTTP1

/// A webcam as OctoPrint (1.9+, webcam provider plugins) describes it in `/api/settings`.
struct WebcamInfo: Sendable {
    var name: String
    var displayName: String
    var snapshotURL: String?
    var streamURL: String?
    var json: JSONValue
}

/// Splits an MJPEG stream into JPEG frames by their start (FF D8) and end (FF D9) markers; in
/// JPEG entropy data a 0xFF byte is always followed by 0x00, so FF D9 only ends an image.
/// Written by hand: no listed library parses multipart/x-mixed-replace.
struct MJPEGSplitter {
    private var buffer: [UInt8] = []

    mutating func append(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var frames: [[UInt8]] = []
        while let start = index(of: 0xD8, from: 0), let end = index(of: 0xD9, from: start + 2) {
            frames.append(Array(buffer[start...end + 1]))
            buffer.removeFirst(end + 2)
        }
        if buffer.count > 32 << 20 { buffer.removeAll() }  // no frame end in 32 MiB: not MJPEG
        return frames
    }

    private func index(of marker: UInt8, from: Int) -> Int? {
        var i = from
        while i + 1 < buffer.count {
            if buffer[i] == 0xFF && buffer[i + 1] == marker { return i }
            i += 1
        }
        return nil
    }
}

extension OctoPrintService {
    func webcams(_ c: OctoPrintClient) async throws -> [WebcamInfo] {
        let settings = try await c.call(.GET, "/api/settings").json ?? .null
        // OctoPrint 1.9+: provider plugins' webcams under settings.webcam.webcams.
        return (settings["webcam"]?["webcams"]?.arrayValue ?? settings["webcams"]?.arrayValue ?? []).compactMap { w in
            guard let name = w["name"]?.stringValue else { return nil }
            let compat = w["compat"]
            func url(_ v: JSONValue?) -> String? { v?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
            let info: JSONValue = [
                "name": .string(name), "display_name": w["displayName"] ?? .string(name), "can_snapshot": w["canSnapshot"] ?? false,
                "snapshot_url": url(compat?["snapshot"]).map(JSONValue.string) ?? .null,
                "stream_url": url(compat?["stream"] ?? w["extras"]?["stream"]).map(JSONValue.string) ?? .null,
                "flip_h": w["flipH"] ?? false, "flip_v": w["flipV"] ?? false, "rotate90": w["rotate90"] ?? false,
            ]
            return WebcamInfo(
                name: name, displayName: w["displayName"]?.stringValue ?? name, snapshotURL: url(compat?["snapshot"]),
                streamURL: url(compat?["stream"] ?? w["extras"]?["stream"]), json: info)
        }
    }

    func webcam(_ c: OctoPrintClient, named name: String?) async throws -> WebcamInfo {
        let all = try await webcams(c)
        if let name {
            guard let w = all.first(where: { $0.name == name }) else {
                throw RPCError.invalidParam("name", "no webcam named '\(name)' (webcams: \(all.map(\.name).joined(separator: ", ")))")
            }
            return w
        }
        guard let first = all.first else { throw OctoPrintError.noWebcam(c.printer.name) }
        return first
    }

    /// The absolute URL of a webcam address, which OctoPrint may store relative to itself.
    func absolute(_ address: String, _ c: OctoPrintClient) -> String {
        if address.contains("://") { return address }
        // A stored printer URL was checked when it was added; one edited into something else
        // gives a webcam address that then fails to connect, with its reason, never a crash.
        guard let base = URL(string: c.printer.url), let scheme = base.scheme, let host = base.host else { return c.printer.url + "/" + address }
        let origin = "\(scheme)://\(host)" + (base.port.map { ":\($0)" } ?? "")
        return address.hasPrefix("/") ? origin + address : c.printer.url + "/" + address
    }

    /// A request to a webcam URL: the printer's credentials go only to the printer's own origin.
    func webcamRequest(_ url: String, _ c: OctoPrintClient) async throws -> HTTPClientRequest {
        if url.hasPrefix(c.printer.url + "/") {
            return try await c.makeRequest(.GET, String(url.dropFirst(c.printer.url.count)))
        }
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        return request
    }

    func snapshotJPEG(_ c: OctoPrintClient, webcam: WebcamInfo) async throws -> [UInt8] {
        guard let address = webcam.snapshotURL else { throw OctoPrintError.noSnapshot(webcam.name) }
        let url = absolute(address, c)
        let response = try await c.send(try await webcamRequest(url, c), limit: 16 << 20)
        guard response.status == 200 else { throw OctoPrintError.webcam(url, "answered \(response.status)") }
        let bytes = Array(response.body.readableBytesView)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw OctoPrintError.webcam(url, "did not return a JPEG") }
        return bytes
    }

    func webcamInfo(_ params: Params) async throws -> JSONValue {
        let c = try await client(params)
        if let name = params.string("name") { return try await webcam(c, named: name).json }
        return ["webcams": .array(try await webcams(c).map(\.json))]
    }

    func webcamSnapshot(_ params: Params) async throws -> JSONValue {
        let out = try params.requiredString("out")
        try FileOutput.checkFolder(of: out, param: "out")
        let c = try await client(params)
        let w = try await webcam(c, named: params.string("name"))
        let jpeg = try await snapshotJPEG(c, webcam: w)
        try await FileOutput.write(Data(jpeg), to: out, param: "out")
        return ["path": .string(out), "bytes": .int(Int64(jpeg.count)), "webcam": .string(w.name)]
    }

    func webcamFrames(_ params: Params) async throws -> JSONValue {
        let folder = try params.requiredString("out_dir")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RPCError.invalidParam("out_dir", "'\(folder)' is not a folder")
        }
        let count = Int(params.int("count") ?? 10)
        let c = try await client(params)
        let w = try await webcam(c, named: params.string("name"))
        guard let address = w.streamURL else { throw OctoPrintError.webcam(w.name, "has no stream URL") }
        let url = absolute(address, c)
        let response: HTTPClientResponse
        do {
            response = try await c.http.execute(try await webcamRequest(url, c), timeout: .seconds(60))
        } catch {
            throw OctoPrintError.webcam(url, OctoPrintClient.describe(error))
        }
        guard response.status == .ok else { throw OctoPrintError.webcam(url, "answered \(response.status.code)") }
        var splitter = MJPEGSplitter()
        var files: [JSONValue] = []
        // Leaving the loop drops the body, which closes the endless stream.
        read: for try await chunk in response.body {
            for frame in splitter.append(chunk.readableBytesView) {
                let path = (folder as NSString).appendingPathComponent(String(format: "frame-%04d.jpg", files.count + 1))
                try await FileOutput.write(Data(frame), to: path, param: "out_dir")
                files.append(.string(path))
                if files.count == count { break read }
            }
        }
        guard files.count == count else { throw OctoPrintError.webcam(url, "the stream ended after \(files.count) of \(count) frames") }
        return ["files": .array(files), "webcam": .string(w.name)]
    }
}
