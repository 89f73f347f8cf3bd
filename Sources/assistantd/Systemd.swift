import Foundation

/// systemd readiness (`sd_notify`) and socket activation (`sd_listen_fds`). Hand-written: a
/// datagram to `$NOTIFY_SOCKET` and three environment variables are the whole protocol, and no
/// library on this machine wraps libsystemd.
enum SystemdNotify {
    static func send(_ state: String) {
        guard var path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !path.isEmpty else { return }
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let offset = abstract ? 1 : 0
        guard bytes.count + offset < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            for (i, b) in bytes.enumerated() { raw[i + offset] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + offset + (abstract ? 0 : 1))
        _ = state.withCString { message in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, message, strlen(message), 0, $0, length) }
            }
        }
    }
}

enum SocketActivation {
    /// The first passed descriptor (fd 3) when `LISTEN_PID` is us; the variables are unset so
    /// child processes do not inherit them.
    static func take(environment: [String: String]) -> CInt? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        return 3
    }
}
