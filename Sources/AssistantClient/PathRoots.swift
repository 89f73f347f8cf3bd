import Foundation

/// The folders an AI assistant's file paths must stay in (MCP's roots, or `[mcp] files_dir`
/// for a client that names none). A path is resolved before it is compared, `..` and symbolic
/// links included, so that neither leads out; the daemon is then given the resolved path.
public struct PathRoots: Sendable, Equatable {
    /// Each root, resolved.
    public let folders: [String]

    public init(_ folders: [String]) {
        self.folders = folders.compactMap(Self.resolve)
    }

    /// The roots of `file://` URIs (others are ignored: a path can only be inside a folder).
    public init(uris: [String]) {
        self.init(uris.compactMap { uri in URL(string: uri).flatMap { $0.isFileURL ? $0.path : nil } })
    }

    /// `path` resolved, when it lies inside a root; nil otherwise.
    public func admit(_ path: String) -> String? {
        guard let resolved = Self.resolve(path) else { return nil }
        return folders.contains { resolved == $0 || resolved.hasPrefix($0 == "/" ? "/" : $0 + "/") } ? resolved : nil
    }

    /// An absolute path with every symbolic link and `..` of its existing part resolved. The
    /// part that does not exist yet (a file to be written) is kept as given, and may hold no
    /// `..`: there is nothing there to resolve it against. nil for a relative or such a path.
    public static func resolve(_ path: String) -> String? {
        guard path.hasPrefix("/"), !path.utf8.contains(0) else { return nil }
        var existing = path
        var missing: [String] = []
        while access(existing, F_OK) != 0 {
            let name = (existing as NSString).lastPathComponent
            guard existing != "/", !name.isEmpty else { return nil }
            missing.insert(name, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard !missing.contains(where: { $0 == ".." || $0 == "." }), let real = realpath(existing, nil) else { return nil }
        defer { free(real) }
        var resolved = String(cString: real)
        for name in missing { resolved = (resolved as NSString).appendingPathComponent(name) }
        return resolved
    }
}
