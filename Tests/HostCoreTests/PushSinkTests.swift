import AssistantTesting
import Foundation
import GRDB
import HostCore
import Testing

/// The push sinks beside stdout and mail: ntfy (against a fake of its publishing API, since its
/// server cannot run here), webhooks (a loopback receiver that checks the signature), each with
/// its own routing, outbox rows and retries; `notifications.test` and `status`.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct PushSinkTests {
    static func host(
        directory: TemporaryDirectory = TemporaryDirectory(), _ configure: @escaping @Sendable (inout HostConfiguration) -> Void
    ) async throws -> TestHost {
        try await TestHost.started(
            directory: directory,
            configure: { c in
                c.notify.stdout.route = NoticeRoute(topics: [], minimumSeverity: .debug)
                configure(&c)
            }, adjust: { $0.outboxRetryBase = 0.05 })
    }

    static func ntfy(_ url: String, _ c: inout HostConfiguration) {
        c.notify.ntfy.server = url
        c.notify.ntfy.topic = "alerts"
        c.notify.ntfy.route = NoticeRoute(topics: [], minimumSeverity: .debug)
    }

    @Test func ntfyGetsEachHeaderAsItsDocumentationSays() async throws {
        let fake = try await NtfyFake.start(token: "tk_9f2c1e")
        let host = try await Self.host { Self.ntfy(fake.url, &$0) }
        _ = try await host.call("vault.set", ["name": "host/ntfy/token", "secret": "tk_9f2c1e"]).get()
        _ = try await host.call(
            "notifications.send",
            [
                "title": "Print done", "body": "benchy.gcode\nin 1 h 05 min", "severity": "warning", "topic": "octoprint.print.done",
                "link": "http://octopi.local/",
            ]
        ).get()
        for severity in ["debug", "info", "error", "critical"] {
            _ = try await host.call("notifications.send", ["title": .string(severity), "body": "one line", "severity": .string(severity)]).get()
        }
        try await fake.waitForRequests(5)
        let first = fake.requests[0]
        #expect(first.method == "POST")
        #expect(first.uri == "/alerts")
        #expect(first.header("Title") == "Print done")
        #expect(first.header("Priority") == "4")
        #expect(first.header("Tags") == "host,octoprint,print,done")
        #expect(first.header("Markdown") == "yes", "a body of several lines")
        #expect(first.header("Authorization") == "Bearer tk_9f2c1e")
        #expect(first.text == "benchy.gcode\nin 1 h 05 min")
        #expect(first.header("Click") == "http://octopi.local/", "the notice's link")
        #expect(fake.requests[1].header("Click") == nil, "no link, no Click")
        let listed = try await host.call("notifications.list", ["limit": 10]).get().arrayValue ?? []
        #expect(listed.last?["link"] == "http://octopi.local/")
        let badLink = try await host.call("notifications.send", ["title": "x", "body": "y", "link": "javascript:alert(1)"])
        guard case .failure(let error) = badLink else {
            Issue.record("a link that is not http(s) is refused")
            return
        }
        #expect(error.code == -32602 && error.message.contains("'link'"), "\(error.message)")
        #expect(fake.requests.dropFirst().map { $0.header("Priority") } == ["1", "3", "5", "5"], "debug 1, info 3, error and critical 5")
        #expect(fake.requests.dropFirst().allSatisfy { $0.header("Markdown") == nil }, "one line: plain")
        #expect(host.stdout.lines.allSatisfy { !$0.contains("tk_9f2c1e") }, "the token is never printed")
        await host.stop()
        await fake.stop()
    }

    /// A topic that needs a token, and none in the vault: ntfy's 401 will not change by itself,
    /// so the sink stops and says so once on stdout.
    @Test func aRefusedTokenStopsTheSinkAndIsReported() async throws {
        let fake = try await NtfyFake.start(token: "tk_right")
        let host = try await Self.host { Self.ntfy(fake.url, &$0) }
        _ = try await host.call("vault.set", ["name": "host/ntfy/token", "secret": "tk_wrong"]).get()
        _ = try await host.call("notifications.send", ["title": "one", "body": "one"]).get()
        _ = await host.stdout.next { $0.contains("Notices to ntfy stopped") }
        #expect(fake.requests.count == 1)
        #expect(fake.requests[0].header("Authorization") == "Bearer tk_wrong")
        let status = try await host.call("status").get()
        let ntfy = try #require(status["sink_status"]?.arrayValue?.first { $0["name"] == "ntfy" })
        #expect(ntfy["state"] == "failed")
        #expect(ntfy["last_error"]?.stringValue?.contains("401") == true, "\(ntfy)")
        #expect(host.stdout.lines.allSatisfy { !$0.contains("tk_wrong") }, "the token is never printed")
        await host.stop()
        await fake.stop()
    }

    @Test func ntfyRetriesInOrderHonoursRetryAfterAndDeliversOnce() async throws {
        // Two 502s, then a 429 with Retry-After, then accepted.
        let fake = try await NtfyFake.start(rateLimited: 1, retryAfter: 1, failing: 2)
        let host = try await Self.host { Self.ntfy(fake.url, &$0) }
        for title in ["first", "second", "third"] {
            _ = try await host.call("notifications.send", ["title": .string(title), "body": .string(title)]).get()
        }
        try await fake.waitForRequests(6)
        let requests = fake.requests
        #expect(requests.prefix(3).allSatisfy { $0.text == "first" }, "the first is retried until it goes; the others wait behind it")
        let accepted = requests.dropFirst(3).map(\.text)
        #expect(accepted == ["first", "second", "third"], "each once, in order: \(requests.map(\.text))")
        await host.stop()
        #expect(fake.requests.count == 6, "nothing more after the deliveries")
        await fake.stop()
    }

    @Test func aNoticeIsNotSentTwiceAcrossARestart() async throws {
        let directory = TemporaryDirectory()
        let fake = try await NtfyFake.start()
        let url = fake.url
        let first = try await Self.host(directory: directory) { Self.ntfy(url, &$0) }
        _ = try await first.call("notifications.send", ["title": "once", "body": "once", "dedupe_key": "k1"]).get()
        try await fake.waitForRequests(1)
        await first.stop()
        let second = try await Self.host(directory: directory) { Self.ntfy(url, &$0) }
        let again = try await second.call("notifications.send", ["title": "once", "body": "once", "dedupe_key": "k1"]).get()
        #expect(again == ["duplicate": true])
        _ = try await second.call("notifications.send", ["title": "next", "body": "next"]).get()
        try await fake.waitForRequests(2)
        #expect(fake.requests.map(\.text) == ["once", "next"])
        await second.stop()
        await fake.stop()
    }

    @Test func aPictureTooLargeForTheServerGoesWithoutItAndALongBodyIsCut() async throws {
        let fake = try await NtfyFake.start(attachmentLimit: 100)
        let host = try await Self.host { Self.ntfy(fake.url, &$0) }
        let directory = TemporaryDirectory()
        let picture = directory.file("snapshot.jpg")
        try Data(repeating: 0xFF, count: 5_000).write(to: URL(fileURLWithPath: picture))
        _ = try await host.call("notifications.send", ["title": "Print failed", "body": "see the picture", "attachments": [.string(picture)]]).get()
        try await fake.waitForRequests(2)
        #expect(fake.requests.map(\.method) == ["PUT", "POST"], "the file refused (413), then the message alone")
        #expect(fake.requests[0].header("Filename") == "snapshot.jpg")
        #expect(fake.requests[0].header("Message") == "see the picture")
        #expect(fake.requests[1].text == "see the picture")
        // A 10 MB body: ntfy takes 4 096 bytes; the rest is cut, with a note.
        _ = try await host.host.notices.post(
            NoticeDraft(topic: "host.manual", plugin: "host", title: "big", body: String(repeating: "x", count: 10 << 20)))
        try await fake.waitForRequests(3)
        let cut = fake.requests[2].text
        #expect(cut.utf8.count <= 4_096)
        #expect(cut.hasSuffix("… (cut: the notice was 10485760 bytes)"), "\(cut.suffix(60))")
        await host.stop()
        await fake.stop()
    }

    /// What openssl computes for the signed string: the receiver's own check, not the sink's code.
    static func opensslHMAC(_ secret: String, _ text: String) async throws -> String {
        let run = try await runCommand(
            "/usr/bin/openssl", ["dgst", "-sha256", "-hmac", secret, "-r"], environment: ProcessInfo.processInfo.environment, stdin: text)
        return String(run.stdout.prefix { $0 != " " })
    }

    @Test func aWebhookIsSignedRetriedAfterFiveHundredsAndDeliveredOnce() async throws {
        let receiver = try await RecordingHTTPServer.start { _, index in .init(index < 2 ? 500 : 200) }
        let host = try await Self.host { c in
            var hook = WebhookSettings(name: "home", url: receiver.url + "/hooks/assistant")
            hook.route = NoticeRoute(topics: [TopicPattern("tasks.*")], minimumSeverity: .info)
            c.notify.webhooks = [hook]
        }
        // A short secret could be guessed, and a signature forged: refused.
        let short = try await host.call("vault.set", ["name": "host/webhook/home/secret", "secret": "whsec_5b1d"])
        guard case .failure(let refusal) = short else {
            Issue.record("a 10-byte webhook secret was stored")
            return
        }
        #expect(refusal.data?["param"] == "secret")
        #expect(refusal.message.contains("at least 32 bytes"))
        let secret = "whsec_5b1d8e4f0a2c6b9d7e1f3a5c8b0d2e4f"
        _ = try await host.call("vault.set", ["name": "host/webhook/home/secret", "secret": .string(secret)]).get()
        _ = try await host.call("notifications.send", ["title": "not routed", "body": "x", "topic": "octoprint.print.done"]).get()
        let sent = try await host.call("notifications.send", ["title": "Reminder", "body": "Pay rent", "topic": "tasks.reminder"]).get()
        try await receiver.waitForRequests(3)
        let requests = receiver.requests
        #expect(requests.count == 3, "two 500s, then one delivery")
        #expect(Set(requests.map(\.text)).count == 1, "the same notice each time")
        let last = requests[2]
        #expect(last.method == "POST" && last.uri == "/hooks/assistant")
        #expect(last.header("Content-Type") == "application/json")
        let body = try JSONValue.decode(last.text)
        #expect(body["id"] == sent["id"])
        #expect(body["title"] == "Reminder")
        #expect(body["topic"] == "tasks.reminder")
        let timestamp = try #require(last.header("X-Assistant-Timestamp"))
        let age = Date().timeIntervalSince1970 - (Double(timestamp) ?? 0)
        #expect(age >= 0 && age < 300, "a timestamp of now: \(timestamp)")
        let expected = try await Self.opensslHMAC(secret, "\(timestamp).\(last.text)")
        #expect(last.header("X-Assistant-Signature") == "sha256=\(expected)")
        await host.stop()
        await receiver.stop()
    }

    /// A short webhook secret that is already in the vault (stored before the rule, or by hand)
    /// stops the start, naming the entry; a long one starts.
    @Test func aShortWebhookSecretInTheVaultStopsTheStart() async throws {
        let directory = TemporaryDirectory()
        let first = try await TestHost.started(directory: directory)
        try await first.host.vault.set("host/webhook/home/secret", secret: "whsec_5b1d")
        await first.stop()
        let configure: (inout HostConfiguration) -> Void = { $0.notify.webhooks = [WebhookSettings(name: "home", url: "http://127.0.0.1:9/")] }
        let refused = try TestHost(directory: directory, configure: configure)
        do {
            try await refused.host.start()
            Issue.record("a daemon with a 10-byte webhook secret started")
        } catch let error as StartupError {
            #expect("\(error)".contains("the vault entry host/webhook/home/secret is 10 bytes; a webhook secret needs at least 32"), "\(error)")
        }
        try await refused.host.vault.set("host/webhook/home/secret", secret: String(repeating: "k", count: 32))
        let started = try await TestHost.started(directory: directory, configure: configure)
        await started.stop()
    }

    @Test func aGoneWebhookIsMarkedFailedAndReportedOnceOnTheOtherSinks() async throws {
        let receiver = try await RecordingHTTPServer.start { _, _ in .init(410, body: "gone") }
        let host = try await Self.host { c in c.notify.webhooks = [WebhookSettings(name: "old", url: receiver.url)] }
        _ = try await host.call("notifications.send", ["title": "one", "body": "one"]).get()
        _ = try await host.call("notifications.send", ["title": "two", "body": "two"]).get()
        _ = await host.stdout.next { $0.contains("host.sink.failed") || $0.contains("Notices to webhook.old stopped") }
        _ = try await host.call("notifications.send", ["title": "three", "body": "three"]).get()
        _ = await host.stdout.next { $0.contains("three") }
        #expect(receiver.requests.count == 1, "a 410 is not retried, and the sink takes nothing more: \(receiver.requests.map(\.text))")
        #expect(host.stdout.lines.filter { $0.contains("Notices to webhook.old stopped") }.count == 1, "reported once")
        let status = try await host.call("status").get()
        let sink = try #require(status["sink_status"]?.arrayValue?.first { $0["name"] == "webhook.old" })
        #expect(sink["state"] == "failed")
        #expect(sink["last_error"]?.stringValue?.contains("410") == true, "\(sink)")
        #expect((sink["failed_deliveries"]?.intValue ?? 0) >= 1)
        let outbox = try await host.host.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM host_outbox WHERE sink = 'webhook.old' AND failed_at IS NULL AND delivered_at IS NULL")
        }
        #expect(outbox == 0, "no row of the failed sink waits to be retried")
        await host.stop()
        await receiver.stop()
    }

    @Test func notificationsTestReportsEachSinksAnswer() async throws {
        let fake = try await NtfyFake.start()
        let closed = try await RecordingHTTPServer.start { _, _ in .init(200) }
        let closedURL = closed.url
        await closed.stop()
        let host = try await Self.host { c in
            Self.ntfy(fake.url, &c)
            c.notify.webhooks = [WebhookSettings(name: "down", url: closedURL)]
        }
        let all = try await host.call("notifications.test").get()["sinks"]?.arrayValue ?? []
        #expect(all.map { $0["sink"] } == ["stdout", "ntfy", "webhook.down"])
        #expect(all.map { $0["ok"] } == [true, true, false])
        #expect(all[2]["error"]?.stringValue?.contains("could not be reached") == true, "\(all[2])")
        // An ntfy server that is not there answers the same way.
        let nowhere = try await Self.host { Self.ntfy(closedURL, &$0) }
        let unreachable = try await nowhere.call("notifications.test", ["sink": "ntfy"]).get()["sinks"]?.arrayValue ?? []
        #expect(unreachable.first?["ok"] == false)
        #expect(unreachable.first?["error"]?.stringValue?.contains("ntfy at \(closedURL) could not be reached") == true, "\(unreachable)")
        await nowhere.stop()
        #expect(fake.requests.first?.header("Title") == "Test notice from assistantd")
        let one = try await host.call("notifications.test", ["sink": "ntfy"]).get()["sinks"]?.arrayValue ?? []
        #expect(one.count == 1)
        let unknown = try await host.call("notifications.test", ["sink": "pager"])
        guard case .failure(let error) = unknown else {
            Issue.record("an unknown sink is refused")
            return
        }
        #expect(error.code == -32602 && error.message.contains("'sink'") && error.message.contains("ntfy"), "\(error.message)")
        await host.stop()
        await fake.stop()
    }

    @Test func badSinkConfigurationNamesTheKey() throws {
        for (toml, key) in [
            ("[notify.ntfy]\nserver = \"ftp://example.org\"\ntopic = \"a\"", "notify.ntfy.server"),
            ("[notify.ntfy]\ntopic = \"my alerts!\"", "notify.ntfy.topic"),
            ("[notify.ntfy]\ntopic = \"\(String(repeating: "a", count: 65))\"", "notify.ntfy.topic"),
            ("[[notify.webhook]]\nname = \"home\"\nurl = \"not a url\"", "notify.webhook[0].url"),
            ("[[notify.webhook]]\nurl = \"https://example.org/h\"", "notify.webhook[0].name"),
            (
                "[[notify.webhook]]\nname = \"a\"\nurl = \"https://x.org\"\n[[notify.webhook]]\nname = \"a\"\nurl = \"https://y.org\"",
                "notify.webhook[1].name"
            ),
            ("[notify.desktop]\nenabled = \"yes\"", "notify.desktop.enabled"),
        ] {
            #expect(throws: ConfigError.self, "\(key)") { _ = try ConfigLoader.parse(toml, file: "c.toml") }
            do {
                _ = try ConfigLoader.parse(toml, file: "c.toml")
            } catch {
                #expect("\(error)".contains("'\(key)'"), "\(error)")
            }
        }
        let good = try ConfigLoader.parse(
            "[notify.ntfy]\ntopic = \"alerts\"\nmin_severity = \"warning\"\n[[notify.webhook]]\nname = \"home\"\nurl = "
                + "\"https://ha.local/api/webhook/x\"\ntopics = [\"tasks.*\"]",
            file: "c.toml")
        #expect(good.configuration.notify.ntfy.server == "https://ntfy.sh")
        #expect(good.configuration.notify.ntfy.route.minimumSeverity == .warning)
        #expect(good.configuration.notify.webhooks.map(\.name) == ["home"])
    }
}
