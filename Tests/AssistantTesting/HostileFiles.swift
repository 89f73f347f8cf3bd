import Foundation

/// Paths that are not plain files, or are too large, for every command that reads a file a person
/// names: a FIFO with no writer (its open blocked a worker thread for ever), a character device
/// that never ends, a folder, a socket, and a sparse file larger than any limit (no disk used).
public struct HostileFiles: Sendable {
    public let directory: TemporaryDirectory
    public let fifo: String
    public let folder: String
    public let sparse: String

    public init(sparseSize: Int64 = 1 << 40) {
        directory = TemporaryDirectory(prefix: "hostile")
        fifo = directory.file("calendar.fifo")
        precondition(mkfifo(fifo, 0o600) == 0, "mkfifo failed")
        folder = directory.directory("a-folder.ics")
        sparse = directory.file("huge.ics")
        precondition(FileManager.default.createFile(atPath: sparse, contents: nil))
        precondition(truncate(sparse, off_t(sparseSize)) == 0, "truncate failed")
    }

    /// Each path with the words its error must carry.
    public var cases: [(path: String, problem: String)] {
        [
            (fifo, "is a FIFO (named pipe), not a regular file"), ("/dev/zero", "is a character device, not a regular file"),
            (folder, "is a folder, not a regular file"), (sparse, "is \(1 << 40) bytes, over the limit of"),
            (directory.file("missing.ics"), "does not exist"),
        ]
    }
}
