import Foundation
import HostCore

/// A client that writes a request and then never reads: the slow subscriber.
public final class StalledClient: Sendable {
    let fd: Int32

    public init(socketPath: String, send line: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard UnixSocketAddress.connect(fd, to: socketPath) else { throw POSIXError(.ECONNREFUSED) }
        // A small receive buffer, so the daemon's side fills quickly.
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    deinit { close(fd) }
}
