import PluginKit

/// The webcam's MJPEG splitter as the parser fuzz target (`Fuzz/ParserFuzz`) feeds it: the
/// first line of the input is the response's Content-Type, the rest the stream, handed over in
/// small pieces so that boundaries and headers fall across them. One `package` entry, so the
/// splitter stays internal.
package enum OctoPrintFuzzing {
    package static func splitStream(_ bytes: [UInt8]) {
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        var splitter = MJPEGSplitter(contentType: String(decoding: bytes[..<newline], as: UTF8.self))
        var rest = bytes[min(newline + 1, bytes.endIndex)...]
        while !rest.isEmpty {
            let piece = rest.prefix(61)
            rest = rest.dropFirst(61)
            do { _ = try splitter.append(piece) } catch { return }
        }
    }
}
