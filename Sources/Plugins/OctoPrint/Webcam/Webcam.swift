import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PluginKit

/// A webcam as OctoPrint (1.9+, webcam provider plugins) describes it in `/api/settings`; the
/// result of `octoprint.webcam` naming one. A member of the wrong type is taken as absent.
struct WebcamInfo: ResultObject, CallResult {
    var name: String
    var displayName: String
    var canSnapshot: Bool
    var snapshotURL: String?
    var streamURL: String?
    var flipH, flipV, rotate90: Bool

    static let members = ResultMembers<Self>(
        .field("name", \.name), .field("display_name", \.displayName), .field("can_snapshot", \.canSnapshot),
        .field("snapshot_url", \.snapshotURL), .field("stream_url", \.streamURL), .field("flip_h", \.flipH), .field("flip_v", \.flipV),
        .field("rotate90", \.rotate90))

    /// A camera OctoPrint does not list, known only by the addresses set for its printer.
    init(name: String) {
        (self.name, displayName, canSnapshot, snapshotURL, streamURL) = (name, name, false, nil, nil)
        (flipH, flipV, rotate90) = (false, false, false)
    }

    /// nil for an entry without a name.
    init?(settings w: JSONValue) {
        guard let name = w["name"]?.stringValue else { return nil }
        let compat = w["compat"]
        func url(_ v: JSONValue?) -> String? { v?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        self.name = name
        displayName = w["displayName"]?.stringValue ?? name
        canSnapshot = w["canSnapshot"]?.boolValue ?? false
        snapshotURL = url(compat?["snapshot"])
        streamURL = url(compat?["stream"] ?? w["extras"]?["stream"])
        flipH = w["flipH"]?.boolValue ?? false
        flipV = w["flipV"]?.boolValue ?? false
        rotate90 = w["rotate90"]?.boolValue ?? false
    }
}

struct WebcamList: ResultObject, Sendable {
    let webcams: [WebcamInfo]

    static let members = ResultMembers<Self>(.field("webcams", \.webcams))
}

/// `octoprint.webcam.info`: every webcam, or the one named.
typealias WebcamAnswer = OneOf<WebcamList, WebcamInfo>

/// Splits an MJPEG stream (`multipart/x-mixed-replace`) into its JPEG frames by the multipart
/// boundary and each part's `Content-Length`, or, for a part without one, by the next boundary.
/// A frame is never found by JPEG markers: a JPEG with an EXIF thumbnail holds a whole second
/// JPEG, whose end marker cut frames short. Only a stream without a boundary in its Content-Type
/// falls back to the markers. Written by hand: no listed library parses multipart/x-mixed-replace.
struct MJPEGSplitter {
    /// Larger than any webcam frame; a part over it, or 32 MiB without a boundary, is not MJPEG.
    static let maxPart = 32 << 20

    struct NotMJPEG: Error, CustomStringConvertible {
        var description: String
    }

    private let boundary: [UInt8]?
    private var buffer: [UInt8] = []

    /// `contentType` is the response's: its `boundary` parameter, quoted or not, with or without
    /// the leading `--` some cameras put into it.
    init(contentType: String? = nil) {
        let parameter = contentType?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.lowercased().hasPrefix("boundary=") }
        var value = parameter.map { String($0.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        while value?.hasPrefix("-") == true { value?.removeFirst() }
        boundary = value.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    mutating func append(_ bytes: some Sequence<UInt8>) throws(NotMJPEG) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        guard let boundary else { return try markerFrames() }
        var frames: [[UInt8]] = []
        while let mark = Self.find(boundary, in: buffer, from: 0) {
            guard let lineEnd = Self.find(Array("\r\n".utf8), in: buffer, from: mark + boundary.count) else { break }
            guard let headersEnd = Self.find(Array("\r\n\r\n".utf8), in: buffer, from: lineEnd) else {
                if buffer.count - lineEnd > 64 * 1024 { throw NotMJPEG(description: "a part's headers run over 64 KiB") }
                break
            }
            // A boundary line followed at once by the empty line has no headers: the blank line's
            // CRLF is the boundary line's own.
            let headers = headersEnd > lineEnd + 2 ? String(decoding: buffer[(lineEnd + 2)..<headersEnd], as: UTF8.self) : ""
            let bodyStart = headersEnd + 4
            if let length = Self.contentLength(headers) {
                guard length >= 0 else { throw NotMJPEG(description: "a part's Content-Length is negative") }
                guard length <= Self.maxPart else { throw NotMJPEG(description: "a part of \(length) bytes is over \(Self.maxPart)") }
                guard buffer.count >= bodyStart + length else { break }
                frames.append(Array(buffer[bodyStart..<(bodyStart + length)]))
                buffer.removeFirst(bodyStart + length)
            } else {
                guard let next = Self.find(boundary, in: buffer, from: bodyStart) else {
                    if buffer.count - bodyStart > Self.maxPart { throw NotMJPEG(description: "no boundary in \(Self.maxPart) bytes") }
                    break
                }
                // The part ends before the CRLF and the dashes that open the next boundary line.
                var end = next
                while end > bodyStart, buffer[end - 1] == UInt8(ascii: "-") { end -= 1 }
                if end >= bodyStart + 2, buffer[end - 2] == 13, buffer[end - 1] == 10 { end -= 2 }
                frames.append(Array(buffer[bodyStart..<end]))
                buffer.removeFirst(end)
            }
        }
        if buffer.count > Self.maxPart + 64 * 1024 { throw NotMJPEG(description: "no boundary in \(Self.maxPart) bytes") }
        return frames
    }

    private static func contentLength(_ headers: String) -> Int? {
        for line in headers.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// Without a boundary: by the JPEG start (FF D8) and end (FF D9) markers.
    private mutating func markerFrames() throws(NotMJPEG) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        while let start = Self.find([0xFF, 0xD8], in: buffer, from: 0), let end = Self.find([0xFF, 0xD9], in: buffer, from: start + 2) {
            frames.append(Array(buffer[start...(end + 1)]))
            buffer.removeFirst(end + 2)
        }
        if buffer.count > Self.maxPart { throw NotMJPEG(description: "no frame end in \(Self.maxPart) bytes") }
        return frames
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

extension OctoPrintService {
    /// OctoPrint's webcams, the first with the addresses set for the printer (`stream_url`,
    /// `snapshot_url`) in place of OctoPrint's; with those set, a camera OctoPrint does not list.
    func webcams(_ c: OctoPrintClient) async throws -> [WebcamInfo] {
        let own = c.printer.streamURL != nil || c.printer.snapshotURL != nil
        var listed: [WebcamInfo] = []
        do {
            let settings = try await c.call(.GET, "/api/settings").json ?? .null
            // OctoPrint 1.9+: provider plugins' webcams under settings.webcam.webcams.
            listed = (settings["webcam"]?["webcams"]?.arrayValue ?? settings["webcams"]?.arrayValue ?? []).compactMap(WebcamInfo.init(settings:))
        } catch  where own {
            // The camera set for the printer works without OctoPrint's settings (a user without the right to read them).
        }
        guard own else { return listed }
        var first = listed.first ?? WebcamInfo(name: "camera")
        if let snapshot = c.printer.snapshotURL { (first.snapshotURL, first.canSnapshot) = (snapshot, true) }
        if let stream = c.printer.streamURL { first.streamURL = stream }
        return [first] + listed.dropFirst()
    }

    func webcam(_ c: OctoPrintClient, named name: String?) async throws -> WebcamInfo {
        let all = try await webcams(c)
        if let name {
            guard let w = all.first(where: { $0.name == name }) else {
                throw OctoPrintParams.newPrinter.invalid("no webcam named '\(name)' (webcams: \(all.map(\.name).joined(separator: ", ")))")
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

    func webcamInfo(_ params: Params) async throws -> WebcamAnswer {
        let c = try await client(params)
        if let name = params[OctoPrintParams.webcam] { return .second(try await webcam(c, named: name)) }
        return .first(WebcamList(webcams: try await webcams(c)))
    }

    func webcamSnapshot(_ params: Params) async throws -> SnapshotSaved {
        let out = try params[OctoPrintParams.jpegOut]
        let overwrite = params[FileOutput.overwrite] ?? false
        try FileOutput.checkTarget(out, param: OctoPrintParams.jpegOut.name, overwrite: overwrite)
        let c = try await client(params)
        let w = try await webcam(c, named: params[OctoPrintParams.firstWebcam])
        let jpeg = try await snapshotJPEG(c, webcam: w)
        try await FileOutput.write(Data(jpeg), to: out, param: OctoPrintParams.jpegOut.name, overwrite: overwrite)
        return SnapshotSaved(path: out, bytes: jpeg.count, webcam: w.name)
    }

    func webcamFrames(_ params: Params) async throws -> FramesSaved {
        let folder = try params[OctoPrintParams.outDir]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OctoPrintParams.outDir.invalid("'\(folder)' is not a folder")
        }
        let count = Int(params[OctoPrintParams.count])
        let overwrite = params[FileOutput.overwrite] ?? false
        let names = (1...max(count, 1)).map { (folder as NSString).appendingPathComponent(String(format: "frame-%04d.jpg", $0)) }
        if !overwrite { for name in names { try FileOutput.checkFree(name, param: OctoPrintParams.outDir.name) } }
        let c = try await client(params)
        let w = try await webcam(c, named: params[OctoPrintParams.firstWebcam])
        guard let address = w.streamURL else { throw OctoPrintError.webcam(w.name, "has no stream URL") }
        let url = absolute(address, c)
        let response: HTTPClientResponse
        do {
            response = try await c.http.execute(try await webcamRequest(url, c), timeout: .seconds(60))
        } catch {
            throw OctoPrintError.webcam(url, OctoPrintClient.describe(error))
        }
        guard response.status == .ok else { throw OctoPrintError.webcam(url, "answered \(response.status.code)") }
        var splitter = MJPEGSplitter(contentType: response.headers.first(name: "Content-Type"))
        var files: [String] = []
        // Leaving the loop drops the body, which closes the endless stream.
        read: for try await chunk in response.body {
            let frames: [[UInt8]]
            do { frames = try splitter.append(chunk.readableBytesView) } catch {
                throw OctoPrintError.webcam(url, "is not an MJPEG stream: \(error)")
            }
            for frame in frames {
                let path = names[files.count]
                try await FileOutput.write(Data(frame), to: path, param: OctoPrintParams.outDir.name, overwrite: overwrite)
                files.append(path)
                if files.count == count { break read }
            }
        }
        guard files.count == count else { throw OctoPrintError.webcam(url, "the stream ended after \(files.count) of \(count) frames") }
        return FramesSaved(files: files, webcam: w.name)
    }
}
