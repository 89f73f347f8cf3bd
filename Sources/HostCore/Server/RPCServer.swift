import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix

/// The Unix-socket JSON-RPC server: 0600 socket in a 0700 directory, every peer checked with
/// `SO_PEERCRED`, a stale socket replaced, a live one refused, systemd socket activation honoured.
public final class RPCServer: Sendable {
    public let path: String
    let settings: SocketSettings
    let dispatcher: Dispatcher
    let subscribers: SubscriberRegistry
    let logger: Logger
    let group: any EventLoopGroup
    let tracker = InFlightTracker()
    /// An inherited listening socket (systemd `LISTEN_FDS`); never unlinked by us.
    let activatedDescriptor: CInt?
    private let allowedGIDs: Set<gid_t>
    private struct State {
        /// The bound socket, until `serve()` takes it.
        var bound: (NIOAsyncChannel<Accepted, Never>, ConnectionServer)?
        var quiescing: ServerQuiescingHelper?
        var connections: [UInt64: ServerConnection] = [:]
        var nextID: UInt64 = 0
        /// Wires made by the child initializer that the accept loop has not taken yet, by
        /// connection. NIO's async `bind` can drop an accepted child that is still on its way
        /// when the listening socket closes (apple/swift-nio#2637), and a `NIOAsyncChannel`
        /// released without `executeThenClose` traps; so the wire stays here, never in the
        /// accept stream, and the server closes whatever the loop did not take.
        var unclaimed: [UInt64: ConnectionServer.Wire] = [:]
        /// Set once the accept loop has ended: the initializer then makes no more wires.
        var acceptingEnded = false
        /// The most connections open at once since the heap was last trimmed.
        var peakSinceTrim = 0
    }

    /// After this many connections at once have all closed, the freed heap is given back.
    static let trimAfterPeak = 256

    /// What the child-channel initializer hands the accept loop (the wire waits in `unclaimed`).
    enum Accepted: Sendable {
        case refused
        case connection(ServerConnection)
    }
    private let state = NIOLockedValueBox(State())

    public init(
        path: String, settings: SocketSettings, dispatcher: Dispatcher, subscribers: SubscriberRegistry, logger: Logger,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, activatedDescriptor: CInt? = nil
    ) throws {
        self.path = path
        self.settings = settings
        self.dispatcher = dispatcher
        self.subscribers = subscribers
        self.logger = logger
        self.group = group
        self.activatedDescriptor = activatedDescriptor
        var gids = Set<gid_t>()
        for name in settings.allowGroups {
            if let gid = gid_t(name) {
                gids.insert(gid)
            } else if let entry = getgrnam(name) {
                gids.insert(entry.pointee.gr_gid)
            } else {
                throw StartupError(.configuration, "socket.allow_groups names '\(name)', which is not a group on this system")
            }
        }
        allowedGIDs = gids
    }

    public var connectionCount: Int { state.withLockedValue { $0.connections.count } }
    public var inFlightCount: Int { tracker.count }

    /// Returns once no call is in flight (a client's hang-up has reached every call it made).
    public func waitUntilNoCallsInFlight() async { await tracker.waitUntilIdle() }

    /// Returns once at least `count` calls are in flight (a test hanging up mid-call).
    public func waitUntilCallsInFlight(atLeast count: Int) async { await tracker.waitUntil { $0 >= count } }
    public var droppedNotices: Int { state.withLockedValue { $0.connections.values.reduce(0) { $0 + $1.droppedNotices } } }

    /// Binds the socket; connections wait in the backlog until `serve()` runs.
    public func start() async throws {
        let quiescing = ServerQuiescingHelper(group: group)
        let bootstrap = ServerBootstrap(group: group)
            // Bursts of clients (a script starting many at once) must not find the queue full:
            // a Unix socket answers EAGAIN to connect, not a retry later. Linux caps it at somaxconn.
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            // A client that shuts down only its write side still gets every reply.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
        let initialize: @Sendable (any Channel) -> EventLoopFuture<Accepted> = { [self] channel in self.initialize(channel) }
        let server: NIOAsyncChannel<Accepted, Never>
        if let fd = activatedDescriptor {
            server = try await bootstrap.bind(fd, childChannelInitializer: initialize)
        } else {
            try prepareSocketPath()
            // No umask juggling here: umask is process-wide and would race other threads. The
            // directory is 0700 (0710 with a group mode) before the socket exists, and
            // assistantd runs with umask 077, so the socket is never reachable by others.
            do {
                server = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true, childChannelInitializer: initialize)
            } catch {
                throw StartupError(.cannotCreate, "cannot create the socket \(path): \(error)")
            }
            chmod(path, settings.mode)
        }
        let connectionServer = ConnectionServer(
            dispatcher: dispatcher, tracker: tracker, maxLineBytes: settings.maxRequestBytes, maxConcurrent: settings.maxConcurrentPerConnection)
        state.withLockedValue {
            $0.bound = (server, connectionServer)
            $0.quiescing = quiescing
        }
        logger.info("listening", metadata: ["socket": "\(path)"])
    }

    /// The accept loop, run by the server's service until `stop` closes the listening socket and
    /// the last connection ends. Each connection is a child task, and its calls are child tasks
    /// of the connection, so none outlives the server. Throws when the socket fails.
    public func serve() async throws {
        guard
            let (server, connectionServer) = state.withLockedValue({ s in
                defer { s.bound = nil }
                return s.bound
            })
        else { return }
        do {
            try await server.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await accepted in inbound {
                        guard case .connection(let connection) = accepted,
                            let wire = state.withLockedValue({ $0.unclaimed.removeValue(forKey: connection.connectionID) })
                        else { continue }
                        group.addTask { [self] in
                            await connectionServer.serve(wire, connection: connection)
                            subscribers.unsubscribe(connection.connectionID)
                            let burstEnded = state.withLockedValue { s -> Bool in
                                s.connections.removeValue(forKey: connection.connectionID)
                                guard s.connections.isEmpty, s.peakSinceTrim >= Self.trimAfterPeak else { return false }
                                s.peakSinceTrim = 0
                                return true
                            }
                            if burstEnded { await HeapTrim.returnFreedMemory() }
                        }
                    }
                    // The listening socket has closed. A client accepted on the way is closed:
                    // NIO may never register its channel, so serving it could wait forever.
                    await closeUnclaimedConnections()
                }
            }
        } catch {
            await closeUnclaimedConnections()
            logger.error("the socket stopped accepting connections", metadata: ["error": "\(ErrorText.sentence(error))"])
            throw error
        }
    }

    /// Closes the connections accepted that the accept loop never took (it ended, failed, or
    /// never ran); no more are made after this.
    private func closeUnclaimedConnections() async {
        let unclaimed = state.withLockedValue { s in
            defer {
                s.acceptingEnded = true
                s.unclaimed = [:]
            }
            return s.unclaimed
        }
        for (id, wire) in unclaimed {
            try? await wire.executeThenClose { _, _ in }
            _ = state.withLockedValue { $0.connections.removeValue(forKey: id) }
        }
    }

    private func prepareSocketPath() throws {
        guard path.utf8.count <= Paths.maxSocketPathBytes else {
            throw StartupError(
                .configuration,
                "the socket path is \(path.utf8.count) bytes, over the \(Paths.maxSocketPathBytes)-byte limit of Unix sockets: \(path); "
                    + "choose a shorter --socket"
            )
        }
        let directory = (path as NSString).deletingLastPathComponent
        let directoryMode: mode_t = settings.mode & 0o060 != 0 ? 0o710 : (settings.mode & 0o006 != 0 ? 0o711 : 0o700)
        var info = stat()
        if lstat(directory, &info) != 0 {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(directoryMode)])
            } catch {
                throw StartupError(.cannotCreate, "cannot create the socket directory \(directory): \(error.localizedDescription)")
            }
            guard lstat(directory, &info) == 0 else {
                throw StartupError(.cannotCreate, "the socket directory \(directory) vanished as it was made: \(String(cString: strerror(errno)))")
            }
        }
        try Self.checkSocketFolder(directory, info)
        chmod(directory, directoryMode)
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw StartupError(.cannotCreate, "\(path) exists and is not a socket; remove it or choose another --socket")
            }
            // Probe before cleaning up (as Core Lightning does): a live daemon answers the connect.
            if Self.isLive(path) {
                throw StartupError(.alreadyRunning, "another assistantd is already serving \(path)")
            }
            unlink(path)
        }
    }

    /// The folder the socket goes into must be a real folder (not a symbolic link), this user's,
    /// and writable by nobody else: another user who made `/tmp/assistant-$UID` first, or can
    /// write into it, could put their own socket or a link where clients look for the daemon.
    /// Checked with `lstat`, before anything is bound.
    static func checkSocketFolder(_ directory: String, _ info: stat) throws {
        guard info.st_mode & S_IFMT == S_IFDIR else {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a folder"
            throw StartupError(.cannotCreate, "the socket directory \(directory) is \(what); remove it or choose another --socket")
        }
        guard info.st_uid == geteuid() else {
            throw StartupError(
                .cannotCreate,
                "the socket directory \(directory) belongs to uid \(info.st_uid), not to this user (uid \(geteuid())): another user may have "
                    + "made it; remove it or choose another --socket")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw StartupError(
                .cannotCreate,
                "the socket directory \(directory) can be written by its group or others (mode \(String(info.st_mode & 0o777, radix: 8))); "
                    + "chmod go-w it or choose another --socket")
        }
    }

    static func isLive(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return UnixSocketAddress.connect(fd, to: path)
    }

    private func initialize(_ channel: any Channel) -> EventLoopFuture<Accepted> {
        peerCredentials(of: channel).flatMap { peer in
            channel.eventLoop.makeCompletedFuture {
                let sync = channel.pipeline.syncOperations
                if let refusal = self.refusal(for: peer) {
                    self.logger.warning("refused a peer", metadata: ["uid": "\(peer.map { String($0.uid) } ?? "?")", "reason": "\(refusal)"])
                    try sync.addHandler(PeerRefusalHandler(reason: refusal))
                    return .refused
                }
                // One lock from the check to the registration, so a wire is either made before
                // the accept loop ended (and closed by it) or not made at all.
                let accepted = try self.state.withLockedValue { s -> Accepted in
                    guard !s.acceptingEnded else { return .refused }
                    s.nextID += 1
                    let connection = ServerConnection(id: s.nextID, peer: peer, channel: channel, queueLimit: self.settings.noticeQueueLimit)
                    try sync.addHandler(ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: self.settings.maxRequestBytes))
                    try sync.addHandler(NoticeDrainHandler(connection: connection))
                    try sync.addHandler(ImmediateReplyHandler(dispatcher: self.dispatcher, maxLineBytes: self.settings.maxRequestBytes))
                    // Up to 16 lines read ahead; past that, reading waits for the connection's task.
                    let wire = try ConnectionServer.Wire(
                        wrappingChannelSynchronously: channel, configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 16)))
                    s.connections[s.nextID] = connection
                    s.peakSinceTrim = max(s.peakSinceTrim, s.connections.count)
                    s.unclaimed[s.nextID] = wire
                    return .connection(connection)
                }
                // Accepted while the server stopped: nobody will serve it.
                if case .refused = accepted { channel.close(promise: nil) }
                return accepted
            }
        }
    }

    /// `struct ucred` is hidden behind `_GNU_SOURCE` in glibc; this twin has its layout.
    struct UCred: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    private func peerCredentials(of channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
            let future: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
            return future.map { Optional(PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid)) }.recover { _ in nil }
        #else
            return channel.eventLoop.makeSucceededFuture(nil)
        #endif
    }

    /// nil when the peer may talk to us. Root is not special unless listed.
    func refusal(for peer: PeerCredentials?) -> String? {
        guard let peer else { return "the peer's credentials could not be read" }
        if peer.uid == getuid() || settings.allowUIDs.contains(peer.uid) { return nil }
        if allowedGIDs.contains(peer.gid) { return nil }
        if !allowedGIDs.isEmpty, let user = getpwuid(peer.uid) {
            var groups = [gid_t](repeating: 0, count: 256)
            var count: Int32 = 256
            if getgrouplist(user.pointee.pw_name, peer.gid, &groups, &count) != -1,
                groups.prefix(Int(count)).contains(where: allowedGIDs.contains)
            {
                return nil
            }
        }
        return "uid \(peer.uid) is not allowed on this socket (socket.allow_uids / socket.allow_groups)"
    }

    /// Stops accepting (the quiescing helper closes the listening socket), lets calls in flight
    /// finish (up to `grace`), then closes every connection, which cancels what is still running,
    /// and removes the socket file (unless systemd owns it). `serve()` then returns.
    public func stop(grace: Duration) async {
        let (bound, quiescing) = state.withLockedValue { s in
            defer {
                s.bound = nil
                s.quiescing = nil
            }
            return (s.bound, s.quiescing)
        }
        // Bound but never served: close the listening socket here, and what it accepted.
        if let (server, _) = bound {
            try? await server.executeThenClose { _ in }
            await closeUnclaimedConnections()
        }
        dispatcher.beginDraining()
        let allClosed = group.next().makePromise(of: Void.self)
        if let quiescing {
            quiescing.initiateShutdown(promise: allClosed)
        } else {
            allClosed.succeed()
        }
        let tracker = self.tracker
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await tracker.waitUntilIdle() }
            group.addTask { try? await Task.sleep(for: grace) }
            await group.next()
            group.cancelAll()
        }
        let open = state.withLockedValue { $0.connections.values.map(\.channel) }
        for channel in open { try? await channel.close() }
        try? await allClosed.futureResult.get()
        if activatedDescriptor == nil { unlink(path) }
        logger.info("stopped listening", metadata: ["socket": "\(path)"])
    }
}
