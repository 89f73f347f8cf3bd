import Foundation
import NIOSSL

/// `[web]`: the web app the daemon serves to paired phones. Off by default; a TCP port, unlike the
/// socket, is reachable by every local user, so nothing is served to a device that is not paired.
public struct WebSettings: Sendable, Equatable {
    public var enabled = false
    /// `host:port`, `[v6]:port`.
    public var host = "127.0.0.1"
    public var port = 8470
    /// PEM files; required for any address that is not loopback.
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Where a phone reaches the app (a reverse proxy's or Tailscale's address), for the pairing
    /// address; nil: the listen address itself.
    public var publicURL: String?
    public init() {}

    public var usesTLS: Bool { tlsCertificate != nil }

    /// Whether the phone reaches the app over HTTPS: served with TLS, or behind a proxy that is
    /// (`public_url` https). Cookies are then `Secure` and pages carry HSTS.
    public var reachedOverHTTPS: Bool { usesTLS || publicURL.flatMap { URLComponents(string: $0)?.scheme?.lowercased() } == "https" }

    /// The address a phone opens, without a trailing slash.
    public var baseURL: String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "https" : "http")://\(shownHost):\(port)"
    }

    /// 127.0.0.0/8 (written as an address, not a name that starts so), ::1 and localhost:
    /// reachable from this machine only.
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
    }

    /// `127.0.0.1:8470`, `[::1]:8470`: the address as `listen` writes it.
    public var listenAddress: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The origins a page of this app is served from: the listen address (and localhost for a
    /// loopback one) and `public_url`'s, default ports left out as browsers write them.
    public var origins: Set<String> {
        let scheme = usesTLS ? "https" : "http"
        let defaultPort = usesTLS ? 443 : 80
        var hosts = [host.contains(":") ? "[\(host)]" : host]
        if Self.isLoopback(host) { hosts += ["localhost", "127.0.0.1", "[::1]"] }
        var origins = Set(hosts.map { port == defaultPort ? "\(scheme)://\($0)" : "\(scheme)://\($0):\(port)" })
        if let publicURL, let url = URLComponents(string: publicURL), let publicScheme = url.scheme?.lowercased(), let publicHost = url.host {
            let standard = (publicScheme == "https" && url.port == 443) || (publicScheme == "http" && url.port == 80)
            origins.insert("\(publicScheme)://\(publicHost.lowercased())" + (url.port.map { standard ? "" : ":\($0)" } ?? ""))
        }
        return origins
    }

    /// `127.0.0.1:8470`, `[::1]:8470`, `0.0.0.0:443` as host and port; nil for anything else.
    static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (1...65_535).contains(port),
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") })
        else { return nil }
        return (String(host), port)
    }

    /// The certificate chain and key, read as the server will read them: a file that is missing or
    /// not PEM fails `--check-config` rather than the first connection.
    public func tlsConfiguration() throws -> TLSConfiguration? {
        guard let tlsCertificate, let tlsKey else { return nil }
        let chain = try NIOSSLCertificate.fromPEMFile(tlsCertificate).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: tlsKey, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    }
}
