import Foundation
import NIOCore
import NIOFileSystem

/// Files the daemon writes for a caller (downloads, exports, snapshots) and reads for one
/// (uploads), through swift-nio's file system. Output is transactional: it appears under its name
/// only when complete, so a failed or cancelled write leaves neither a partial file nor a
/// temporary one. An existing file is never replaced unless the call says `overwrite=true`
/// (which makes the call destructive), a symbolic link at the name is never followed, and a
/// new file is the user's alone (0600). Every failure is a -32602 naming the parameter that
/// gave the path.
public enum FileOutput {
    /// Every command that writes a file declares this beside its path parameter, and is
    /// destructive with it (`PluginCommand.writesFiles()`).
    public static let overwrite = Param<Bool>(
        "overwrite", default: false, help: "replace a file that is already there (the call is then destructive)")

    /// What a command checks before it does any work: the folder `path` goes into exists (the
    /// daemon does not create folders for callers), and nothing has the name unless `overwrite`.
    public static func checkTarget(_ path: String, param: String, overwrite: Bool) throws(RPCError) {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "/" : folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RPCError.invalidParam(param, "the folder \(folder) does not exist")
        }
        if !overwrite { try checkFree(path, param: param) }
    }

    /// Refuses a name that is taken, by a file, a folder or a symbolic link (not followed).
    public static func checkFree(_ path: String, param: String) throws(RPCError) {
        var info = stat()
        if lstat(path, &info) == 0 { throw exists(path, param: param) }
    }

    static func exists(_ path: String, param: String) -> RPCError {
        RPCError.invalidParam(param, "'\(path)' \(takenText)")
    }

    private static let takenText = "exists; overwrite=true replaces it"

    /// Whether `error` is the refusal of a name that is taken, for a caller that maps the
    /// other write failures to errors of its own.
    public static func refusedAsTaken(_ error: RPCError) -> Bool { error.message.hasSuffix(takenText) }

    /// Writes `bytes` to `path`, all or nothing.
    public static func write(_ bytes: ByteBuffer, to path: String, param: String, overwrite: Bool) async throws {
        try await withFile(at: path, param: param, overwrite: overwrite) { writer in
            _ = try await writer.write(contentsOf: bytes.readableBytesView)
        }
    }

    public static func write(_ data: Data, to path: String, param: String, overwrite: Bool) async throws {
        try await write(ByteBuffer(bytes: data), to: path, param: param, overwrite: overwrite)
    }

    /// Streams into `path` through a buffered writer; the file appears only if `body` returns.
    public static func withFile<Result: Sendable>(
        at path: String, param: String, overwrite: Bool, _ body: (inout BufferedWriter<WriteFileHandle>) async throws -> Result
    ) async throws -> Result {
        try checkTarget(path, param: param, overwrite: overwrite)
        // Written to a hidden file in the same folder and moved into place when complete: by a
        // rename when replacing (which replaces a symbolic link itself, never its target), else
        // by a link that fails when the name was taken meanwhile.
        let options = OpenOptions.Write(
            existingFile: overwrite ? .truncate : .none, newFile: .init(permissions: .ownerReadWrite), followSymbolicLinks: false)
        do {
            return try await FileSystem.shared.withFileHandle(forWritingAt: FilePath(path), options: options) { handle in
                var writer = handle.bufferedWriter()
                let result = try await body(&writer)
                try await writer.flush()
                return result
            }
        } catch let error as FileSystemError {
            if error.code == .fileAlreadyExists { throw exists(path, param: param) }
            throw RPCError.invalidParam(param, "'\(path)' cannot be written (\(FileInput.describe(error)))")
        }
    }

    /// A new, empty temporary file (0600) in the folder of `path`, for a writer that needs a
    /// file name of its own (Cairo); `place` moves it into place.
    public static func temporaryFile(beside path: String) throws(RPCError) -> String {
        var template = Array((((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(".assistantd-XXXXXX")).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw RPCError.invalidParams("a temporary file beside '\(path)' cannot be made: \(String(cString: strerror(errno)))") }
        close(fd)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Moves a finished temporary file from the same folder to `path`: replacing what is there
    /// only when `overwrite` (rename replaces a symbolic link, never its target), else by
    /// link(2), which fails when anything has the name. The temporary file is gone either way.
    public static func place(_ temporary: String, at path: String, param: String, overwrite: Bool) throws(RPCError) {
        defer { unlink(temporary) }
        if overwrite {
            guard rename(temporary, path) == 0 else {
                throw RPCError.invalidParam(param, "'\(path)' cannot be written (\(String(cString: strerror(errno))))")
            }
            return
        }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { throw exists(path, param: param) }
            throw RPCError.invalidParam(param, "'\(path)' cannot be written (\(String(cString: strerror(errno))))")
        }
    }
}

public enum FileInput {
    /// Reads `path` in chunks inside `body`. A file that is missing, unreadable, a folder, or that
    /// vanishes between a check and the open is a -32602 naming `param`, never a crash.
    public static func withChunks<Result: Sendable>(
        of path: String, param: String, chunkLength: Int = 256 * 1024,
        _ body: (_ size: Int64, _ chunks: FileChunks) async throws -> Result
    ) async throws -> Result {
        do {
            return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
                let info = try await handle.info()
                guard info.type == .regular else { throw RPCError.invalidParam(param, "'\(path)' is not a regular file") }
                return try await body(info.size, handle.readChunks(chunkLength: .bytes(Int64(chunkLength))))
            }
        } catch let error as FileSystemError {
            throw RPCError.invalidParam(param, "'\(path)' cannot be read (\(describe(error)))")
        }
    }

    /// The reason in a person's words (NIO's own message names the system call).
    static func describe(_ error: FileSystemError) -> String {
        switch error.code {
        case .notFound: "no such file or folder"
        case .permissionDenied: "permission denied"
        case .notEmpty: "the folder is not empty"
        case .fileAlreadyExists: "it already exists"
        default: error.message
        }
    }
}
