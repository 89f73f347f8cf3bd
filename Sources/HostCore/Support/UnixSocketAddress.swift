import Foundation

/// A `sockaddr_un` for a filesystem path, and the raw connect/bind calls on it. The places that
/// need a plain POSIX socket (the live-daemon probe, systemd notify, test clients) share this.
public enum UnixSocketAddress {
    /// nil when the path does not fit `sun_path`.
    public static func make(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }

    public static func connect(_ fd: Int32, to path: String) -> Bool {
        guard var address = make(path) else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    public static func bind(_ fd: Int32, to path: String) -> Bool {
        guard var address = make(path) else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }
}
