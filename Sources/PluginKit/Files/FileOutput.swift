import Foundation
import NIOCore
import NIOFileSystem

/// Files the daemon writes for a caller (downloads, exports, snapshots) and reads for one
/// (uploads), through swift-nio's file system. Output is transactional: it appears under its name
/// only when complete, so a failed or cancelled write leaves neither a partial file nor a
/// temporary one. Every failure is a -32602 naming the parameter that gave the path.
public enum FileOutput {
    /// The folder `path` goes into must exist (the daemon does not create folders for callers).
    public static func checkFolder(of path: String, param: String) throws(RPCError) {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "/" : folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RPCError.invalidParam(param, "the folder \(folder) does not exist")
        }
    }

    /// Writes `bytes` to `path`, replacing any file there, all or nothing.
    public static func write(_ bytes: ByteBuffer, to path: String, param: String) async throws {
        try await withFile(at: path, param: param) { writer in
            _ = try await writer.write(contentsOf: bytes.readableBytesView)
        }
    }

    public static func write(_ data: Data, to path: String, param: String) async throws {
        try await write(ByteBuffer(bytes: data), to: path, param: param)
    }

    /// Streams into `path` through a buffered writer; the file appears only if `body` returns.
    public static func withFile<Result: Sendable>(
        at path: String, param: String, _ body: (inout BufferedWriter<WriteFileHandle>) async throws -> Result
    ) async throws -> Result {
        try checkFolder(of: path, param: param)
        do {
            return try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(path), options: .newFile(replaceExisting: true)
            ) { handle in
                var writer = handle.bufferedWriter()
                let result = try await body(&writer)
                try await writer.flush()
                return result
            }
        } catch let error as FileSystemError {
            throw RPCError.invalidParam(param, "'\(path)' cannot be written (\(FileInput.describe(error)))")
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
