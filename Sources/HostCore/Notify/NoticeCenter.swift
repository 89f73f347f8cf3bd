import Foundation
import GRDB
import Logging
import NIOConcurrencyHelpers

/// Receives notices, persists them with one outbox row per matching sink, pushes them to live
/// subscribers, and delivers the outbox with retries. The dedupe key is recorded in the same
/// transaction as the notice, so a key is delivered at most once, across restarts too.
public actor NoticeCenter {
    private let pool: DatabasePool
    private let clock: any HostClock
    private let redactor: SecretRedactor
    private let logger: Logger
    private var sinks: [RoutedSink]
    private let subscribers: SubscriberRegistry
    private let waker = Waker()
    private var sequence: Int64 = 0
    /// First retry after this, doubling per failed attempt, capped at `maximumRetryDelay`.
    let baseRetryDelay: TimeInterval
    let maximumRetryDelay: TimeInterval
    /// `Backoff.jitter` for delivery retries (tests that read the retry's time pin it to 0).
    let retryJitter: Double
    /// What the host's own notices are said in (`language`).
    let language: LanguageCode

    public init(
        pool: DatabasePool, clock: any HostClock, sinks: [RoutedSink], redactor: SecretRedactor, logger: Logger,
        subscribers: SubscriberRegistry, baseRetryDelay: TimeInterval = 5, maximumRetryDelay: TimeInterval = 3600, retryJitter: Double = 0.2,
        language: LanguageCode = .en
    ) throws {
        self.language = language
        self.pool = pool
        self.clock = clock
        self.sinks = sinks
        self.redactor = redactor
        self.logger = logger
        self.subscribers = subscribers
        self.baseRetryDelay = baseRetryDelay
        self.retryJitter = retryJitter
        self.maximumRetryDelay = maximumRetryDelay
        sequence = try pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM host_notices") ?? 0 }
    }

    /// Replaces sinks and routing (SIGHUP). Pending outbox rows for a removed sink stay pending;
    /// a sink that failed for good is tried again.
    public func reconfigure(sinks: [RoutedSink]) {
        self.sinks = sinks
        disabled.removeAll()
        waker.wake()
    }

    /// Sinks that refused a delivery for good (a 4xx that will not change): no notice is queued
    /// for them until the configuration is read again.
    private var disabled: Set<String> = []
    /// Each sink's last failure (the outbox row keeps it only until the retry succeeds).
    private var lastErrors: [String: (time: String, message: String)] = [:]

    private var liveSinks: [RoutedSink] { sinks.filter { !disabled.contains($0.sink.name) } }

    public var sinkNames: [String] { sinks.map(\.sink.name) }

    /// Whether a mail sink is configured (a plugin's default reminder channels depend on it).
    public var hasMail: Bool { sinks.contains(where: \.isMail) }

    /// Persists and routes a notice. Returns nil when its dedupe key was seen before.
    @discardableResult
    public func post(_ draft: NoticeDraft) async throws -> Notice? {
        if let to = draft.directRecipient {
            guard sinks.contains(where: \.isMail) else {
                throw RPCError(
                    code: RPCErrorCode.invalidParams,
                    message: "Invalid params: 'to' needs mail, and mail is not configured (set [notify.mail] in the config)",
                    data: ["param": "to"])
            }
            try MailAddress.validate(to, param: "to")
            for address in draft.blindCopies { try MailAddress.validate(address, param: "bcc") }
        }
        sequence += 1
        let notice = Notice(
            id: UUID().uuidString.lowercased(), topic: draft.topic, plugin: draft.plugin, title: redactor.redact(draft.title),
            body: redactor.redact(draft.body), severity: draft.severity, time: ISO8601.string(clock.now), dedupeKey: draft.dedupeKey,
            attachments: draft.attachments.map { NoticeAttachment(name: $0.name, contentType: $0.contentType, size: $0.data.count) },
            link: draft.link.map(redactor.redact))
        let targets: [String] =
            if draft.directRecipient != nil {
                liveSinks.filter(\.isMail).prefix(1).map(\.sink.name)
            } else if let channels = draft.channels {
                liveSinks.filter { channels.contains($0.isMail ? .mail : .stdout) }.map(\.sink.name)
            } else {
                liveSinks.filter { $0.route.accepts(topic: notice.topic, severity: notice.severity) }.map(\.sink.name)
            }
        let seq = sequence
        // GRDB's async write: the fsync'd commit waits on GRDB's writer queue, not on this
        // actor's executor, so listing, status and other posts go on meanwhile. `seq` was taken
        // above, so notices keep their order whatever order their commits finish in. A notice
        // decided on is stored even if its poster is being cancelled: what caused it (a state
        // flip, a reminder's instant) has happened and will not post it again.
        let inserted = try await pool.writeWhole { db -> Bool in
            if let key = notice.dedupeKey {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO host_dedupe(key, first_seen) VALUES (?, ?)", arguments: [key, notice.time])
                if db.changesCount == 0 { return false }
            }
            try db.execute(
                sql: """
                    INSERT INTO host_notices(
                        id, seq, topic, plugin, title, body, severity, time, dedupe_key, direct_to, attachments, direct_bcc, link)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    notice.id, seq, notice.topic, notice.plugin, notice.title, notice.body, notice.severity.rawValue, notice.time,
                    notice.dedupeKey, draft.directRecipient, try JSONValue(encoding: notice.attachments).encodedString(),
                    draft.blindCopies.isEmpty ? nil : JSONValue.array(draft.blindCopies.map(JSONValue.string)).encodedString(), notice.link,
                ])
            for (position, attachment) in draft.attachments.enumerated() {
                try db.execute(
                    sql: "INSERT INTO host_notice_attachments(notice_id, position, name, content_type, data) VALUES (?, ?, ?, ?, ?)",
                    arguments: [notice.id, position, attachment.name, attachment.contentType, attachment.data])
            }
            for sink in targets {
                try db.execute(
                    sql: "INSERT INTO host_outbox(notice_id, sink, next_attempt) VALUES (?, ?, ?)",
                    arguments: [notice.id, sink, notice.time])
            }
            return true
        }
        guard inserted else {
            logger.debug("dropped a duplicate notice", metadata: ["topic": "\(notice.topic)", "dedupe_key": "\(notice.dedupeKey ?? "")"])
            return nil
        }
        subscribers.publish(notice)
        if !targets.isEmpty { waker.wake() }
        return notice
    }

    public func list(limit: Int, topic: TopicPattern?) async throws -> [Notice] {
        try await pool.read { db in
            var sql = "SELECT * FROM host_notices"
            var arguments: StatementArguments = []
            if let topic {
                if topic.text.hasSuffix("*") {
                    sql += " WHERE topic LIKE ? ESCAPE '\\'"
                    arguments += [Vault.likePrefix(String(topic.text.dropLast()))]
                } else {
                    sql += " WHERE topic = ?"
                    arguments += [topic.text]
                }
            }
            sql += " ORDER BY time DESC, seq DESC LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.notice(from:))
        }
    }

    /// Outbox statistics for `status`.
    public struct OutboxCounts: Sendable, ResultObject {
        public let pending: Int
        public let retrying: Int

        public static let members = ResultMembers<Self>(.field("pending", \.pending), .field("retrying", \.retrying))
    }

    public func outboxStatus() async throws -> OutboxCounts {
        try await pool.read { db in
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM host_outbox WHERE delivered_at IS NULL") ?? 0
            let failing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM host_outbox WHERE delivered_at IS NULL AND attempts > 0") ?? 0
            return OutboxCounts(pending: pending, retrying: failing)
        }
    }

    // MARK: Delivery

    private var stopping = false

    /// The delivery loop: runs until `stop()`. It is never cancelled mid-delivery, so a
    /// delivery is either recorded as done or left pending, never half-recorded.
    ///
    /// Each sink's queue is delivered by a child task of its own, started when the sink has
    /// something due and is not already delivering: a sink that is slow or down (a 30 s timeout)
    /// never holds back another sink's notices. A child that finishes wakes the loop.
    public func runOutbox() async {
        await withTaskGroup(of: Void.self) { group in
            // Cancelled (the service group gave up on another service) as well as stopped: a
            // cancelled read fails at once and a cancelled wait returns at once, so the loop
            // would otherwise spin.
            while !stopping, !Task.isCancelled {
                let now = clock.now
                // Sinks busy before the read: one that finishes during it was read before it had
                // recorded its delivery, so it waits for the next pass (its finish wakes the loop).
                let busy = delivering
                guard let queues = await dueQueues() else {
                    // The outbox could not be read: try again shortly.
                    await waker.wait(until: now.addingTimeInterval(baseRetryDelay), clock: clock)
                    continue
                }
                for routed in liveSinks where !busy.contains(routed.sink.name) && !delivering.contains(routed.sink.name) {
                    guard let queue = queues[routed.sink.name], let first = queue.first, let at = ISO8601.date(first.nextAttempt), at <= now
                    else { continue }
                    delivering.insert(routed.sink.name)
                    group.addTask {
                        await self.deliver(queue, to: routed, now: now)
                        await self.finished(routed.sink.name)
                    }
                }
                if stopping { break }
                await waker.wait(until: await nextAttempt(excluding: delivering), clock: clock)
            }
            // The deliveries under way end by themselves (each records its outcome).
            await group.waitForAll()
        }
    }

    /// Sinks whose queue a child of `runOutbox` is delivering now.
    private var delivering: Set<String> = []

    private func finished(_ sinkName: String) {
        delivering.remove(sinkName)
        waker.wake()
    }

    /// Ends `runOutbox` after its current pass.
    public func stop() {
        stopping = true
        waker.wake()
    }

    /// One pending delivery.
    struct Due: Sendable {
        var sink: String
        var noticeID: String
        var attempts: Int
        var nextAttempt: String
        var notice: Notice
        var directTo: String?
        var bcc: [String]
    }

    /// Delivers everything due now; returns when the next retry is due (nil if nothing waits).
    /// Each sink's queue is delivered in order, and the sinks at once: a sink that is down or
    /// slow holds back only its own later notices, never another sink's.
    @discardableResult
    public func deliverDue() async -> Date? {
        let now = clock.now
        guard let queues = await dueQueues() else { return now.addingTimeInterval(baseRetryDelay) }
        let live = liveSinks
        await withTaskGroup(of: Void.self) { group in
            for routed in live {
                guard let queue = queues[routed.sink.name] else { continue }
                group.addTask { await self.deliver(queue, to: routed, now: now) }
            }
        }
        return await nextAttempt(excluding: [])
    }

    /// Every pending delivery of every sink, each sink's in order; nil when the outbox cannot be read.
    private func dueQueues() async -> [String: [Due]]? {
        do {
            // GRDB's async read: the outbox is read off this actor's executor.
            let due = try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT o.notice_id, o.sink, o.attempts, o.next_attempt, n.* FROM host_outbox o JOIN host_notices n ON n.id = o.notice_id
                        WHERE o.delivered_at IS NULL AND o.failed_at IS NULL ORDER BY n.seq
                        """
                ).map { row in
                    let bcc = (row["direct_bcc"] as String?).flatMap { try? JSONValue.decode($0).arrayValue }?.compactMap(\.stringValue) ?? []
                    return Due(
                        sink: row["sink"], noticeID: row["notice_id"], attempts: row["attempts"], nextAttempt: row["next_attempt"],
                        notice: Self.notice(from: row), directTo: row["direct_to"], bcc: bcc)
                }
            }
            return Dictionary(grouping: due, by: \.sink)
        } catch {
            logger.error("cannot read the outbox", metadata: ["error": "\(ErrorText.sentence(error))"])
            return nil
        }
    }

    /// When the next delivery of a sink not busy is due (nil if none waits).
    private func nextAttempt(excluding busy: Set<String>) async -> Date? {
        let known = liveSinks.map(\.sink.name).filter { !busy.contains($0) }
        guard !known.isEmpty else { return nil }
        return try? await pool.read { db -> Date? in
            let placeholders = known.map { _ in "?" }.joined(separator: ",")
            let next = try String.fetchOne(
                db,
                sql: "SELECT MIN(next_attempt) FROM host_outbox WHERE delivered_at IS NULL AND failed_at IS NULL AND sink IN (\(placeholders))",
                arguments: StatementArguments(known))
            return next.flatMap(ISO8601.date)
        }
    }

    /// One sink's queue, oldest first, until one is not due yet or fails (it is retried first).
    /// What leaves through a sink (stdout, mail, ntfy, webhooks, the desktop) is scrubbed of
    /// every secret, those a caller named in its own text too: only the caller's replies show
    /// its text as written (`SecretRedactor.noteCallerText`).
    private func outgoing(_ notice: Notice) -> Notice {
        var notice = notice
        notice.title = redactor.redactForLog(notice.title)
        notice.body = redactor.redactForLog(notice.body)
        notice.link = notice.link.map(redactor.redactForLog)
        return notice
    }

    private func deliver(_ queue: [Due], to routed: RoutedSink, now: Date) async {
        let sinkName = routed.sink.name
        for item in queue {
            guard let at = ISO8601.date(item.nextAttempt), at <= now else { return }
            do {
                let attachments = try await pool.read { db in
                    try Row.fetchAll(
                        db, sql: "SELECT name, content_type, data FROM host_notice_attachments WHERE notice_id = ? ORDER BY position",
                        arguments: [item.noticeID]
                    ).map { OutgoingAttachment(name: $0["name"], contentType: $0["content_type"], data: $0["data"]) }
                }
                try await routed.sink.deliver(
                    outgoing(item.notice), attachments: attachments, directRecipient: item.directTo, blindCopies: item.bcc)
                try await pool.write { db in
                    try db.execute(
                        sql: "UPDATE host_outbox SET delivered_at = ?, attempts = attempts + 1, last_error = NULL WHERE notice_id = ? AND sink = ?",
                        arguments: [ISO8601.string(self.clock.now), item.noticeID, sinkName])
                }
                if item.attempts > 0 {
                    logger.info("notice delivered after retrying", metadata: ["sink": "\(sinkName)", "attempts": "\(item.attempts + 1)"])
                }
            } catch {
                let message = redactor.redact(ErrorText.sentence(error))
                lastErrors[sinkName] = (ISO8601.string(clock.now), message)
                if case SinkFailure.permanent = error {
                    await failForGood(sinkName, message, notice: item.notice)
                    return
                }
                var delay = Backoff(base: baseRetryDelay, maximum: maximumRetryDelay, jitter: retryJitter).delay(afterFailures: item.attempts + 1)
                // A server that says when to come back (429 with Retry-After) is believed, within the cap.
                if case SinkFailure.retry(_, let after?) = error { delay = min(max(after, 0), maximumRetryDelay) }
                // Log the first failure of a delivery loudly, the retries quietly.
                if item.attempts == 0 {
                    logger.warning("notice delivery failed; will retry", metadata: ["sink": "\(sinkName)", "error": "\(message)"])
                } else {
                    logger.debug("notice delivery failed again", metadata: ["sink": "\(sinkName)", "attempts": "\(item.attempts + 1)"])
                }
                let next = ISO8601.string(now.addingTimeInterval(delay))
                try? await pool.write { db in
                    try db.execute(
                        sql: "UPDATE host_outbox SET attempts = attempts + 1, last_error = ?, next_attempt = ? WHERE notice_id = ? AND sink = ?",
                        arguments: [message, next, item.noticeID, sinkName])
                }
                return
            }
        }
    }

    /// A sink refused a delivery for good: its pending rows are marked failed (not retried for
    /// ever), it takes no more notices until the configuration is read again, and the other
    /// sinks are told once (`host.sink.failed`).
    private func failForGood(_ sinkName: String, _ message: String, notice: Notice) async {
        disabled.insert(sinkName)
        let failedAt = ISO8601.string(clock.now)
        try? await pool.write { db in
            try db.execute(
                sql: "UPDATE host_outbox SET failed_at = ?, last_error = ? WHERE sink = ? AND delivered_at IS NULL AND failed_at IS NULL",
                arguments: [failedAt, message, sinkName])
        }
        logger.error("a notice sink refused a delivery for good", metadata: ["sink": "\(sinkName)", "error": "\(message)"])
        // Not about itself: a failure notice that could not be delivered is not reported again.
        guard notice.topic != Self.sinkFailedTopic else { return }
        _ = try? await post(
            NoticeDraft(
                topic: Self.sinkFailedTopic, plugin: "host", title: HostWords.sinkStopped.text(language, ["sink": sinkName]),
                body: HostWords.sinkStoppedBody.text(language, ["sink": sinkName, "message": message]),
                severity: .error, dedupeKey: "\(Self.sinkFailedTopic)|\(sinkName)|\(failedAt)"))
    }

    public static let sinkFailedTopic = "host.sink.failed"

    /// A sink with its last delivery and its last failure, as `status` shows it.
    public struct SinkStanding: Sendable, ResultObject {
        public let name: String
        public let failed: Bool
        public let lastSuccess: String?
        public let lastError: String?
        public let lastErrorAt: String?
        public let failedDeliveries: Int

        public var state: String { failed ? "failed" : "ok" }

        public static let members = ResultMembers<Self>(
            .field("name", \.name),
            .field("state", \.state, .enumeration(["ok", "failed"]), "failed: refused a notice for good, until reloaded"),
            .field("last_success", \.lastSuccess, .dateTime), .field("last_error", \.lastError),
            .field("last_error_at", \.lastErrorAt, .dateTime), .field("failed_deliveries", \.failedDeliveries))
    }

    /// Each sink with its last delivery and its last failure, for `status`.
    public func sinkStatus() async throws -> [SinkStanding] {
        let names = sinks.map(\.sink.name)
        let stored = try await pool.read { db -> [String: (success: String?, error: String?, errorAt: String?, failed: Int)] in
            var result: [String: (success: String?, error: String?, errorAt: String?, failed: Int)] = [:]
            for name in names {
                let success = try String.fetchOne(db, sql: "SELECT MAX(delivered_at) FROM host_outbox WHERE sink = ?", arguments: [name])
                let error = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT o.last_error, COALESCE(o.failed_at, o.next_attempt) AS at FROM host_outbox o
                        WHERE o.sink = ? AND o.last_error IS NOT NULL ORDER BY o.rowid DESC LIMIT 1
                        """, arguments: [name])
                let failed =
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM host_outbox WHERE sink = ? AND failed_at IS NOT NULL", arguments: [name]) ?? 0
                result[name] = (success, error?["last_error"], error?["at"], failed)
            }
            return result
        }
        return names.map { name in
            let row = stored[name]
            let lastError = lastErrors[name]
            return SinkStanding(
                name: name, failed: disabled.contains(name), lastSuccess: row?.success, lastError: lastError?.message ?? row?.error,
                lastErrorAt: lastError?.time ?? row?.errorAt, failedDeliveries: row?.failed ?? 0)
        }
    }

    /// `notifications.test`: a test notice delivered straight to each sink (or the one named),
    /// not through the outbox; each sink's answer.
    public func test(sink wanted: String?, hostName: String) async throws -> [SinkTested] {
        let chosen = sinks.filter { wanted == nil || $0.sink.name == wanted }
        if let wanted, chosen.isEmpty {
            throw RPCError.invalidParam(
                "sink", "'\(wanted)' is not a configured sink (configured: \(sinks.map(\.sink.name).joined(separator: ", ")))")
        }
        let notice = Notice(
            id: UUID().uuidString.lowercased(), topic: "host.test", plugin: "host", title: "Test notice from assistantd",
            body: "This is a test notice from assistantd on \(hostName). If you can read it, this sink works.", severity: .info,
            time: ISO8601.string(clock.now), dedupeKey: nil, attachments: [])
        return await withTaskGroup(of: (Int, SinkTested).self) { group in
            for (index, routed) in chosen.enumerated() {
                group.addTask {
                    let start = ContinuousClock.now
                    do {
                        try await withDeadline(SinkHTTP.timeout + .seconds(5), timedOut: { SinkFailure.retry("no answer in time") }) {
                            try await routed.sink.deliver(notice, attachments: [], directRecipient: nil, blindCopies: [])
                        }
                        let ms = (ContinuousClock.now - start) / .milliseconds(1)
                        return (index, SinkTested(sink: routed.sink.name, ok: true, ms: ms.rounded(), error: nil))
                    } catch {
                        return (index, SinkTested(sink: routed.sink.name, ok: false, ms: nil, error: ErrorText.sentence(error)))
                    }
                }
            }
            var answers: [(Int, SinkTested)] = []
            for await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }.map { $1 }
        }
    }

    /// Deletes notices, delivered outbox rows and dedupe keys older than the retention.
    public func prune(olderThan days: Int) async throws -> Int {
        let cutoff = ISO8601.string(clock.now.addingTimeInterval(-Double(days) * 86400))
        return try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM host_notices WHERE time < ? AND NOT EXISTS
                    (SELECT 1 FROM host_outbox o WHERE o.notice_id = host_notices.id AND o.delivered_at IS NULL)
                    """, arguments: [cutoff])
            let notices = db.changesCount
            try db.execute(sql: "DELETE FROM host_dedupe WHERE first_seen < ?", arguments: [cutoff])
            return notices + db.changesCount
        }
    }

    static func notice(from row: Row) -> Notice {
        let attachmentsJSON: String = row["attachments"]
        let attachments = (try? JSONValue.decode(attachmentsJSON).decode(as: [NoticeAttachment].self)) ?? []
        return Notice(
            id: row["id"], topic: row["topic"], plugin: row["plugin"], title: row["title"], body: row["body"],
            severity: Severity(rawValue: row["severity"]) ?? .info, time: row["time"], dedupeKey: row["dedupe_key"],
            attachments: attachments, link: row["link"])
    }
}

/// Live subscribers (connections that called `subscribe`). Delivery to each connection is
/// bounded by the connection itself (drop oldest), so a slow reader never grows memory.
public final class SubscriberRegistry: Sendable {
    private struct Entry {
        let connection: any ConnectionHandle
        var patterns: [TopicPattern]
    }
    private let entries = NIOLockedValueBox<[UInt64: Entry]>([:])

    public init() {}

    public func subscribe(_ connection: any ConnectionHandle, patterns: [TopicPattern]) {
        entries.withLockedValue { $0[connection.connectionID] = Entry(connection: connection, patterns: patterns) }
    }

    @discardableResult
    public func unsubscribe(_ connectionID: UInt64) -> Bool {
        entries.withLockedValue { $0.removeValue(forKey: connectionID) != nil }
    }

    public var count: Int { entries.withLockedValue { $0.count } }

    public func publish(_ notice: Notice) {
        let targets = entries.withLockedValue { $0.values.filter { TopicPattern.anyMatches($0.patterns, notice.topic) } }
        guard !targets.isEmpty else { return }
        let params = (try? JSONValue(encoding: notice)) ?? .null
        for target in targets { target.connection.deliverNotice(params) }
    }
}
