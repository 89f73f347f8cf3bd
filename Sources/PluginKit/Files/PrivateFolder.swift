import Foundation

/// A folder only the daemon's user can enter (`mkdtemp` makes it 0700), for a file made or
/// fetched on a caller's behalf that no caller names: a picture for the web app, a download to
/// upload. Removed as soon as its file has been used.
public struct PrivateFolder: Sendable {
    public let path: String

    public struct CannotMake: Error, CustomStringConvertible {
        public var description: String { "no private folder could be made in the temporary folder" }
    }

    /// `purpose` names it (`assistantd-<purpose>-XXXXXX`), for a person looking at /tmp.
    public init(purpose: String) throws {
        var template = Array((NSTemporaryDirectory() + "/assistantd-\(purpose)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CannotMake() }
        path = String(cString: made)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The file's bytes, read off the cooperative pool; nil when it holds more than `limit`.
    public func read(_ file: String, atMost limit: Int) async throws -> [UInt8]? {
        try await runBlocking {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            defer { try? handle.close() }
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            return data.count <= limit ? [UInt8](data) : nil
        }
    }
}
