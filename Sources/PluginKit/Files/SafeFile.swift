import Foundation

/// Reads files that a person or a configuration names, as a hostile file system would have them:
/// the open never waits (`O_NONBLOCK`, so a FIFO with no writer or a device cannot hold a worker
/// thread), only a regular file is read (`fstat` on the open descriptor, so nothing can be swapped
/// in between a check and the read), and never more than a limit. Hand-written because Foundation's
/// `Data(contentsOf:)` and `FileManager.contents` open without `O_NONBLOCK` and read without bound,
/// and NIO's file system is async-only, which a configuration loaded at start cannot use.
public enum SafeFile {
    /// The largest files each kind of reader accepts; the README's limits table lists them.
    public enum Limit {
        /// Calendars and logbooks handed to an import.
        public static let importFile = 256 << 20
        /// The configuration, a key file, a CA bundle.
        public static let smallFile = 4 << 20
        /// One mail attachment.
        public static let attachment = 25 << 20
    }

    /// Why a file was not read, in words a person can act on; `description` names the path.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            case cannotOpen(errno: Int32)
            case notRegular(String)
            case tooLarge(size: Int64, limit: Int)
            case readFailed(errno: Int32)
        }

        public var path: String
        public var reason: Reason

        /// The reason alone ("is a FIFO, not a regular file"), for messages that name the path themselves.
        public var problem: String {
            switch reason {
            case .cannotOpen(let code) where code == ENOENT: "does not exist"
            case .cannotOpen(let code) where code == EACCES: "cannot be read (permission denied)"
            case .cannotOpen(let code): "cannot be opened (\(String(cString: strerror(code))))"
            case .notRegular(let kind): "is \(kind), not a regular file"
            case .tooLarge(let size, let limit): "is \(size) bytes, over the limit of \(limit) bytes"
            case .readFailed(let code): "could not be read to the end (\(String(cString: strerror(code))))"
            }
        }

        public var description: String { "\(path) \(problem)" }
    }

    /// The whole file, at most `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        let file = try chunks(path, limit: limit, chunkSize: 256 * 1024)
        var data = Data(capacity: Int(min(file.size, Int64(limit))))
        while let chunk = try file.next() { data.append(contentsOf: chunk) }
        return data
    }

    /// A file read a chunk at a time, for imports that must not hold a whole file in memory (and
    /// under `read`): the limit holds for what is read, since the file may grow after fstat.
    public final class Chunks {
        public let path: String
        /// The size when opened.
        public let size: Int64
        private let descriptor: Int32
        private let limit: Int
        /// Read into, then copied out at the length read: the end of the file costs no new buffer.
        private var buffer: [UInt8]
        public private(set) var bytesRead = 0

        fileprivate init(path: String, descriptor: Int32, size: Int64, limit: Int, chunkSize: Int) {
            self.path = path
            self.descriptor = descriptor
            self.size = size
            self.limit = limit
            buffer = [UInt8](repeating: 0, count: chunkSize)
        }

        deinit { close(descriptor) }

        /// The next chunk, or nil at the end of the file.
        public func next() throws(Failure) -> [UInt8]? {
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure(path: path, reason: .readFailed(errno: errno))
                }
                if count == 0 { return nil }
                bytesRead += count
                guard bytesRead <= limit else { throw Failure(path: path, reason: .tooLarge(size: Int64(bytesRead), limit: limit)) }
                return Array(buffer[..<count])
            }
        }

        /// Back to the start, for a second pass.
        public func rewind() throws(Failure) {
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw Failure(path: path, reason: .readFailed(errno: errno)) }
            bytesRead = 0
        }
    }

    /// `path` opened for reading in chunks of `chunkSize` bytes, at most `limit` in all.
    public static func chunks(_ path: String, limit: Int, chunkSize: Int = 1 << 20) throws(Failure) -> Chunks {
        let fd = try open(path, limit: limit)
        return Chunks(path: path, descriptor: fd.descriptor, size: fd.size, limit: limit, chunkSize: chunkSize)
    }

    /// Why `path` cannot be read whole within `limit`, or nil when it can (for a state such as
    /// a CA file's); nothing is read.
    public static func problem(reading path: String, limit: Int = Limit.smallFile) -> String? {
        do {
            close(try open(path, limit: limit).descriptor)
            return nil
        } catch {
            return error.description
        }
    }

    static func open(_ path: String, limit: Int) throws(Failure) -> (descriptor: Int32, size: Int64) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw Failure(path: path, reason: .cannotOpen(errno: errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Failure(path: path, reason: .cannotOpen(errno: code))
        }
        let kind: String? =
            switch info.st_mode & S_IFMT {
            case S_IFREG: nil
            case S_IFDIR: "a folder"
            case S_IFIFO: "a FIFO (named pipe)"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFSOCK: "a socket"
            default: "not a file"
            }
        if let kind {
            close(fd)
            throw Failure(path: path, reason: .notRegular(kind))
        }
        guard info.st_size <= limit else {
            close(fd)
            throw Failure(path: path, reason: .tooLarge(size: Int64(info.st_size), limit: limit))
        }
        return (fd, Int64(info.st_size))
    }
}
