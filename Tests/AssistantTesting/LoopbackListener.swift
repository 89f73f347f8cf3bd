import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// What the misbehaving loopback servers (`HostileUpstream`, `HostileWebSocket`) share: a socket
/// on 127.0.0.1 that remembers the connections it accepts, so that stopping closes them too (a
/// client's pool must not carry a kept-alive connection over to the next server on the port).
struct LoopbackListener: Sendable {
    let channel: any Channel
    private let accepted: NIOLockedValueBox<[any Channel]>

    var port: Int { channel.localAddress?.port ?? 0 }

    /// Listens on `port` (0: any); `initialize` sets up each accepted connection's pipeline.
    static func bind(port: Int = 0, _ initialize: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>) async throws -> LoopbackListener {
        let accepted = NIOLockedValueBox<[any Channel]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.withLockedValue { $0.append(channel) }
                return initialize(channel)
            }
            .bind(host: "127.0.0.1", port: port).get()
        return LoopbackListener(channel: channel, accepted: accepted)
    }

    func stop() async {
        try? await channel.close()
        for connection in accepted.withLockedValue({ $0 }) { try? await connection.close() }
    }

    /// Runs `body` with `server`, stopping it afterwards however `body` ends.
    static func scoped<Server, T>(_ server: Server, stop: (Server) async -> Void, _ body: (Server) async throws -> T) async throws -> T {
        do {
            let result = try await body(server)
            await stop(server)
            return result
        } catch {
            await stop(server)
            throw error
        }
    }
}
