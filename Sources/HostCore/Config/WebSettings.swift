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

    /// The address a phone opens, without a trailing slash.
    public var baseURL: String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "https" : "http")://\(shownHost):\(port)"
    }

    /// 127.0.0.0/8, ::1 and localhost: reachable from this machine only.
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered == "::1" || lowered.hasPrefix("127.")
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
