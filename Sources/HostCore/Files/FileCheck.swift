import Foundation

/// Why a file the daemon was told to use (a CA file, a data file) cannot be read, in words a
/// person can act on, or nil when it can. Callers report it as a state, never crash on it.
public enum FileCheck {
    public static func problem(reading path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "\(path) cannot be read: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return "\(path) is a directory, not a file" }
        return nil
    }
}
