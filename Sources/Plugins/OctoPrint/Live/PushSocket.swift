import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import PluginKit

/// OctoPrint's push API over its raw websocket (`/sockjs/websocket`, plain JSON text frames).
/// async-http-client has no websocket, so this is swift-nio's typed client upgrader.
///
/// Why not `WSClient` (hummingbird-project/swift-websocket 1.6.2)? It covers the passive-login
/// message, basic auth (`additionalHeaders`) and a private CA (`TLSConfiguration`), but it always
/// sends SNI: `NIOSSLClientHandler(serverHostname: sniHostname ?? host)`. For a printer addressed
/// by IP (`https://192.168.1.50`, the usual OctoPi set-up) NIOSSL refuses an IP address as SNI,
/// and setting `sniHostname` to a name would verify the certificate against that name instead of
/// the address. Here SNI is sent for names only and NIOSSL checks an address against the
/// certificate's IP SANs, which the private-CA test (`TLSAndBasicAuthTests`, 127.0.0.1) needs.
enum PushSocket {
    enum Upgrade {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    /// The largest message (its frames together) read; OctoPrint's biggest, a history of
    /// temperatures, is a few hundred kilobytes.
    static let maxMessage = 16 << 20

    /// Connects, subscribes and authenticates with a passive-login session, then hands every
    /// message to `onMessage` until the connection ends. `onOpen` runs once authenticated. The
    /// connection and the upgrade must finish within `handshakeTimeout` (a server that accepts
    /// and never answers would hold the push for ever); a message over `maxMessage` ends it.
    static func run(
        printer: Printer, basicPassword: String?, user: String, session: String, handshakeTimeout: Duration,
        onOpen: @Sendable () async -> Void, onMessage: @Sendable (JSONValue) async -> Void
    ) async throws {
        guard let url = URL(string: printer.url), let host = url.host else { throw OctoPrintError.notOctoPrint(printer.url, "bad URL") }
        let tls = url.scheme == "https"
        let port = url.port ?? (tls ? 443 : 80)
        let path = (url.path.isEmpty ? "" : url.path) + "/sockjs/websocket"
        var sslContext: NIOSSLContext?
        if tls {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if let ca = printer.caFile { configuration.trustRoots = .file(ca) }
            sslContext = try NIOSSLContext(configuration: configuration)
        }
        let context = sslContext
        let opened = NIOLockedValueBox<(any Channel)?>(nil)
        let handshake = try await withDeadline(
            handshakeTimeout,
            timedOut: {
                OctoPrintError.unreachable(printer.name, printer.url, "its push socket did not open within \(Int(handshakeTimeout.timeInterval)) s")
            }
        ) {
            // The upgrade's future does not hear cancellation: closing the channel ends it.
            try await withTaskCancellationHandler {
                try await Self.upgrade(host: host, port: port, path: path, url: url, printer: printer, basicPassword: basicPassword, tls: context) {
                    channel in
                    opened.withLockedValue { $0 = channel }
                }
            } onCancel: {
                opened.withLockedValue { $0 }?.close(promise: nil)
            }
        }
        guard case .websocket(let channel) = handshake else {
            throw OctoPrintError.refused(400, "the websocket upgrade was declined")
        }
        try await channel.executeThenClose { inbound, outbound in
            func send(_ value: JSONValue) async throws {
                try await outbound.write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(bytes: value.encodedBytes())))
            }
            try await send(["subscribe": ["state": ["logs": true, "messages": false], "events": true, "plugins": false]])
            try await send(["auth": .string("\(user):\(session)")])
            try await send(["throttle": 1])
            await onOpen()
            var pending = ByteBuffer()
            for try await frame in inbound {
                switch frame.opcode {
                case .text, .continuation:
                    var data = frame.unmaskedData
                    guard pending.readableBytes + data.readableBytes <= Self.maxMessage else {
                        throw OctoPrintError.unreachable(
                            printer.name, printer.url, "its push socket sent a message longer than the limit of \(Self.maxMessage) bytes")
                    }
                    pending.writeBuffer(&data)
                    if frame.fin {
                        if let message = try? JSONValue.decode(bytes: pending.readableBytesView) { await onMessage(message) }
                        pending.clear()
                    }
                case .ping:
                    try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                case .connectionClose:
                    return
                default:
                    break
                }
            }
        }
    }

    /// Connects and asks for the websocket; `opened` learns the channel as soon as it exists.
    private static func upgrade(
        host: String, port: Int, path: String, url: URL, printer: Printer, basicPassword: String?, tls context: NIOSSLContext?,
        opened: @escaping @Sendable (any Channel) -> Void
    ) async throws -> Upgrade {
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                opened(channel)
                return channel.eventLoop.makeCompletedFuture {
                    if let context {
                        // SNI takes names only; for an address, NIOSSL checks the certificate's IP
                        // SANs against the peer address instead.
                        let isAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : host))
                    }
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
                        maxFrameSize: 16 << 20,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                .websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                            }
                        })
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
                    headers.add(name: "Content-Length", value: "0")
                    if let basicUser = printer.basicUser, let basicPassword {
                        headers.add(name: "Authorization", value: "Basic " + Data("\(basicUser):\(basicPassword)".utf8).base64EncodedString())
                    }
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { .refused } })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        return try await upgrade.get()
    }
}
