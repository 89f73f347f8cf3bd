import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// A loopback HTTP server that answers every request the way a broken or hostile server would,
/// for any plugin's tests: point an account, a feed or an API URL at `url` and call the plugin.
/// Each behaviour is one server (they are cheap: one listening socket on the test's event loop).
public final class HostileUpstream: Sendable {
    public enum Behaviour: Sendable {
        /// `<a><a>…</a></a>` nested `depth` deep, answered with `status` (207 for CalDAV).
        case deepXML(depth: Int, status: Int = 200)
        /// `[[[…]]]` nested `depth` deep.
        case deepJSON(depth: Int)
        /// Ten entities, each ten of the one before (10¹⁰ `lol`s when expanded).
        case billionLaughs(status: Int = 200)
        /// A DOCTYPE naming a file on this machine as an external entity.
        case externalEntity(path: String, status: Int = 200)
        /// A chunked body that never ends (64 KiB chunks as fast as the client reads).
        case endlessBody
        /// A declared and sent body of `bytes`.
        case hugeBody(bytes: Int)
        /// A valid head, then the body one byte each `every`, for ever.
        case trickle(every: TimeAmount)
        /// `inflatedBytes` of zeros, gzip-compressed by NIO's compressor (about a thousandth of
        /// the size on the wire) when the client accepts gzip.
        case gzipBomb(inflatedBytes: Int)
        /// 302 to itself, for ever.
        case redirectLoop
        /// 302 to `location` (a `file:` URL, an address off this machine).
        case redirect(to: String)
        /// Half the declared body, then a TCP reset.
        case resetMidBody
        /// A declared length, fewer bytes, then a clean close.
        case truncated
        /// An HTML error page with 500.
        case htmlError
        /// `status`, `contentType` and `body` as given (wrongly typed or malformed answers).
        case answer(status: Int, contentType: String, body: String)
    }

    public let behaviour: Behaviour
    public let port: Int
    let listener: LoopbackListener
    let requests: NIOLockedValueBox<[String]>

    /// `http://127.0.0.1:<port>`, no trailing slash.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The request lines seen so far (`GET /api/3/semesters/current`).
    public var requestLines: [String] { requests.withLockedValue { $0 } }

    /// `port`: 0 for any; a given one to take the place of a peer that listened there (a test
    /// logs in against a fake, then the fake's address turns hostile).
    public static func start(_ behaviour: Behaviour, port: Int = 0) async throws -> HostileUpstream {
        let requests = NIOLockedValueBox<[String]>([])
        let listener = try await LoopbackListener.bind(port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                if case .gzipBomb = behaviour { try channel.pipeline.syncOperations.addHandler(HTTPResponseCompressor()) }
                try channel.pipeline.syncOperations.addHandler(Responder(behaviour: behaviour, requests: requests))
            }
        }
        return HostileUpstream(behaviour: behaviour, listener: listener, requests: requests)
    }

    init(behaviour: Behaviour, listener: LoopbackListener, requests: NIOLockedValueBox<[String]>) {
        self.behaviour = behaviour
        self.listener = listener
        self.port = listener.port
        self.requests = requests
    }

    /// Closes the listening socket and every connection it accepted.
    public func stop() async { await listener.stop() }

    public var requestCount: Int { requests.withLockedValue { $0.count } }

    /// Runs `body` with a server of `behaviour`, closing it afterwards however `body` ends.
    public static func with<T>(_ behaviour: Behaviour, port: Int = 0, _ body: (HostileUpstream) async throws -> T) async throws -> T {
        try await LoopbackListener.scoped(try await start(behaviour, port: port), stop: { await $0.stop() }, body)
    }

    /// Every way a JSON API can answer badly, for a plugin's tests to run through one after the
    /// other; `redirectTarget` is an address off this machine (never contacted: redirects there
    /// are refused before connecting).
    public static func everyJSONMisbehaviour(redirectTarget: String) -> [Behaviour] {
        [
            .deepJSON(depth: 100_000), .trickle(every: .milliseconds(300)), .endlessBody, .gzipBomb(inflatedBytes: 1 << 30), .resetMidBody,
            .truncated, .htmlError, .redirectLoop, .redirect(to: redirectTarget),
            .answer(status: 200, contentType: "text/html", body: "<html>maintenance or a router's login page</html>"),
        ]
    }

    /// The documents the XML and JSON behaviours send, for parser tests without a socket.
    public static func nestedXML(depth: Int) -> [UInt8] {
        Array("<?xml version=\"1.0\"?>".utf8) + Array(repeating: Array("<a>".utf8), count: depth).flatMap { $0 }
            + Array(repeating: Array("</a>".utf8), count: depth).flatMap { $0 }
    }

    public static func nestedJSON(depth: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
    }

    public static let billionLaughsXML = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [<!ENTITY lol "lol">
        <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
        <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
        <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
        <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
        <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
        <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
        <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
        <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>&lol9;</title></feed>
        """

    public static func externalEntityXML(path: String) -> String {
        """
        <?xml version="1.0"?>
        <!DOCTYPE feed [<!ENTITY secret SYSTEM "file://\(path)">]>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>&secret;</title></feed>
        """
    }
}

/// Answers each request after its end, per the behaviour; one connection may carry several.
private final class Responder: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let behaviour: HostileUpstream.Behaviour
    let requests: NIOLockedValueBox<[String]>

    init(behaviour: HostileUpstream.Behaviour, requests: NIOLockedValueBox<[String]>) {
        self.behaviour = behaviour
        self.requests = requests
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            requests.withLockedValue { $0.append("\(head.method.rawValue) \(head.uri)") }
        case .body:
            break
        case .end:
            respond(context: context)
        }
    }

    func head(_ context: ChannelHandlerContext, _ status: Int, _ headers: [(String, String)]) {
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: HTTPHeaders(headers))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    func whole(_ context: ChannelHandlerContext, _ status: Int, _ type: String, _ bytes: [UInt8], extra: [(String, String)] = []) {
        head(context, status, [("Content-Type", type), ("Content-Length", "\(bytes.count)")] + extra)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func respond(context: ChannelHandlerContext) {
        switch behaviour {
        case .deepXML(let depth, let status):
            whole(context, status, "application/xml; charset=utf-8", HostileUpstream.nestedXML(depth: depth))
        case .deepJSON(let depth):
            whole(context, 200, "application/json", HostileUpstream.nestedJSON(depth: depth))
        case .billionLaughs(let status):
            whole(context, status, "application/xml", Array(HostileUpstream.billionLaughsXML.utf8))
        case .externalEntity(let path, let status):
            whole(context, status, "application/xml", Array(HostileUpstream.externalEntityXML(path: path).utf8))
        case .hugeBody(let bytes):
            head(context, 200, [("Content-Type", "application/json"), ("Content-Length", "\(bytes)")])
            let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 1 << 16)
            Self.pump(context: context.loopBound(self), chunk: chunk, remaining: bytes)
        case .endlessBody:
            head(context, 200, [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
            Self.pump(context: context.loopBound(self), chunk: ByteBuffer(repeating: UInt8(ascii: " "), count: 1 << 16), remaining: nil)
        case .trickle(let every):
            head(context, 200, [("Content-Type", "application/json"), ("Content-Length", "1000000")])
            context.flush()
            Self.trickle(context: context.loopBound(self), every: every)
        case .gzipBomb(let inflated):
            head(context, 200, [("Content-Type", "application/json")])
            Self.pump(context: context.loopBound(self), chunk: ByteBuffer(repeating: 0, count: 1 << 16), remaining: inflated)
        case .redirectLoop:
            whole(context, 302, "text/plain", [], extra: [("Location", "/again")])
        case .redirect(let location):
            whole(context, 302, "text/plain", [], extra: [("Location", location)])
        case .resetMidBody:
            head(context, 200, [("Content-Type", "application/json"), ("Content-Length", "2000")])
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(repeating: UInt8(ascii: " "), count: 1000)))), promise: nil)
            // SO_LINGER 0: close sends RST instead of FIN.
            let channel = context.channel
            guard let socket = channel as? any SocketOptionProvider else { return channel.close(promise: nil) }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
        case .truncated:
            head(context, 200, [("Content-Type", "application/json"), ("Content-Length", "2000")])
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "{\"items\": [1, 2, 3"))))).whenComplete { _ in
                channel.close(promise: nil)
            }
        case .htmlError:
            whole(context, 500, "text/html", Array("<html><body><h1>Internal Server Error</h1><p>Proxy error</p></body></html>".utf8))
        case .answer(let status, let type, let body):
            whole(context, status, type, Array(body.utf8))
        }
    }

    /// Writes `chunk` while the channel is writable and open, `remaining` bytes in all (nil: for ever).
    static func pump(context: NIOLoopBound<(ChannelHandlerContext, Responder)>, chunk: ByteBuffer, remaining: Int?) {
        let (ctx, responder) = context.value
        guard ctx.channel.isActive else { return }
        if let remaining, remaining <= 0 {
            ctx.writeAndFlush(responder.wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let count = min(chunk.readableBytes, remaining ?? .max)
        let loop = ctx.eventLoop
        ctx.writeAndFlush(responder.wrapOutboundOut(.body(.byteBuffer(chunk.getSlice(at: 0, length: count)!)))).whenComplete { result in
            guard case .success = result else { return }
            // On the next tick: a write into the compressor completes at once, and a chain of
            // them would hold the event loop (shared with the client under test) for the whole
            // gigabyte, and a close queued behind it.
            loop.execute { pump(context: context, chunk: chunk, remaining: remaining.map { $0 - count }) }
        }
    }

    static func trickle(context: NIOLoopBound<(ChannelHandlerContext, Responder)>, every: TimeAmount) {
        let (ctx, responder) = context.value
        ctx.eventLoop.scheduleTask(in: every) {
            let (ctx, responder) = context.value
            guard ctx.channel.isActive else { return }
            ctx.writeAndFlush(responder.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: " ")))), promise: nil)
            trickle(context: context, every: every)
        }
        _ = responder
    }
}

extension ChannelHandlerContext {
    fileprivate func loopBound(_ responder: Responder) -> NIOLoopBound<(ChannelHandlerContext, Responder)> {
        NIOLoopBound((self, responder), eventLoop: eventLoop)
    }
}
