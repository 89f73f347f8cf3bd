import Foundation
import Testing

@testable import OctoPrint

/// Frames come out of an MJPEG stream whole, by its boundary and each part's Content-Length,
/// whatever bytes they hold and however the stream is cut into chunks.
struct MJPEGSplitterTests {
    /// A JPEG whose EXIF segment holds a whole thumbnail JPEG (its own FF D8 … FF D9): splitting
    /// by markers ended the frame at the thumbnail's end.
    static func jpegWithThumbnail(_ n: UInt8) -> [UInt8] {
        let thumbnail: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x03, n, 0xFF, 0xD9]
        return [0xFF, 0xD8, 0xFF, 0xE1, 0x00, UInt8(2 + 6 + thumbnail.count)] + Array("Exif\0\0".utf8) + thumbnail
            + [0xFF, 0xDA, 0x00, 0x02, n, n, 0x00, n, 0xFF, 0xD9]
    }

    static func stream(_ frames: [[UInt8]], boundary: String = "boundarydonotcross", lengths: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        for frame in frames {
            out += Array("--\(boundary)\r\nContent-Type: image/jpeg\r\n".utf8)
            if lengths { out += Array("Content-Length: \(frame.count)\r\n".utf8) }
            out += Array("X-Timestamp: 1.0\r\n\r\n".utf8) + frame + Array("\r\n".utf8)
        }
        return out
    }

    @Test func framesWithEmbeddedThumbnailsComeOutWholeInAnyChunking() throws {
        let frames = (1...3).map { Self.jpegWithThumbnail($0) }
        for lengths in [true, false] {
            let bytes = Self.stream(frames, lengths: lengths) + Array("--boundarydonotcross\r\n".utf8)
            for chunk in [1, 7, bytes.count] {
                var splitter = MJPEGSplitter(contentType: "multipart/x-mixed-replace; boundary=\"boundarydonotcross\"")
                var out: [[UInt8]] = []
                var i = 0
                while i < bytes.count {
                    out += try splitter.append(bytes[i..<min(i + chunk, bytes.count)])
                    i += chunk
                }
                #expect(out == frames, "lengths \(lengths), chunks of \(chunk)")
            }
        }
        // A boundary parameter that carries the dashes itself (some cameras write it so).
        var dashed = MJPEGSplitter(contentType: "multipart/x-mixed-replace;boundary=--myboundary")
        #expect(try dashed.append(Self.stream(frames, boundary: "myboundary")) == frames)
    }

    @Test func whatIsNotMJPEGIsAnErrorNotUnboundedMemory() throws {
        var huge = MJPEGSplitter(contentType: "multipart/x-mixed-replace; boundary=b")
        #expect(throws: MJPEGSplitter.NotMJPEG.self) { try huge.append(Array("--b\r\nContent-Length: 999999999\r\n\r\n".utf8)) }
        var endless = MJPEGSplitter(contentType: "multipart/x-mixed-replace; boundary=b")
        #expect(throws: MJPEGSplitter.NotMJPEG.self) {
            for _ in 0..<40 { _ = try endless.append([UInt8](repeating: 0x41, count: 1 << 20)) }
        }
    }

    /// A hostile camera's negative length once made a range whose start was past its end: a trap
    /// that took the daemon down. Whole or in pieces, it is an error now.
    @Test func aNegativeContentLengthIsAnErrorNotATrap() throws {
        let stream = Array("--b\r\nContent-Length: -7\r\n\r\n\u{FF}\u{D8}\u{FF}\u{D9}\r\n--b\r\n".utf8)
        var whole = MJPEGSplitter(contentType: "multipart/x-mixed-replace; boundary=b")
        let error = #expect(throws: MJPEGSplitter.NotMJPEG.self) { try whole.append(stream) }
        #expect(error?.description == "a part's Content-Length is negative")
        var pieces = MJPEGSplitter(contentType: "multipart/x-mixed-replace; boundary=b")
        #expect(throws: MJPEGSplitter.NotMJPEG.self) {
            for start in stride(from: 0, to: stream.count, by: 5) { _ = try pieces.append(stream[start..<min(start + 5, stream.count)]) }
        }
    }

    /// Found by the parser fuzzer: a boundary line followed at once by the empty line (a part with
    /// no headers) made a range whose start was past its end, a trap a hostile camera could send.
    /// Such a part is read up to the next boundary, as any part without a length.
    @Test func aPartWithoutHeadersIsReadNotATrap() throws {
        var splitter = MJPEGSplitter(contentType: "multipart/x-mixed-replace; boundary=cam")
        let frame: [UInt8] = [0xFF, 0xD8, 0x01, 0x02, 0xFF, 0xD9]
        let stream = Array("--cam\r\n\r\n".utf8) + frame + Array("\r\n--cam\r\nContent-Length: 2\r\n\r\nAB--cam\r\n".utf8)
        #expect(try splitter.append(stream) == [frame, Array("AB".utf8)])
    }
}
