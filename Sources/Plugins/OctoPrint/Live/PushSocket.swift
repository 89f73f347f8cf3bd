import Foundation
import HostCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

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

    /// Connects, subscribes and authenticates with a passive-login session, then hands every
    /// message to `onMessage` until the connection ends. `onOpen` runs once authenticated.
    static func run(
        printer: Printer, basicPassword: String?, user: String, session: String, onOpen: @Sendable () async -> Void,
        onMessage: @Sendable (JSONValue) async -> Void
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
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
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
        guard case .websocket(let channel) = try await upgrade.get() else {
            throw OctoPrintError.refused(400, "the websocket upgrade was declined")
        }
        try await channel.executeThenClose { inbound, outbound in
            func send(_ value: JSONValue) async throws {
                try await outbound.write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(bytes: value.encodedBytes())))
            }
            try await send(["subscribe": ["state": ["logs": false, "messages": false], "events": true, "plugins": false]])
            try await send(["auth": .string("\(user):\(session)")])
            try await send(["throttle": 1])
            await onOpen()
            var pending = ByteBuffer()
            for try await frame in inbound {
                switch frame.opcode {
                case .text, .continuation:
                    var data = frame.unmaskedData
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
}
