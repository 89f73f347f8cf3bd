import AssistantClient
import AssistantTesting
import Foundation
import GRDB
import HostCore
import NIOConcurrencyHelpers
import Testing

/// A sink that fails a given number of times, then records what it delivers.
final class FlakySink: NoticeSink {
    let name: String
    let failuresLeft: NIOLockedValueBox<Int>
    let delivered = LineCollector()

    init(name: String = "flaky", failures: Int) {
        self.name = name
        failuresLeft = NIOLockedValueBox(failures)
    }

    func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws {
        let fail = failuresLeft.withLockedValue { n -> Bool in
            defer { n -= 1 }
            return n > 0
        }
        if fail { throw MailError("sink unavailable") }
        delivered.append(notice.title)
    }
}

/// A sink whose deliveries wait until the test opens it (a server that does not answer).
final class GatedSink: NoticeSink {
    let name: String
    let started = LineCollector()
    let delivered = LineCollector()
    private let gate = NIOLockedValueBox<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    init(name: String) { self.name = name }

    func open() {
        let waiting = gate.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws {
        started.append(notice.title)
        await withCheckedContinuation { continuation in
            let isOpen = gate.withLockedValue { state -> Bool in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
        delivered.append(notice.title)
    }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct NotificationTests {
    func center(_ store: Store, _ sinks: [RoutedSink], clock: any HostClock = SystemClock()) throws -> NoticeCenter {
        try NoticeCenter(
            pool: store.pool, clock: clock, sinks: sinks, redactor: SecretRedactor(), logger: Logger(label: "t"),
            subscribers: SubscriberRegistry(), baseRetryDelay: 0.01, maximumRetryDelay: 0.05)
    }

    @Test func stdoutTextFormat() async throws {
        let host = try await TestHost.started()
        _ = try await host.call(
            "notifications.send", ["title": "Print done", "body": "benchy.gcode\nin 1 h", "severity": "warning", "topic": "test.done"])
        let line = await host.stdout.next { $0.contains("Print done") }
        #expect(
            line.range(
                of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ WARNING \[test\.done\] Print done: benchy\.gcode / in 1 h$"#, options: .regularExpression)
                != nil, "\(line)")
        await host.stop()
    }

    @Test func stdoutJSONFormatIsExactlyTheNoticeObject() async throws {
        let directory = TemporaryDirectory()
        let attachment = directory.write("snap.jpg", "JPEGDATA")
        let host = try await TestHost.started(directory: directory) { $0.notify.stdout.format = .json }
        let sent = try await host.call(
            "notifications.send",
            ["title": "Käse", "body": "b", "topic": "test.json", "severity": "error", "dedupe_key": "k1", "attachments": [.string(attachment)]]
        ).get()
        let line = await host.stdout.next { $0.contains("test.json") }
        let printed = try JSONValue.decode(line)
        #expect(printed == sent)
        #expect(Set(printed.objectValue!.keys) == ["id", "topic", "plugin", "title", "body", "severity", "time", "dedupe_key", "attachments"])
        #expect(printed["attachments"] == [["name": "snap.jpg", "content_type": "image/jpeg", "size": 8]])
        #expect(printed["plugin"] == "host")
        await host.stop()
    }

    /// An attachment is read through the same safe reader as every file: a FIFO, a device, a
    /// folder or a file over 25 MiB is -32602 naming `attachments`, and nothing is posted.
    @Test func attachmentsThatAreNotPlainFilesAreRefused() async throws {
        let host = try await TestHost.started()
        let files = HostileFiles(sparseSize: 26 << 20)
        for (path, problem) in [
            (files.fifo, "is a FIFO (named pipe), not a regular file"), ("/dev/zero", "is a character device, not a regular file"),
            (files.folder, "is a folder, not a regular file"), (files.sparse, "is \(26 << 20) bytes, over the limit of \(25 << 20) bytes"),
        ] {
            guard case .failure(let error) = try await host.call("notifications.send", ["title": "t", "body": "b", "attachments": [.string(path)]])
            else {
                Issue.record("\(path) was attached")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == "attachments")
            #expect(error.message.hasSuffix("'\(path)' \(problem)"), "\(error.message)")
        }
        #expect(try await host.call("notifications.list").get() == [], "nothing was posted")
        await host.stop()
    }

    @Test func routingBySeverityAndTopic() async throws {
        let host = try await TestHost.started {
            $0.notify.stdout.route = NoticeRoute(topics: [TopicPattern("keep.*")], minimumSeverity: .warning)
        }
        _ = try await host.call("notifications.send", ["title": "dropped-low", "body": "", "topic": "keep.a", "severity": "info"])
        _ = try await host.call("notifications.send", ["title": "dropped-topic", "body": "", "topic": "other.a", "severity": "error"])
        _ = try await host.call("notifications.send", ["title": "kept", "body": "", "topic": "keep.b", "severity": "warning"])
        _ = await host.stdout.next { $0.contains("kept") }
        // Routing decides delivery only: all three are in the history.
        let history = try await host.call("notifications.list").get().arrayValue ?? []
        #expect(history.count == 3)
        await host.stop()
        #expect(host.stdout.lines.count == 1)
    }

    @Test func failedDeliveriesAreRetriedFromTheOutbox() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let sink = FlakySink(failures: 3)
        let center = try center(store, [RoutedSink(sink: sink, route: NoticeRoute())])
        let loop = Task { await center.runOutbox() }
        try await center.post(NoticeDraft(topic: "t.x", plugin: "host", title: "retry me", body: ""))
        _ = await sink.delivered.next { $0 == "retry me" }
        // Let the loop finish its pass (it records the delivery), then look.
        await center.stop()
        await loop.value
        let row = try store.pool.read { db in try Row.fetchOne(db, sql: "SELECT attempts, delivered_at, last_error FROM host_outbox") }
        #expect(row?["attempts"] == 4)
        let deliveredText: String? = row?["delivered_at"]
        let delivered = try #require(deliveredText.flatMap { ISO8601.date($0) })
        #expect(abs(delivered.timeIntervalSinceNow) < 300, "delivered just now: \(delivered)")
        #expect((row?["last_error"] as String?) == nil, "the retries' error is cleared once delivered")
    }

    /// Cancelled rather than stopped (the service group gave up on another service, as when the
    /// web app's port is taken): the loop ends, where it once spun on "cannot read the outbox".
    @Test func aCancelledOutboxLoopEnds() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let sink = FlakySink(failures: 0)
        let center = try center(store, [RoutedSink(sink: sink, route: NoticeRoute())])
        let loop = Task { await center.runOutbox() }
        try await center.post(NoticeDraft(topic: "t.x", plugin: "host", title: "before", body: ""))
        _ = await sink.delivered.next { $0 == "before" }
        loop.cancel()
        try await withDeadline(10, "the cancelled outbox loop's end") { await loop.value }
    }

    /// A sink stuck on a delivery (a server that never answers, until its timeout) holds back
    /// only its own notices: another sink gets a notice posted after it, and the stuck one's
    /// notices follow in order once it is free.
    @Test func aStuckSinkDoesNotHoldBackTheOthers() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let stuck = GatedSink(name: "stuck")
        let quick = FlakySink(name: "quick", failures: 0)
        let center = try center(store, [RoutedSink(sink: stuck, route: NoticeRoute()), RoutedSink(sink: quick, route: NoticeRoute())])
        let loop = Task { await center.runOutbox() }
        try await center.post(NoticeDraft(topic: "t", plugin: "host", title: "first", body: ""))
        _ = await stuck.started.next { $0 == "first" }
        try await center.post(NoticeDraft(topic: "t", plugin: "host", title: "second", body: ""))
        _ = await quick.delivered.next(2) { _ in true }
        #expect(quick.delivered.lines == ["first", "second"], "the quick sink is not held by the stuck one")
        #expect(stuck.started.lines == ["first"], "the stuck sink is still on its first")
        stuck.open()
        _ = await stuck.delivered.next(2) { _ in true }
        #expect(stuck.delivered.lines == ["first", "second"], "then its own, in order")
        await center.stop()
        await loop.value
    }

    @Test func aDedupeKeyIsDeliveredOnceAlsoAcrossRestarts() async throws {
        let directory = TemporaryDirectory()
        let sink = FlakySink(failures: 0)
        do {
            let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
            let center = try center(store, [RoutedSink(sink: sink, route: NoticeRoute())])
            #expect(
                try await center.post(NoticeDraft(topic: "t", plugin: "host", title: "once", body: "", dedupeKey: "print-42-done"))?.title == "once")
            #expect(try await center.post(NoticeDraft(topic: "t", plugin: "host", title: "once", body: "", dedupeKey: "print-42-done")) == nil)
            await center.deliverDue()
            try store.close()
        }
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let center = try center(store, [RoutedSink(sink: sink, route: NoticeRoute())])
        #expect(try await center.post(NoticeDraft(topic: "t", plugin: "host", title: "once", body: "", dedupeKey: "print-42-done")) == nil)
        await center.deliverDue()
        #expect(sink.delivered.lines == ["once"])
    }

    @Test func undeliveredNoticesSurviveARestart() async throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
            let down = FlakySink(failures: 1000)
            let center = try center(store, [RoutedSink(sink: down, route: NoticeRoute())])
            try await center.post(NoticeDraft(topic: "t", plugin: "host", title: "pending", body: ""))
            await center.deliverDue()
            try store.close()
        }
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let up = FlakySink(failures: 0)
        let center = try center(store, [RoutedSink(sink: up, route: NoticeRoute())])
        let loop = Task { await center.runOutbox() }
        _ = await up.delivered.next { $0 == "pending" }
        await center.stop()
        await loop.value
        #expect(up.delivered.lines == ["pending"])
    }

    @Test func subscribersReceiveMatchingNoticesOnly() async throws {
        let host = try await TestHost.started()
        let watcher = try await host.connect()
        _ = try await watcher.call("subscribe", params: ["topics": ["octo.print.*"]])
        let poster = try await host.connect()
        _ = try await poster.call("notifications.send", params: ["title": "other", "body": "", "topic": "octo.printer.error"])
        _ = try await poster.call("notifications.send", params: ["title": "match", "body": "", "topic": "octo.print.done"])
        var iterator = watcher.notifications.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.method == "notice")
        #expect(first.params["title"] == "match")
        #expect(try await watcher.call("unsubscribe") == ["unsubscribed": true])
        await watcher.close()
        await poster.close()
        await host.stop()
    }

    @Test func listFiltersByTopicPattern() async throws {
        let host = try await TestHost.started()
        for (topic, title) in [("a.one", "1"), ("a.two", "2"), ("b.one", "3")] {
            _ = try await host.call("notifications.send", ["title": .string(title), "body": "", "topic": .string(topic)])
        }
        let a = try await host.call("notifications.list", ["topic": "a.*"]).get().arrayValue ?? []
        #expect(a.compactMap { $0["title"]?.stringValue }.sorted() == ["1", "2"])
        let exact = try await host.call("notifications.list", ["topic": "b.one", "limit": 5]).get().arrayValue ?? []
        #expect(exact.count == 1)
        let bad = try await host.call("notifications.list", ["limit": 0])
        guard case .failure(let error) = bad else {
            Issue.record("limit 0 accepted")
            return
        }
        #expect(error.data?["param"] == "limit")
        await host.stop()
    }

    @Test func badNotificationInputIsRefusedClearly() async throws {
        let host = try await TestHost.started()
        let cases: [(JSONValue, String)] = [
            (["body": "x"], "title"),
            (["title": "x", "body": "y", "severity": "loud"], "severity"),
            (["title": "x", "body": "y", "topic": "has space"], "topic"),
            (["title": "x", "body": "y", "to": "someone@example.org"], "to"),
            (["title": "x", "body": "y", "attachments": ["/no/such/file"]], "attachments"),
            (["title": "x", "body": "y", "attachments": "notalist"], "attachments"),
            (["title": 5, "body": "y"], "title"),
        ]
        for (params, param) in cases {
            let result = try await host.call("notifications.send", params)
            guard case .failure(let error) = result else {
                Issue.record("accepted \(params)")
                continue
            }
            #expect(error.code == -32602, "\(params)")
            #expect(error.data?["param"] == .string(param), "\(params): \(error.message)")
        }
        let history = try await host.call("notifications.list").get().arrayValue ?? []
        #expect(history.isEmpty, "nothing was written by refused calls")
        await host.stop()
    }
}
