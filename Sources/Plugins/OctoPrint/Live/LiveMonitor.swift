import Foundation
import PluginKit

/// Keeps one push connection per printer, reconnecting with backoff; while a printer's
/// websocket is down, the `poll` job reads `/api/job` and `/api/printer` for it instead.
actor LiveMonitor {
    /// Push reconnects: 1 s doubling to a minute, jittered (polling covers the gap).
    static let reconnectBackoff = Backoff(base: 1, maximum: 60, jitter: 0.2)

    struct Entry {
        var watch: PrintWatch
        var connection: BackgroundTasks.Handle
        var live = false
    }

    /// One push session: returns or throws when the connection ends; calls `onOpen` once live.
    typealias Session = @Sendable (_ onOpen: @escaping @Sendable () async -> Void) async throws -> Void

    private var entries: [String: Entry] = [:]
    /// The plugin's background work: each push connection is a child of the plugin's service.
    private let background: BackgroundTasks

    init(background: BackgroundTasks) { self.background = background }

    func watch(for printer: String) -> PrintWatch? { entries[printer]?.watch }

    private func setLive(_ printer: String, _ live: Bool) { entries[printer]?.live = live }

    func start(_ name: String, watch: PrintWatch, clock: any HostClock, logger: Logger, session: @escaping Session) {
        stop(name)
        let connection = background.start {
            let setLive: @Sendable (Bool) async -> Void = { live in await self.setLive(name, live) }
            var failures = 0
            while !Task.isCancelled {
                do {
                    try await session { await setLive(true) }
                    failures = 0
                } catch {
                    failures += 1
                    logger.debug("octoprint push connection ended", metadata: ["printer": "\(name)", "error": "\(ErrorText.sentence(error))"])
                }
                await setLive(false)
                // Reconnect with backoff on the host clock: 1 s doubling to a minute; polling covers the gap.
                try? await clock.sleep(Self.reconnectBackoff, afterFailures: failures + 1)
            }
        }
        entries[name] = Entry(watch: watch, connection: connection)
    }

    func stop(_ name: String) {
        if let connection = entries[name]?.connection { background.requestCancel(connection) }
        entries[name] = nil
    }

    /// Cancels every push connection and waits until each has ended, so nothing outlives the plugin.
    func stopAll() async {
        let connections = entries.values.map(\.connection)
        entries.removeAll()
        await background.cancel(connections)
    }

    var printersWithoutPush: [String] { entries.filter { !$0.value.live }.map(\.key) }
}

extension OctoPrintService {
    /// Starts (or restarts) the push connection and the print watch of one printer.
    func startLive(_ printer: Printer) async {
        let watch = makeWatch(printer.name, page: printer.url)
        await live.start(printer.name, watch: watch, clock: context.clock, logger: context.logger) { onOpen in
            try await self.runPush(printer, watch: watch, onOpen: onOpen)
        }
    }

    var watchSettings: PrintWatch.Settings {
        PrintWatch.Settings(
            milestones: context.config[OctoPrintConfig.progressMilestones].map(Int.init).sorted(),
            bedCooledBelow: context.config[OctoPrintConfig.bedCooledBelow],
            offlineAfter: TimeInterval(context.config[OctoPrintConfig.offlineAfter]), language: context.language)
    }

    /// `page`: the printer's OctoPrint page, the notices' link.
    func makeWatch(_ printer: String, page: String? = nil) -> PrintWatch {
        let clock = context.clock
        return PrintWatch(printer: printer, settings: watchSettings, now: { clock.now }) { [self] topic, title, body, severity, dedupe, snapshot in
            var attachments: [OutgoingAttachment] = []
            if snapshot, let jpeg = await self.snapshotForNotice(printer) {
                attachments.append(OutgoingAttachment(name: "\(printer)-snapshot.jpg", contentType: "image/jpeg", data: Data(jpeg)))
            }
            do {
                try await self.context.notifier.post(
                    topic: topic, title: title, body: body, severity: severity, dedupeKey: dedupe, attachments: attachments, link: page)
            } catch {
                self.context.logger.warning(
                    "could not post an OctoPrint notice", metadata: ["topic": "\(topic)", "error": "\(ErrorText.sentence(error))"])
            }
        }
    }

    /// A webcam snapshot for a notice, or nil (no webcam, or it failed: the notice goes without).
    func snapshotForNotice(_ printerName: String) async -> [UInt8]? {
        do {
            let c = try await client(for: try PrinterStore.resolve(try await printers(), printerName))
            guard let cam = try await webcams(c).first(where: { $0.snapshotURL != nil }) else { return nil }
            return try await snapshotJPEG(c, webcam: cam)
        } catch {
            context.logger.info("no snapshot for the notice", metadata: ["printer": "\(printerName)", "error": "\(ErrorText.sentence(error))"])
            return nil
        }
    }

    /// One push session: passive login for a session, then the websocket until it ends.
    func runPush(_ printer: Printer, watch: PrintWatch, onOpen: @escaping @Sendable () async -> Void) async throws {
        let c = try await client(for: printer)
        let login = try await c.call(.POST, "/api/login", body: ["passive": true]).json ?? .null
        guard let user = login["name"]?.stringValue, let session = login["session"]?.stringValue else {
            throw OctoPrintError.refused(200, "passive login gave no session")
        }
        await watch.reachable()
        try await PushSocket.run(
            printer: printer, basicPassword: c.basicPassword, user: user, session: session, handshakeTimeout: context.httpTimeout,
            onOpen: { [self] in
                await onOpen()
                // Catch up on what happened while the socket was down.
                try? await self.poll(printer, watch: watch)
            }, onMessage: { message in await watch.handle(push: message) })
    }

    /// Reads the job and printer state once and feeds the watch.
    func poll(_ printer: Printer, watch: PrintWatch) async throws {
        let c = try await client(for: printer)
        do {
            let job = try await c.call(.GET, "/api/job").json ?? .null
            let state = try await c.send(try await c.makeRequest(.GET, "/api/printer"))
            await watch.reachable()
            if state.status == 409 {
                await watch.connection(false)
                return
            }
            try c.check(state, conflict: .other)
            let p = state.json ?? .null
            await watch.record(temperature: p["temperature"])
            await watch.observe(
                state: p["state"], job: job["job"], progress: job["progress"], bed: p["temperature"]?["bed"]?["actual"]?.doubleValue,
                fromPush: false)
        } catch {
            // The printer being down (the plugin's case or the kit's code) is a state to show;
            // anything else is the job's failure.
            let sent = RPCError(sending: error)
            guard sent.code == RPCErrorCode.upstreamUnreachable else { throw error }
            await watch.unreachable(sent.message)
        }
    }

}
