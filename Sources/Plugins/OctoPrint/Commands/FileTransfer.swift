import AsyncHTTPClient
import Foundation
import HostCore
import NIOCore
import NIOHTTP1

/// A file's bytes as an async sequence of 256 KiB buffers, so an upload never holds the whole
/// file; `onChunk` reports the running count (the caller's progress).
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String
    let prefix: ByteBuffer
    let suffix: ByteBuffer
    let onChunk: @Sendable (Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle
        var prefix: ByteBuffer?
        var suffix: ByteBuffer?
        var sent: Int64 = 0
        var fileDone = false
        let onChunk: @Sendable (Int64) -> Void

        mutating func next() async throws -> ByteBuffer? {
            if let p = prefix {
                prefix = nil
                return p
            }
            // A read of 256 KiB from the page cache takes microseconds; no thread hop is needed.
            if !fileDone {
                if let data = try handle.read(upToCount: 256 * 1024), !data.isEmpty {
                    sent += Int64(data.count)
                    onChunk(sent)
                    return ByteBuffer(bytes: data)
                }
                fileDone = true
                try? handle.close()
            }
            if let s = suffix {
                suffix = nil
                return s
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: FileHandle(forReadingAtPath: path)!, prefix: prefix, suffix: suffix, onChunk: onChunk)
    }
}

enum Multipart {
    static func field(_ boundary: String, _ name: String, _ value: String) -> String {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }
    static func quoted(_ s: String) -> String { s.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "") }
}

extension OctoPrintService {
    func upload(_ params: Params, call: CallContext) async throws -> JSONValue {
        let file = try params.requiredString("file")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: file),
            let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int64
        else { throw RPCError.invalidParam("file", "'\(file)' is not a readable file") }
        let c = try await client(params)
        let location = params.string("location") ?? "local"
        let boundary = "assistantd-\(UUID().uuidString)"
        let name = (file as NSString).lastPathComponent
        let head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(Multipart.quoted(name))\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        var tail = "\r\n"
        if let folder = params.string("path"), !folder.isEmpty { tail += Multipart.field(boundary, "path", folder) }
        if params.bool("select") == true || params.bool("print") == true { tail += Multipart.field(boundary, "select", "true") }
        if params.bool("print") == true { tail += Multipart.field(boundary, "print", "true") }
        tail += "--\(boundary)--\r\n"
        let prefix = ByteBuffer(string: head), suffix = ByteBuffer(string: tail)
        let total = Int64(prefix.readableBytes) + size + Int64(suffix.readableBytes)
        // About a hundred progress notifications, whatever the size.
        let step = max(size / 100, 256 * 1024)
        let body = FileChunks(path: file, prefix: prefix, suffix: suffix) { sent in
            if sent == size || sent % step < 256 * 1024 {
                call.progress("uploading \(name)", done: sent, total: size)
            }
        }
        var request = c.makeRequest(.POST, "/api/files/\(location)")
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .stream(body, length: .known(total))
        let response = try await c.send(request, timeout: .seconds(3600))
        try c.check(response, conflict: .fileInUse)
        return OctoPrintClient.result(response)
    }

    func mkdir(_ params: Params) async throws -> JSONValue {
        let name = try REST.required(params, "name")
        guard !name.contains("/") else { throw RPCError.invalidParam("name", "is one folder name without '/'; give the parent as path") }
        let c = try await client(params)
        let boundary = "assistantd-\(UUID().uuidString)"
        var text = Multipart.field(boundary, "foldername", name)
        if let parent = params.string("path"), !parent.isEmpty { text += Multipart.field(boundary, "path", parent) }
        text += "--\(boundary)--\r\n"
        var request = c.makeRequest(.POST, "/api/files/local")
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(ByteBuffer(string: text))
        let response = try await c.send(request)
        try c.check(response, conflict: .fileInUse)
        return OctoPrintClient.result(response)
    }

    /// Streams a download into `out` through a temporary file in the same folder.
    func download(_ params: Params, path: String) async throws -> JSONValue {
        let out = try params.requiredString("out")
        try Self.checkFolder(of: out, param: "out")
        let c = try await client(params)
        let response: HTTPClientResponse
        do {
            response = try await c.http.execute(c.makeRequest(.GET, path), timeout: .seconds(3600))
        } catch {
            throw OctoPrintError.unreachable(c.printer.name, c.printer.url, OctoPrintClient.describe(error))
        }
        guard response.status.code == 200 else {
            let body = try await response.body.collect(upTo: 1 << 20)
            try c.check(OctoPrintClient.Response(status: Int(response.status.code), headers: response.headers, body: body), conflict: .other)
            throw OctoPrintError.refused(Int(response.status.code), "unexpected answer")
        }
        let temporary = out + ".part-\(UUID().uuidString.prefix(8))"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw RPCError.invalidParam("out", "'\(out)' cannot be written")
        }
        var bytes: Int64 = 0
        do {
            for try await chunk in response.body {
                try handle.write(contentsOf: Data(chunk.readableBytesView))
                bytes += Int64(chunk.readableBytes)
            }
            try handle.close()
            guard rename(temporary, out) == 0 else { throw RPCError.invalidParam("out", "'\(out)' cannot be written") }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        return ["path": .string(out), "bytes": .int(bytes)]
    }
}
