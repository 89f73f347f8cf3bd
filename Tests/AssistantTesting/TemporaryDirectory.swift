import Foundation

/// A private directory under /tmp, short enough for socket paths (sun_path is 108 bytes).
public final class TemporaryDirectory: Sendable {
    public let path: String
    private let removedAtEnd: Bool

    /// An existing directory, left in place at the end (a benchmark rerun on kept data).
    public init(existing path: String) {
        self.path = path
        removedAtEnd = false
    }

    public init(prefix: String = "at") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(cString: template.map { UInt8(bitPattern: $0) })
        chmod(path, 0o700)
        removedAtEnd = true
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Creates a subdirectory (0700) and returns its path.
    @discardableResult
    public func directory(_ name: String) -> String {
        let p = file(name)
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return p
    }

    public func write(_ name: String, _ text: String, mode: Int = 0o600) -> String {
        let p = file(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        return p
    }

    deinit {
        if removedAtEnd { try? FileManager.default.removeItem(atPath: path) }
    }
}
