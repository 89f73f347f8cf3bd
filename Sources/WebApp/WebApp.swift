import Foundation
import HostCore
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

/// The web app the daemon serves to paired phones and browsers (`[web]`): server-rendered pages
/// over the daemon's own methods, called through `WebGate` and so through the same dispatcher,
/// validation, effects and redaction as the socket. No plugin knows it exists.
public enum WebApp {
    /// The app as a service of the daemon's group; nil when `[web] enabled` is false.
    public static func service(host: AssistantHost, logger: Logger) throws -> (any Service)? {
        guard host.configuration.web.enabled else { return nil }
        return Listening(application: try application(host: host, logger: logger), listen: host.configuration.web.listenAddress)
    }

    /// The address of `[web] listen` could not be had: said as a person can act on it.
    public struct CannotListen: Error, CustomStringConvertible {
        public let description: String
    }

    /// The app, whose failure to take its address becomes `CannotListen` (NIO says only
    /// "bind(descriptor:ptr:bytes:): Address already in use (errno: 98)").
    struct Listening<App: ApplicationProtocol>: Service {
        let application: App
        let listen: String

        func run() async throws {
            do {
                try await application.run()
            } catch let error as IOError where [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(error.errnoCode) {
                let why =
                    switch error.errnoCode {
                    case EADDRINUSE: "it is in use (another program, or another assistantd)"
                    case EACCES: "this user may not listen on that port"
                    default: "no interface of this machine has that address"
                    }
                throw CannotListen(description: "the web app cannot listen on \(listen) ([web] listen): \(why); choose another address")
            }
        }
    }

    /// The app on the configured address; `onServerRunning` hears of the listening channel (a
    /// test reads the port it was given from it).
    public static func application(
        host: AssistantHost, logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        try application(host: host, live: LiveNotices(host: host), logger: logger, onServerRunning: onServerRunning)
    }

    static func application(
        host: AssistantHost, live: LiveNotices, logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let settings = host.configuration.web
        let pages = try Pages(host: host)
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeaders(https: settings.reachedOverHTTPS, styleHash: pages.styleHash))
        router.add(middleware: DeviceSessions(devices: host.webDevices, pages: pages, settings: settings))
        Routes(host: host, pages: pages, gate: WebGate(host: host), settings: settings, live: live).add(to: router)
        let server: HTTPServerBuilder = try settings.tlsConfiguration().map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1()
        return Application(
            router: router, server: server,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: onServerRunning, logger: logger)
    }
}
