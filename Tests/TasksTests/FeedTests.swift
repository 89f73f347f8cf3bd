import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// Read-only ICS feeds over loopback http (ETag) and file://.
@Suite(.stopsTestHosts) struct FeedTests {
    static func calendar(_ events: [(uid: String, summary: String, start: String)]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//feed test//EN"]
        for e in events {
            lines += [
                "BEGIN:VEVENT", "UID:\(e.uid)", "DTSTAMP:20261101T000000Z", "SUMMARY:\(e.summary)", "DTSTART:\(e.start)", "DURATION:PT1H",
                "END:VEVENT",
            ]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// A feed whose every event is refused says how many and why, when it is added and in the
    /// list, instead of showing no items and no problem.
    @Test func aFeedWhoseEventsAreRefusedSaysWhatItSkippedAndWhy() async throws {
        let directory = TemporaryDirectory()
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN"]
        for i in 0..<20 {
            lines += [
                "BEGIN:VEVENT", "UID:s\(i)", "DTSTAMP:20261101T000000Z", "SUMMARY:Every second \(i)", "DTSTART:20261205T190000Z",
                "RRULE:FREQ=SECONDLY", "END:VEVENT",
            ]
        }
        let file = directory.write("seconds.ics", (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n")
        let (host, _) = try await TaskCommandTests.host()
        let added = try await host.call("tasks.feeds.add", ["name": "seconds", "url": .string("file://" + file)]).get()
        #expect(added["items"] == 0)
        #expect(added["skipped"] == 20)
        let reasons = try #require(added["skipped_reasons"]?.arrayValue?.compactMap { $0.stringValue })
        #expect(reasons.count == 1 && reasons[0].contains("repeats more often than once a minute"), "\(reasons)")
        #expect(!added.encodedString().contains("Every second"), "the reasons quote no event")
        let listed = try await host.call("tasks.feeds.list").get()
        let row = try #require(listed["feeds"]?.arrayValue?.first)
        #expect(row["skipped"] == 20)
        #expect(row["skipped_reasons"] == added["skipped_reasons"])
        #expect(row["problem"] == .null)
        await host.stop()
    }

    @Test func httpFeedWithETagDownloadsOnlyChangesAndStaysReadOnly() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("cal.ics", Self.calendar([("a", "Concert", "20261205T190000Z"), ("b", "Match", "20261206T150000Z")]))
        let server = try PeerProcess(Peers.python, [Peers.script("ics_feed.py"), "--file", file])
        defer { server.stop() }
        let port = try await server.announcedPort("ics feed")
        let (host, _) = try await TaskCommandTests.host()
        let secretURL = "http://127.0.0.1:\(port)/cal.ics?token=SECRET-TOKEN-123"
        let added = try await host.call("tasks.feeds.add", ["name": "club", "url": .string(secretURL)]).get()
        #expect(added["items"] == 2)
        #expect(added["url"] == .string("http://127.0.0.1:\(port)/cal.ics?…"))
        let listed = try await host.call("tasks.feeds.list").get()
        #expect(listed["feeds"]?.arrayValue?.first?["url"] == .string("http://127.0.0.1:\(port)/cal.ics?…"))
        #expect(!listed.encodedString().contains("SECRET-TOKEN"), "the token is never shown")

        let agenda = try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2026-12-31"]).get()
        let rows = try #require(agenda["occurrences"]?.arrayValue)
        #expect(rows.map { $0["title"] } == ["Concert", "Match"])
        #expect(rows.map { $0["source"] } == ["feed:club", "feed:club"])
        guard case .failure(let readOnly) = try await host.call("tasks.update", ["id": rows[0]["id"]!, "title": "x"]) else {
            Issue.record("a feed item was edited")
            return
        }
        #expect(readOnly.code == 1202)

        let unchanged = try await host.call("tasks.feeds.refresh", ["name": "club"]).get()
        #expect(unchanged["feeds"]?.arrayValue?.first?["changed"] == false)
        let notModified = try await withDeadline(10, "the 304") { await server.output.next { $0.hasPrefix("HIT 304") } }
        #expect(notModified.hasPrefix("HIT 304 0 "), "the second refresh downloads nothing")

        try Self.calendar([("a", "Concert (moved)", "20261207T190000Z")]).write(toFile: file, atomically: true, encoding: .utf8)
        let changed = try await host.call("tasks.feeds.refresh").get()
        #expect(changed["feeds"]?.arrayValue?.first?["changed"] == true)
        let after = try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2026-12-31"]).get()
        #expect(after["occurrences"]?.arrayValue?.map { $0["title"] } == ["Concert (moved)"])
        #expect(server.output.lines.filter { $0.hasPrefix("HIT 200") }.count == 2)

        _ = try await host.call("tasks.feeds.remove", ["name": "club"]).get()
        #expect(try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2026-12-31"]).get()["occurrences"] == [])
        #expect(try await host.call("vault.list").get().encodedString().contains("feeds/club") == false)
        await host.stop()
    }

    @Test func fileFeedsAndBadFeedsAreClear() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("local.ics", Self.calendar([("x", "Lab", "20261210T080000Z")]))
        let (host, _) = try await TaskCommandTests.host()
        let added = try await host.call("tasks.feeds.add", ["name": "lab", "url": .string(URL(fileURLWithPath: file).absoluteString)]).get()
        #expect(added["items"] == 1)
        #expect(try await host.call("tasks.feeds.refresh", ["name": "lab"]).get()["feeds"]?.arrayValue?.first?["changed"] == false)
        let garbage = directory.write("garbage.ics", "hello")
        for (params, code, param) in [
            (["name": "a", "url": "ftp://example.org/x.ics"] as JSONValue, -32602, "url"),
            (["name": "a", "url": "webcal://example.org/x.ics"], -32602, "url"),
            (["name": "bad name!", "url": "https://example.org/x.ics"], -32602, "name"),
            (["name": "lab", "url": .string(URL(fileURLWithPath: file).absoluteString)], 1210, nil),
            (["name": "gone", "url": .string(URL(fileURLWithPath: directory.file("missing.ics")).absoluteString)], 1211, nil),
            (["name": "junk", "url": .string(URL(fileURLWithPath: garbage).absoluteString)], 1211, nil),
        ] {
            guard case .failure(let e) = try await host.call("tasks.feeds.add", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(e.code == code, "\(params): \(e.message)")
            if let param { #expect(e.data?["param"] == .string(param)) }
        }
        #expect(try await host.call("tasks.feeds.list").get()["feeds"]?.arrayValue?.map { $0["name"] } == ["lab"], "nothing else was saved")
        await host.stop()
    }
}
