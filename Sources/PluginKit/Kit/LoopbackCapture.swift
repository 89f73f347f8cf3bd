import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// One browser redirect, caught on 127.0.0.1: a login page (IS/STAG's ticket login, an OAuth
/// authorization) sends the browser to `url`, and the plugin gets the query.
///
/// A one-shot HTTP listener on swift-nio's HTTP codec: a random port (or a fixed one, for an OAuth
/// client registered with an exact redirect URI) and an unguessable path. It answers the one
/// redirect with a small "you can close this tab" page and stops listening at once, so a second
/// redirect finds nothing there; after `timeout` it stops and `redirect()` throws. Nothing is left
/// listening either way.
public final class LoopbackCapture: Sendable {
    /// What the browser brought.
    public struct Redirect: Sendable, Equatable {
        /// The query exactly as it arrived (some servers' values need repair: a base64 `+` that
        /// arrived as a space).
        public var rawQuery: String
        /// The query's items, percent-decoded (the last value wins for a repeated name).
        public var items: [String: String]
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case timedOut(Duration)
        case cancelled

        public var description: String {
            switch self {
            case .timedOut(let after): "no browser came back within \(Int(after.timeInterval)) s; start the login again"
            case .cancelled: "the login was cancelled"
            }
        }
    }

    /// `http://127.0.0.1:<port>/<path>`: the redirect or callback address to give the login page.
    public let url: String
    public let port: Int
    private let channel: any Channel
    private let outcome: EventLoopFuture<Redirect>
    private let promise: EventLoopPromise<Redirect>

    private init(url: String, port: Int, channel: any Channel, promise: EventLoopPromise<Redirect>) {
        self.url = url
        self.port = port
        self.channel = channel
        self.promise = promise
        outcome = promise.futureResult
    }

    /// Starts listening. `port: 0` picks a free one.
    public static func start(
        port: Int = 0, timeout: Duration = .seconds(600), title: String = "Signed in",
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LoopbackCapture {
        let path = "/" + (0..<3).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }.joined().prefix(40)
        let eventLoop = group.next()
        let promise = eventLoop.makePromise(of: Redirect.self)
        let page = Self.page(title: title)
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: eventLoop)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try child.pipeline.syncOperations.addHandler(CaptureHandler(path: String(path), page: page, promise: promise))
                    }
                }
                .bind(host: "127.0.0.1", port: port).get()
        } catch {
            promise.fail(error)
            throw error
        }
        guard let bound = channel.localAddress?.port else {
            promise.fail(Failure.cancelled)
            try? await channel.close()
            throw RPCError.internalError("the loopback listener has no port")
        }
        // Whatever ends it (a redirect, the timeout, a cancel), the listener closes.
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) { promise.fail(Failure.timedOut(timeout)) }
        promise.futureResult.whenComplete { _ in
            timer.cancel()
            channel.close(promise: nil)
        }
        return LoopbackCapture(url: "http://127.0.0.1:\(bound)\(path)", port: bound, channel: channel, promise: promise)
    }

    /// Waits for the redirect; throws `Failure.timedOut` or `.cancelled`. Cancelling the waiting
    /// task cancels the capture.
    public func redirect() async throws -> Redirect {
        try await withTaskCancellationHandler {
            try await outcome.get()
        } onCancel: {
            promise.fail(Failure.cancelled)
        }
    }

    /// Stops listening now (a new login replaced this one).
    public func cancel() async {
        promise.fail(Failure.cancelled)
        try? await channel.closeFuture.get()
    }

    /// Resolves once the listener has closed (tests: nothing is left listening).
    public func closed() async {
        try? await channel.closeFuture.get()
    }

    static func page(title: String) -> String {
        let safe = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <!doctype html><html><head><meta charset="utf-8"><title>\(safe)</title></head>
            <body style="font-family:sans-serif;margin:3em"><h1>\(safe)</h1><p>assistantd has what it needs. You can close this tab.</p></body></html>
            """
    }
}

/// Answers the one expected request; anything else is a 404 and captures nothing.
private final class CaptureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let path: String
    let page: String
    let promise: EventLoopPromise<LoopbackCapture.Redirect>
    private var head: HTTPRequestHead?

    init(path: String, page: String, promise: EventLoopPromise<LoopbackCapture.Redirect>) {
        self.path = path
        self.page = page
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let (requestPath, query) = Self.split(head.uri)
            if head.method == .GET, requestPath == path {
                let items = URLComponents(string: "http://127.0.0.1/?" + query)?.queryItems ?? []
                var values: [String: String] = [:]
                for item in items { values[item.name] = item.value ?? "" }
                respond(context, status: .ok, body: page, contentType: "text/html; charset=utf-8")
                promise.succeed(LoopbackCapture.Redirect(rawQuery: query, items: values))
            } else {
                respond(context, status: .notFound, body: "not found\n", contentType: "text/plain")
            }
        }
    }

    static func split(_ uri: String) -> (String, String) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    private func respond(_ context: ChannelHandlerContext, status: HTTPResponseStatus, body: String, contentType: String) {
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(buffer.readableBytes))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
