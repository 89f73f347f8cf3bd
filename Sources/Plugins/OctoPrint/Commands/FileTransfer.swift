import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFileSystem
import NIOHTTP1
import PluginKit

/// The multipart body of an upload: the part header, the file's chunks as NIO reads them (so an
/// upload never holds the whole file), the closing fields. `onChunk` reports the running count.
struct UploadBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let prefix: ByteBuffer
    let file: NIOFileSystem.FileChunks
    let suffix: ByteBuffer
    let onChunk: @Sendable (Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var prefix: ByteBuffer?
        var file: NIOFileSystem.FileChunks.AsyncIterator
        var suffix: ByteBuffer?
        var sent: Int64 = 0
        var fileDone = false
        let onChunk: @Sendable (Int64) -> Void

        mutating func next() async throws -> ByteBuffer? {
            if let p = prefix {
                prefix = nil
                return p
            }
            if !fileDone {
                if let chunk = try await file.next() {
                    sent += Int64(chunk.readableBytes)
                    onChunk(sent)
                    return chunk
                }
                fileDone = true
            }
            if let s = suffix {
                suffix = nil
                return s
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(prefix: prefix, file: file.makeAsyncIterator(), suffix: suffix, onChunk: onChunk)
    }
}

enum Multipart {
    static func field(_ boundary: String, _ name: String, _ value: String) -> String {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }
    static func quoted(_ s: String) -> String {
        s.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
    }
}

extension OctoPrintService {
    func upload(_ params: Params, call: CallContext) async throws -> JSONValue {
        guard let address = params[OctoPrintParams.uploadURL] else {
            return try await upload(params, file: params[OctoPrintParams.uploadFile] ?? "", name: nil, call: call)
        }
        // Fetched into a folder only the daemon's user enters, then uploaded as a local file is, and removed.
        let (url, name) = try Self.fetchable(address)
        let folder = try PrivateFolder(purpose: "fetch")
        defer { folder.remove() }
        let file = folder.path + "/" + name
        try await fetch(url, into: file, call: call)
        return try await upload(params, file: file, name: name, call: call)
    }

    /// An http(s) address whose last part names a file: the address, and the name it is uploaded as.
    static func fetchable(_ raw: String) throws(RPCError) -> (URL, String) {
        let url = try HTTPAddress.checked(raw, param: OctoPrintParams.uploadURL.name)
        let name = url.lastPathComponent
        guard !name.isEmpty, name != "/", name.count <= 200, !name.hasPrefix("."), !name.contains("/") else {
            throw OctoPrintParams.uploadURL.invalid("does not end in a file's name (…/benchy.gcode)")
        }
        return (url, name)
    }

    /// Fetches `url` into `file`, within `download_max_mb` and `fetchLimit`: cut off at either,
    /// the partial file never uploaded.
    func fetch(_ url: URL, into file: String, call: CallContext) async throws {
        let limit = context.config[OctoPrintConfig.downloadMaxMB] << 20
        let http = context.http
        let name = url.lastPathComponent
        let within = Duration.seconds(context.config[OctoPrintConfig.fetchTimeoutS])
        try await withDeadline(
            within, timedOut: { OctoPrintParams.uploadURL.invalid("did not finish within \(within.limitText) (plugins.octoprint.fetch_timeout_s)") }
        ) {
            // A download link usually redirects (a CDN, a release asset): up to five, each an http(s) address again.
            var address = url
            var response: HTTPClientResponse
            var hops = 0
            while true {
                var request = HTTPClientRequest(url: address.absoluteString)
                request.method = .GET
                do {
                    response = try await http.execute(request, timeout: .seconds(60))
                } catch {
                    throw OctoPrintParams.uploadURL.invalid("could not be fetched: \(OctoPrintClient.describe(error))")
                }
                guard [301, 302, 303, 307, 308].contains(Int(response.status.code)), hops < 5,
                    let location = response.headers.first(name: "Location"), let next = URL(string: location, relativeTo: address)?.absoluteURL
                else { break }
                address = try Self.fetchable(next.absoluteString).0
                hops += 1
            }
            guard response.status.code == 200 else { throw OctoPrintParams.uploadURL.invalid("answered \(response.status.code)") }
            let announced = response.headers.first(name: "Content-Length").flatMap { Int64($0) } ?? 0
            if announced > limit { throw Self.fetchTooLarge(limit) }
            let folder = (file as NSString).deletingLastPathComponent
            func room(for size: Int64) throws(RPCError) {
                do { try Self.checkRoom(for: size, limit: limit, folder: folder) } catch {
                    throw OctoPrintParams.uploadURL.invalid("cannot be fetched: it would leave the disk nearly full")
                }
            }
            try room(for: announced)
            _ = try await FileOutput.withFile(at: file, param: OctoPrintParams.uploadURL.name, overwrite: false) { writer in
                var (bytes, reported, checked): (Int64, Int64, Int64) = (0, 0, 0)
                for try await chunk in response.body {
                    bytes += Int64(chunk.readableBytes)
                    if bytes > limit { throw Self.fetchTooLarge(limit) }
                    // A size not announced is watched as it comes: the temporary folder may be in memory.
                    if bytes - checked >= 64 << 20 {
                        checked = bytes
                        try room(for: 64 << 20)
                    }
                    _ = try await writer.write(contentsOf: chunk.readableBytesView)
                    // A word every megabyte, not every chunk.
                    if bytes - reported >= 1 << 20 {
                        reported = bytes
                        call.progress("fetching \(name)", done: bytes, total: announced > 0 ? announced : nil)
                    }
                }
                return bytes
            }
        }
    }

    static func fetchTooLarge(_ limit: Int64) -> RPCError {
        OctoPrintParams.uploadURL.invalid("is larger than \(limit >> 20) MB (plugins.octoprint.download_max_mb)")
    }

    /// Uploads a local file; `name`, when given, is what OctoPrint calls it (a fetched file's).
    func upload(_ params: Params, file: String, name given: String?, call: CallContext) async throws -> JSONValue {
        let location = params[OctoPrintParams.location]
        let boundary = "assistantd-\(UUID().uuidString)"
        let name = given ?? (file as NSString).lastPathComponent
        let head =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(Multipart.quoted(name))\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        var tail = "\r\n"
        if let folder = params[OctoPrintParams.uploadFolder], !folder.isEmpty { tail += Multipart.field(boundary, "path", folder) }
        if params[OctoPrintParams.select] == true || params[OctoPrintParams.print] == true { tail += Multipart.field(boundary, "select", "true") }
        if params[OctoPrintParams.print] == true { tail += Multipart.field(boundary, "print", "true") }
        tail += "--\(boundary)--\r\n"
        let prefix = ByteBuffer(string: head)
        let suffix = ByteBuffer(string: tail)
        // The file is opened before anything is sent; one that is missing or vanishes is a -32602.
        return try await FileInput.withChunks(of: file, param: OctoPrintParams.uploadFile.name) { size, chunks in
            let c = try await client(params)
            let total = Int64(prefix.readableBytes) + size + Int64(suffix.readableBytes)
            // About a hundred progress notifications, whatever the size.
            let step = max(size / 100, 256 * 1024)
            let body = UploadBody(prefix: prefix, file: chunks, suffix: suffix) { sent in
                if sent == size || sent % step < 256 * 1024 {
                    call.progress("uploading \(name)", done: sent, total: size)
                }
            }
            var request = try await c.makeRequest(.POST, "/api/files/\(location)")
            request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
            request.body = .stream(body, length: .known(total))
            let response = try await c.send(request, timeout: .seconds(3600))
            try c.check(response, conflict: .fileInUse)
            return OctoPrintClient.result(response)
        }
    }

    func mkdir(_ params: Params) async throws -> JSONValue {
        let name = try REST.required(params, OctoPrintParams.folderName)
        guard !name.contains("/") else { throw OctoPrintParams.newPrinter.invalid("is one folder name without '/'; give the parent as path") }
        let c = try await client(params)
        let boundary = "assistantd-\(UUID().uuidString)"
        var text = Multipart.field(boundary, "foldername", name)
        if let parent = params[OctoPrintParams.parentFolder], !parent.isEmpty { text += Multipart.field(boundary, "path", parent) }
        text += "--\(boundary)--\r\n"
        var request = try await c.makeRequest(.POST, "/api/files/local")
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(ByteBuffer(string: text))
        let response = try await c.send(request)
        try c.check(response, conflict: .fileInUse)
        return OctoPrintClient.result(response)
    }

    /// Streams a download into `out` through a temporary file in the same folder.
    func download(_ params: Params, path: String) async throws -> FileSaved {
        let out = try params[OctoPrintParams.out]
        let overwrite = params[FileOutput.overwrite] ?? false
        try FileOutput.checkTarget(out, param: OctoPrintParams.out.name, overwrite: overwrite)
        let c = try await client(params)
        let response: HTTPClientResponse
        do {
            response = try await c.http.execute(try await c.makeRequest(.GET, path), timeout: .seconds(3600))
        } catch {
            throw OctoPrintError.unreachable(c.printer.name, c.printer.url, OctoPrintClient.describe(error))
        }
        guard response.status.code == 200 else {
            let body = try await response.body.collect(upTo: 1 << 20)
            try c.check(OctoPrintClient.Response(status: Int(response.status.code), headers: response.headers, body: body), conflict: .other)
            throw OctoPrintError.refused(Int(response.status.code), "unexpected answer")
        }
        let limit = context.config[OctoPrintConfig.downloadMaxMB] << 20
        let announced = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
        try Self.checkRoom(for: announced ?? 0, limit: limit, folder: (out as NSString).deletingLastPathComponent)
        // Counted as it arrives too: a server that says nothing of the size, or says too little,
        // is cut off at the limit, and the partial file is never placed.
        let bytes = try await FileOutput.withFile(at: out, param: OctoPrintParams.out.name, overwrite: overwrite) { writer in
            var bytes: Int64 = 0
            for try await chunk in response.body {
                bytes += Int64(chunk.readableBytes)
                if bytes > limit { throw Self.tooLarge(limit) }
                _ = try await writer.write(contentsOf: chunk.readableBytesView)
            }
            return bytes
        }
        return FileSaved(path: out, bytes: bytes)
    }

    /// A download is refused before it starts when it is over the limit, or when it would leave
    /// less than 5 % of the disk free (a full disk stops the database and every other program).
    static func checkRoom(for size: Int64, limit: Int64, folder: String) throws(RPCError) {
        if size > limit { throw tooLarge(limit) }
        var disk = statvfs()
        guard statvfs(folder.isEmpty ? "/" : folder, &disk) == 0 else { return }
        let total = Int64(disk.f_blocks) * Int64(disk.f_frsize)
        let free = Int64(disk.f_bavail) * Int64(disk.f_frsize)
        if free - size < total / 20 {
            throw OctoPrintParams.out.invalid(
                "the download (\(size) bytes) would leave less than 5 % of the disk free (\(free) bytes are free of \(total))")
        }
    }

    static func tooLarge(_ limit: Int64) -> RPCError {
        OctoPrintParams.out.invalid("the file is larger than \(limit >> 20) MB (plugins.octoprint.download_max_mb)")
    }
}
