import AssistantTesting
import Foundation
import HostCore
import NIOConcurrencyHelpers
import Testing

@testable import Tasks

/// A real CalDAV server (Radicale with htpasswd, or Xandikos open on loopback) and the Python
/// `caldav` library as a second client editing the same calendars.
final class CalDAVPeer: Sendable {
    let directory = TemporaryDirectory(prefix: "caldav")
    let process: PeerProcess
    let port: Int
    let kind: String
    let user: String?
    let password: String?

    init(_ kind: String) async throws {
        guard Peers.hasPythonModule("caldav") else { throw PeerMissing("caldav/radicale/xandikos are not in \(Peers.python); run scripts/test") }
        self.kind = kind
        if kind == "radicale" {
            user = "alice"
            password = "pw-\(UUID().uuidString.prefix(8))"
            process = try PeerProcess(Peers.python, [Peers.script("caldav_server.py"), kind, directory.path, user!, password!])
        } else {
            user = nil
            password = nil
            process = try PeerProcess(Peers.python, [Peers.script("caldav_server.py"), kind, directory.path])
        }
        port = try await process.announcedPort(within: 60, "\(kind) start")
    }

    var url: String { "http://127.0.0.1:\(port)/" }

    @discardableResult
    func client(_ arguments: String...) async throws -> JSONValue {
        let out = try await Peers.outputOrError(Peers.python, [Peers.script("caldav_client.py"), url, user ?? "-", password ?? "-"] + arguments).get()
        let text = String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? .null : try JSONValue.decode(text)
    }

    func stop() { process.stop() }
}

@Suite(.stopsTestHosts, .serialized) struct CalDAVTests {
    static func addAccount(_ host: TestHost, _ peer: CalDAVPeer, conflict: String = "newest") async throws -> JSONValue {
        try await host.call(
            "tasks.caldav.add",
            [
                "name": "home", "url": .string(peer.url), "username": .string(peer.user ?? "anyone"), "password": .string(peer.password ?? "none"),
                "conflict": .string(conflict),
            ]
        ).get()
    }

    static func sync(_ host: TestHost) async throws -> JSONValue {
        let result = try await host.call("tasks.caldav.sync", ["name": "home"]).get()
        return try #require(result["accounts"]?.arrayValue?.first)
    }

    static func titles(_ host: TestHost) async throws -> [JSONValue] {
        (try await host.call("tasks.list").get()["tasks"]?.arrayValue ?? []).map { $0["title"] ?? .null }
    }

    func twoWay(_ kind: String) async throws {
        let peer = try await CalDAVPeer(kind)
        defer { peer.stop() }
        let (host, _) = try await TaskCommandTests.host()
        let added = try await Self.addAccount(host, peer)
        #expect(added["todo_calendar"] == "tasks")
        #expect(added["event_calendar"] == "events")

        // Created here → pushed into the right calendars.
        let todo = try await host.call(
            "tasks.add", ["title": "Odevzdat esej, 2. část", "due": "2026-12-01 10:00", "reminders": [["before_min": 30]]]
        ).get()
        let event = try await host.call("tasks.add", ["title": "Seminar", "kind": "event", "start": "2026-12-02 14:00", "duration_min": 90]).get()
        var counts = try await Self.sync(host)
        #expect(counts["pushed"] == 2)
        var serverTasks = try await peer.client("list", "tasks")
        #expect(serverTasks.arrayValue?.map { $0["summary"] } == ["Odevzdat esej, 2. část"])
        #expect(serverTasks.arrayValue?.first?["uid"] == todo["id"])
        #expect(serverTasks.arrayValue?.first?["alarms"] == 1, "sync_alarms sends the reminder as a VALARM")
        #expect(try await peer.client("list", "events").arrayValue?.map { $0["uid"] } == [event["id"]!])
        #expect(try await host.call("tasks.get", ["id": todo["id"]!]).get()["source"] == "caldav:home")

        // A second sync with no changes moves nothing.
        counts = try await Self.sync(host)
        #expect(counts["pulled"] == 0)
        #expect(counts["pushed"] == 0)

        // Created, edited and deleted by the other client → pulled.
        try await peer.client("add-todo", "tasks", "from-phone-1", "Buy filament", "20261203T090000Z")
        try await peer.client("edit", "events", event["id"]!.stringValue!, "Seminar (room 204)")
        counts = try await Self.sync(host)
        #expect(counts["pulled"] == 2)
        #expect(try await host.call("tasks.get", ["id": "from-phone-1"]).get()["due"] == "2026-12-03T09:00:00Z")
        #expect(try await host.call("tasks.get", ["id": event["id"]!]).get()["title"] == "Seminar (room 204)")
        try await peer.client("delete", "tasks", "from-phone-1")
        counts = try await Self.sync(host)
        #expect(counts["deleted"] == 1)
        guard case .failure(let gone) = try await host.call("tasks.get", ["id": "from-phone-1"]) else {
            Issue.record("not deleted here")
            return
        }
        #expect(gone.code == -32010)

        // Edited and deleted here → pushed.
        _ = try await host.call("tasks.update", ["id": todo["id"]!, "title": "Odevzdat esej (final)"]).get()
        _ = try await host.call("tasks.delete", ["id": event["id"]!]).get()
        counts = try await Self.sync(host)
        #expect(counts["pushed"] == 1)
        #expect(counts["deleted"] == 1)
        serverTasks = try await peer.client("list", "tasks")
        #expect(serverTasks.arrayValue?.map { $0["summary"] } == ["Odevzdat esej (final)"])
        #expect(try await peer.client("list", "events") == [])

        // A series with one instance moved by the other client.
        let series = try await host.call(
            "tasks.add",
            [
                "title": "Lab", "kind": "event", "start": "2026-12-07T09:00:00Z", "duration_min": 60, "rrule": "FREQ=WEEKLY;COUNT=3", "tz": "UTC",
            ]
        ).get()
        _ = try await Self.sync(host)
        try await peer.client("move-instance", "events", series["id"]!.stringValue!, "20261214T090000Z", "20261215T130000Z", "20261215T140000Z")
        counts = try await Self.sync(host)
        #expect(counts["pulled"] == 1)
        let agenda = try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2027-01-01"]).get()
        let lab = agenda["occurrences"]?.arrayValue?.filter { $0["id"] == series["id"] }
        #expect(lab?.map { $0["start"] } == ["2026-12-07T09:00:00Z", "2026-12-15T13:00:00Z", "2026-12-21T09:00:00Z"])
        #expect(lab?.map { $0["title"] } == ["Lab", "Lab (moved)", "Lab"])
        // Our next push keeps the other client's instance.
        _ = try await host.call("tasks.update", ["id": series["id"]!, "location": "Lab 3"]).get()
        counts = try await Self.sync(host)
        #expect(counts["pushed"] == 1)
        #expect(try await peer.client("list", "events").arrayValue?.first?["recurrence_ids"] == ["20261214T090000Z"])
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "radicale"))) func twoWayWithRadicale() async throws { try await twoWay("radicale") }
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "xandikos"))) func twoWayWithXandikos() async throws { try await twoWay("xandikos") }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "radicale")))
    func aConcurrentEditGets412AndIsMergedByThePolicy() async throws {
        let peer = try await CalDAVPeer("radicale")
        defer { peer.stop() }
        let (host, _) = try await TaskCommandTests.host()
        _ = try await Self.addAccount(host, peer, conflict: "local")
        let todo = try await host.call("tasks.add", ["title": "Original", "due": "2026-12-01 10:00"]).get()
        _ = try await Self.sync(host)
        _ = try await host.call("tasks.update", ["id": todo["id"]!, "title": "Changed here"]).get()
        // The other client edits the same item between our pull and our push: the PUT meets 412.
        let uid = todo["id"]!.stringValue!
        let edited = NIOLockedValueBox(false)
        CalDAVSync.beforePush.withLockedValue {
            $0 = { _ in
                // Once: the push that follows must meet the change.
                guard
                    !edited.withLockedValue({ done in
                        defer { done = true }
                        return done
                    })
                else { return }
                _ = try? await peer.client("edit", "tasks", uid, "Changed there")
            }
        }
        defer { CalDAVSync.beforePush.withLockedValue { $0 = nil } }
        let counts = try await Self.sync(host)
        #expect(counts["merged"] == 1)
        #expect(counts["pushed"] == 1, "conflict=local: ours is written over the re-read version")
        #expect(try await peer.client("list", "tasks").arrayValue?.first?["summary"] == "Changed here")
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "radicale")))
    func aServerThatLosesItsSyncTokenGetsAFullComparison() async throws {
        let peer = try await CalDAVPeer("radicale")
        defer { peer.stop() }
        let (host, _) = try await TaskCommandTests.host()
        _ = try await Self.addAccount(host, peer)
        _ = try await host.call("tasks.add", ["title": "One", "due": "2026-12-01 10:00"]).get()
        _ = try await Self.sync(host)
        try await peer.client("add-todo", "tasks", "while-away", "Added while the token was lost", "20261205T090000Z")
        // Radicale keeps its sync-token history here; without it the stored token is unknown (403).
        let cache = "\(peer.directory.path)/collections/collection-root/alice/tasks/.Radicale.cache/sync-token"
        #expect(FileManager.default.fileExists(atPath: cache))
        try FileManager.default.removeItem(atPath: cache)
        let counts = try await Self.sync(host)
        #expect(counts["pulled"] == 1)
        #expect(try await host.call("tasks.get", ["id": "while-away"]).get()["title"] == "Added while the token was lost")
        #expect(try await Self.sync(host)["pulled"] == 0, "and the new token works")
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "radicale")))
    func aWrongPasswordIsRefusedAndLaterPutsOnlyThatAccountIntoReauth() async throws {
        let peer = try await CalDAVPeer("radicale")
        defer { peer.stop() }
        let (host, _) = try await TaskCommandTests.host()
        guard
            case .failure(let refused) = try await host.call(
                "tasks.caldav.add",
                [
                    "name": "home", "url": .string(peer.url), "username": "alice", "password": "wrong",
                ])
        else {
            Issue.record("a wrong password was accepted")
            return
        }
        #expect(refused.code == -32003)
        #expect(try await host.call("tasks.caldav.list").get()["accounts"] == [], "nothing was saved")
        #expect(!(try await host.call("vault.list").get().encodedString().contains("tasks/home")))

        _ = try await Self.addAccount(host, peer)
        // The password changes on the server: the next sync flips this account, once.
        try "alice:new-password\n".write(toFile: "\(peer.directory.path)/htpasswd", atomically: true, encoding: .utf8)
        let failed = try await host.call("tasks.caldav.sync").get()
        #expect(failed["accounts"]?.arrayValue?.first?["code"] == -32003)
        let again = try await host.call("tasks.caldav.sync").get()
        #expect(again["accounts"]?.arrayValue?.first?["code"] == -32003)
        let notices = try await host.call("notifications.list", ["topic": "tasks.caldav.auth_failed"]).get().arrayValue ?? []
        #expect(notices.count == 1)
        #expect(try await host.call("tasks.caldav.list").get()["accounts"]?.arrayValue?.first?["state"] == "needs_reauth")
        // The plugin itself keeps working.
        #expect(try await host.call("tasks.add", ["title": "Still fine"]).get()["title"] == "Still fine")
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "xandikos")))
    func concurrentSyncsOfOneAccountTakeTurns() async throws {
        let peer = try await CalDAVPeer("xandikos")
        defer { peer.stop() }
        let (host, _) = try await TaskCommandTests.host()
        _ = try await Self.addAccount(host, peer)
        for i in 0..<20 { _ = try await host.call("tasks.add", ["title": .string("Item \(i)"), "due": "2026-12-01 10:00"]).get() }
        async let first = Self.sync(host)
        async let second = Self.sync(host)
        let (a, b) = try await (first, second)
        #expect((a["pushed"]?.intValue ?? 0) + (b["pushed"]?.intValue ?? 0) == 20, "\(a) \(b)")
        #expect((a["pulled"]?.intValue ?? 0) + (b["pulled"]?.intValue ?? 0) == 0, "\(a) \(b)")
        let after = try await Self.sync(host)
        #expect(after["pulled"] == 0)
        #expect(after["pushed"] == 0)
        #expect(try await peer.client("list", "tasks").arrayValue?.count == 20)
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "xandikos")))
    func syncAlarmsFalseKeepsRemindersOffTheServer() async throws {
        let peer = try await CalDAVPeer("xandikos")
        defer { peer.stop() }
        let (host, _) = try await TaskCommandTests.host { $0.plugins["tasks"] = ["sync_alarms": false] }
        _ = try await Self.addAccount(host, peer)
        let t = try await host.call("tasks.add", ["title": "Quiet", "due": "2026-12-01 10:00", "reminders": [["before_min": 30]]]).get()
        #expect(try await Self.sync(host)["pushed"] == 1)
        #expect(try await peer.client("list", "tasks").arrayValue?.first?["alarms"] == 0, "no VALARM, so the phone stays quiet")
        // The other client edits it; pulling it back keeps the reminder here.
        try await peer.client("edit", "tasks", t["id"]!.stringValue!, "Quiet (edited)")
        #expect(try await Self.sync(host)["pulled"] == 1)
        let back = try await host.call("tasks.get", ["id": t["id"]!]).get()
        #expect(back["title"] == "Quiet (edited)")
        #expect(back["reminders"] == [["before_min": 30, "of": "due"]])
        await host.stop()
    }

    @Test func badAccountInputIsClear() async throws {
        let (host, _) = try await TaskCommandTests.host()
        for (params, param) in [
            (["name": "a", "url": "ftp://x", "username": "u", "password": "p"] as JSONValue, "url"),
            (["name": "a", "url": "http://example.org/dav", "username": "u", "password": "p"], "url"),
            (["name": "bad name", "url": "https://example.org/dav", "username": "u", "password": "p"], "name"),
            (["name": "a", "url": "https://example.org/dav", "username": "u", "password": "p", "conflict": "mine"], "conflict"),
            (["name": "a", "url": "https://example.org/dav", "username": "u"], "password"),
        ] {
            guard case .failure(let e) = try await host.call("tasks.caldav.add", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(e.code == -32602, "\(params): \(e.message)")
            #expect(e.data?["param"] == .string(param), "\(params): \(e.message)")
        }
        guard case .failure(let none) = try await host.call("tasks.caldav.sync", ["name": "nope"]) else {
            Issue.record("synced nothing")
            return
        }
        #expect(none.code == -32602)
        await host.stop()
    }
}
