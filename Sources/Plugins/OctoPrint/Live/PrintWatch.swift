import Foundation
import PluginKit

/// What one printer is doing, as far as the assistant has seen, fed by the websocket and by
/// polling alike: a notice is posted on a change of this state only, so the two sources never
/// duplicate one another and a source switch mid-print loses nothing.
actor PrintWatch {
    struct Job: Sendable {
        var id = UUID().uuidString
        var file: String
        var paused = false
        var milestones: Set<Int> = []
    }

    struct Settings: Sendable {
        var milestones: [Int]
        var bedCooledBelow: Double
        var offlineAfter: TimeInterval
        var language: LanguageCode = .en
    }

    let printer: String
    let settings: Settings
    let post:
        @Sendable (_ topic: OctoPrintTopic, _ title: String, _ body: String, _ severity: Severity, _ dedupe: String, _ snapshot: Bool) async -> Void
    let now: @Sendable () -> Date

    private(set) var job: Job?
    private var connected: Bool?
    private var watchingBed = false
    private var unreachableSince: Date?
    private var offlineAnnounced = false
    private var lastError: String?
    /// The file of the print that just ended: state snapshots still showing it as printing
    /// (OctoPrint's "Finishing", a late push message) must not start it again.
    private var endedFile: String?
    /// What the temperatures have been (for `octoprint.temperature.chart`).
    private(set) var temperatures = TemperatureHistory()
    /// The serial log's last lines (for `octoprint.terminal`).
    private(set) var terminal = TerminalLog()
    /// Who waits for new log lines (`octoprint.gcode` waiting for its answers): told of each batch.
    private var listeners: [UUID: AsyncStream<Void>.Continuation] = [:]

    init(
        printer: String, settings: Settings, now: @escaping @Sendable () -> Date,
        post: @escaping @Sendable (OctoPrintTopic, String, String, Severity, String, Bool) async -> Void
    ) {
        self.printer = printer
        self.settings = settings
        self.now = now
        self.post = post
    }

    /// A stream told of each new batch of log lines, until `stopListening`.
    func listen() -> (id: UUID, stream: AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        listeners[id] = continuation
        return (id, stream)
    }

    func stopListening(_ id: UUID) { listeners.removeValue(forKey: id)?.finish() }

    private func say(_ words: Words, _ values: [String: String]) -> String { words.text(settings.language, values) }

    private func key(_ what: String) -> String { "octoprint|\(printer)|\(job?.id ?? "-")|\(what)" }

    func started(file: String) async {
        if let job, job.file == file { return }
        endedFile = nil
        job = Job(file: file)
        watchingBed = false
        let names = ["printer": printer, "file": file]
        await post(OctoPrintTopic.printStarted, say(NoticeWords.printing, names), say(NoticeWords.started, names), .info, key("started"), false)
    }

    /// Progress in percent; announces each milestone once (a print first seen mid-way counts as started).
    func progress(file: String?, completion: Double) async {
        if job == nil, let file { await started(file: file) }
        guard job != nil else { return }
        for m in settings.milestones where completion >= Double(m) && !(job?.milestones.contains(m) ?? true) {
            job?.milestones.insert(m)
            await post(
                OctoPrintTopic.printProgress,
                say(NoticeWords.milestone, ["printer": printer, "percent": "\(m)", "file": job?.file ?? say(NoticeWords.theprint, [:])]),
                say(NoticeWords.milestoneBody, ["printer": printer, "percent": "\(m)", "file": job?.file ?? say(NoticeWords.thePrint, [:])]),
                .info, key("progress-\(m)"), false)
        }
    }

    func paused() async {
        guard var j = job, !j.paused else { return }
        j.paused = true
        job = j
        let names = ["printer": printer, "file": j.file]
        await post(
            OctoPrintTopic.printPaused, say(NoticeWords.paused, names), say(NoticeWords.pausedBody, names), .info,
            key("paused-\(UUID().uuidString)"), false)
    }

    func resumed() async {
        guard var j = job, j.paused else { return }
        j.paused = false
        job = j
        let names = ["printer": printer, "file": j.file]
        await post(
            OctoPrintTopic.printResumed, say(NoticeWords.resumed, names), say(NoticeWords.resumedBody, names), .info,
            key("resumed-\(UUID().uuidString)"), false)
    }

    enum End: Sendable {
        case done(seconds: Double?)
        case failed(reason: String?)
        case cancelled
    }

    func ended(_ end: End, file: String?) async {
        guard let j = job ?? file.map({ Job(file: $0) }) else { return }
        job = j
        let names = ["printer": printer, "file": j.file]
        switch end {
        case .done(let seconds):
            await progress(file: j.file, completion: 100)
            let duration = seconds.map { Self.duration($0) }
            let took = duration.map { say(NoticeWords.inDuration, ["duration": $0]) } ?? ""
            await post(
                OctoPrintTopic.printDone, say(NoticeWords.done, names), say(NoticeWords.doneBody, names.merging(["duration": took]) { $1 }),
                .info, key("done"), true)
        case .failed(let reason):
            await post(
                OctoPrintTopic.printFailed, say(NoticeWords.failed, names),
                say(NoticeWords.failedBody, names.merging(["reason": reason.map { ": \($0)" } ?? ""]) { $1 }), .error, key("failed"), true)
        case .cancelled:
            await post(
                OctoPrintTopic.printCancelled, say(NoticeWords.cancelled, names), say(NoticeWords.cancelledBody, names), .warning, key("cancelled"),
                false)
        }
        job = nil
        endedFile = j.file
        watchingBed = true
    }

    func bed(actual: Double) async {
        guard watchingBed, actual < settings.bedCooledBelow else { return }
        watchingBed = false
        await post(
            OctoPrintTopic.bedCooled, say(NoticeWords.bedCooled, ["printer": printer]),
            say(NoticeWords.bedCooledBody, ["printer": printer, "degrees": "\(Int(actual.rounded()))"]),
            .info, "octoprint|\(printer)|bed|\(UUID().uuidString)", false)
    }

    func connection(_ isConnected: Bool) async {
        defer { connected = isConnected }
        guard connected == true, !isConnected else { return }
        await post(
            OctoPrintTopic.printerDisconnected, say(NoticeWords.disconnected, ["printer": printer]),
            say(NoticeWords.disconnectedBody, ["printer": printer]), .warning,
            "octoprint|\(printer)|disconnected|\(UUID().uuidString)", false)
    }

    func error(_ text: String) async {
        guard !text.isEmpty, text != lastError else { return }
        lastError = text
        await post(
            OctoPrintTopic.printerError, say(NoticeWords.error, ["printer": printer]), text, .error,
            "octoprint|\(printer)|error|\(UUID().uuidString)", false)
    }

    func reachable() {
        unreachableSince = nil
        offlineAnnounced = false
    }

    func unreachable(_ reason: String) async {
        let since = unreachableSince ?? now()
        unreachableSince = since
        guard !offlineAnnounced, now().timeIntervalSince(since) >= settings.offlineAfter else { return }
        offlineAnnounced = true
        await post(
            OctoPrintTopic.printerOffline, say(NoticeWords.offline, ["printer": printer]),
            say(NoticeWords.offlineBody, ["printer": printer, "since": ISO8601.string(since), "reason": reason]),
            .warning,
            "octoprint|\(printer)|offline|\(ISO8601.string(since))", false)
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600) h \(s % 3600 / 60) min" : (s >= 60 ? "\(s / 60) min \(s % 60) s" : "\(s) s")
    }

    // MARK: Inputs

    /// A reading from polling (`/api/printer`'s `temperature`), taken now.
    func record(temperature: JSONValue?) {
        if let reading = TemperatureHistory.reading(temperature, at: now()) { temperatures.add(reading) }
    }

    /// One message from the push API.
    func handle(push message: JSONValue) async {
        if let event = message["event"], let type = event["type"]?.stringValue {
            let payload = event["payload"] ?? .null
            let file = payload["path"]?.stringValue ?? payload["name"]?.stringValue
            switch type {
            case "PrintStarted": if let file { await started(file: file) }
            case "PrintDone": await ended(.done(seconds: payload["time"]?.doubleValue), file: file)
            case "PrintFailed": await ended(.failed(reason: payload["reason"]?.stringValue), file: file)
            case "PrintCancelled": await ended(.cancelled, file: file)
            case "PrintPaused": await paused()
            case "PrintResumed": await resumed()
            case "Connected": await connection(true)
            case "Disconnected": await connection(false)
            case "Error": await error(payload["error"]?.stringValue ?? "printer error")
            default: break
            }
        }
        for reading in TemperatureHistory.readings(message["history"]?["temps"]) + TemperatureHistory.readings(message["current"]?["temps"]) {
            temperatures.add(reading)
        }
        let arrived = now()
        let logs = (message["current"]?["logs"]?.arrayValue ?? []).prefix(TerminalLog.linesPerMessage)
        for line in logs {
            if let text = line.stringValue { terminal.add(text, at: arrived) }
        }
        if !logs.isEmpty { for listener in listeners.values { listener.yield() } }
        if let current = message["current"] {
            await observe(
                state: current["state"], job: current["job"], progress: current["progress"],
                bed: current["temps"]?.arrayValue?.last?["bed"]?["actual"]?.doubleValue, fromPush: true)
        }
    }

    /// A snapshot of state (from `current` push messages or from polling).
    func observe(state: JSONValue?, job jobJSON: JSONValue?, progress progressJSON: JSONValue?, bed: Double?, fromPush: Bool) async {
        let flags = state?["flags"]
        let file = jobJSON?["file"]?["path"]?.stringValue ?? jobJSON?["file"]?["name"]?.stringValue
        let printing = flags?["printing"]?.boolValue == true
        let isPaused = flags?["paused"]?.boolValue == true || flags?["pausing"]?.boolValue == true
        let completion = progressJSON?["completion"]?.doubleValue
        if let flags, flags != .null { await connection(true) }
        if !printing && !isPaused && flags?["finishing"]?.boolValue != true && flags != nil { endedFile = nil }
        if printing || isPaused, let file, file == endedFile, job == nil {
            // The print that just ended, still reported as running: not a new print.
        } else if printing || isPaused, let file {
            if job?.file != file { await started(file: file) }
            if isPaused { await paused() } else { await resumed() }
            if let completion { await progress(file: file, completion: completion) }
        } else if !fromPush, let j = job, flags?["cancelling"]?.boolValue != true, flags?["finishing"]?.boolValue != true {
            // Polling saw the print end without seeing how: judge by where it stopped.
            if flags?["error"]?.boolValue == true || flags?["closedOrError"]?.boolValue == true {
                await ended(.failed(reason: state?["text"]?.stringValue), file: j.file)
            } else if (completion ?? 0) >= 100 {
                await ended(.done(seconds: progressJSON?["printTime"]?.doubleValue), file: j.file)
            } else {
                await ended(.cancelled, file: j.file)
            }
        }
        if let bed { await self.bed(actual: bed) }
        if flags?["error"]?.boolValue == true {
            let detail = state?["error"]?.stringValue ?? ""
            await error(detail.isEmpty ? (state?["text"]?.stringValue ?? "printer error") : detail)
        }
    }
}
