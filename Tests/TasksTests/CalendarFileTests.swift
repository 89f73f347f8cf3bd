import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// ICS export read back by Python's `icalendar` (independent of libical), and import round trips.
@Suite(.stopsTestHosts) struct CalendarFileTests {
    static let tricky =
        "Line one\nLine two, with commas; semicolons \\ backslash \"quotes\" 🎓 Příliš žluťoučký kůň úpěl ďábelské ódy – a "
        + "line well over seventy-five octets long"

    static func dump(_ path: String) async throws -> JSONValue {
        let data = try #require(await Peers.output(Peers.python, [Peers.script("ics_dump.py"), path]))
        return try JSONValue.decode(data)
    }

    static func component(_ dump: JSONValue, uid: JSONValue?, recurrence: Bool = false) -> JSONValue? {
        dump["components"]?.arrayValue?.first { $0["uid"] == uid && ($0["recurrence_id"] != .null) == recurrence }
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "icalendar")))
    func exportIsValidRFC5545AndEveryFieldReadsBack() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let parent = try await host.call("tasks.add", ["title": "Semester", "category": "school"]).get()
        let todo = try await host.call(
            "tasks.add",
            [
                "title": .string(Self.tricky), "notes": .string(Self.tricky), "location": "Karlovo nám. 13, Praha",
                "url": "https://example.org/a?b=c",
                "start": "2026-12-01 09:00", "due": "2026-12-01 17:30", "priority": "medium", "category": "school", "tags": ["math", "exam"],
                "parent": parent["id"]!,
                "reminders": [["before_min": 15, "of": "start"], ["before_min": 60, "of": "due"], ["at": "2026-11-30T18:00:00Z"]],
            ]
        ).get()
        let series = try await host.call(
            "tasks.add",
            [
                "title": "Lecture", "kind": "event", "start": "2026-12-07 10:00", "duration_min": 90, "tz": "America/New_York",
                "rrule": "FREQ=WEEKLY;BYDAY=MO;COUNT=5", "exdates": ["2026-12-14 10:00"], "rdates": ["2026-12-16 10:00"],
            ]
        ).get()
        _ = try await host.call(
            "tasks.update", ["id": series["id"]!, "occurrence": "2026-12-21 10:00", "start": "2026-12-22 11:00", "title": "Lecture (moved)"]
        ).get()
        let allDay = try await host.call("tasks.add", ["title": "Holiday", "kind": "event", "start": "2026-12-24", "end": "2026-12-27"]).get()
        let path = directory.file("out.ics")
        let result = try await host.call("tasks.export.ics", ["path": .string(path)]).get()
        #expect(result["todos"] == 2)
        #expect(result["events"] == 2)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.last == "", "every line ends with CRLF")
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare LF")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 }, "folded at 75 octets: \(lines.filter { $0.utf8.count > 75 }.prefix(2))")
        #expect(lines.contains("PRODID:\(ICSWriter.prodID)"))
        #expect(lines.contains("VERSION:2.0"))

        let d = try await Self.dump(path)
        #expect(Set(d["timezones"]?.arrayValue ?? []) == ["Europe/Prague", "America/New_York"])
        let t = try #require(Self.component(d, uid: todo["id"]))
        #expect(t["kind"] == "VTODO")
        #expect(t["summary"] == .string(Self.tricky))
        #expect(t["description"] == .string(Self.tricky))
        #expect(t["location"] == "Karlovo nám. 13, Praha")
        #expect(t["url"] == "https://example.org/a?b=c")
        #expect(t["priority"] == 5)
        #expect(t["status"] == "NEEDS-ACTION")
        #expect(t["dtstart"] == ["wall": "2026-12-01T09:00:00", "tzid": "Europe/Prague", "utc": "2026-12-01T08:00:00Z"])
        #expect(t["due"]?["utc"] == "2026-12-01T16:30:00Z")
        #expect(t["categories"] == ["school", "math", "exam"])
        #expect(t["x_category"] == "school")
        #expect(t["related_to"] == parent["id"])
        #expect(t["reltype"] == "PARENT")
        #expect(
            t["alarms"] == [
                ["trigger": ["seconds": -900], "related": "START", "action": "DISPLAY"],
                ["trigger": ["seconds": -3600], "related": "END", "action": "DISPLAY"],
                ["trigger": ["wall": "2026-11-30T18:00:00", "tzid": .null, "utc": "2026-11-30T18:00:00Z"], "related": .null, "action": "DISPLAY"],
            ])
        let s = try #require(Self.component(d, uid: series["id"]))
        #expect(s["kind"] == "VEVENT")
        #expect(Set(s["rrule"]?.stringValue?.split(separator: ";") ?? []) == ["FREQ=WEEKLY", "BYDAY=MO", "COUNT=5"])
        #expect(s["dtstart"]?["tzid"] == "America/New_York")
        #expect(s["duration"] == ["seconds": 5400])
        #expect(s["exdate"] == [["wall": "2026-12-14T10:00:00", "tzid": "America/New_York", "utc": "2026-12-14T15:00:00Z"]])
        #expect(s["rdate"]?.arrayValue?.first?["utc"] == "2026-12-16T15:00:00Z")
        let moved = try #require(Self.component(d, uid: series["id"], recurrence: true))
        #expect(moved["recurrence_id"]?["utc"] == "2026-12-21T15:00:00Z")
        #expect(moved["dtstart"]?["utc"] == "2026-12-22T16:00:00Z")
        #expect(moved["dtend"]?["utc"] == "2026-12-22T17:30:00Z")
        #expect(moved["summary"] == "Lecture (moved)")
        let h = try #require(Self.component(d, uid: allDay["id"]))
        #expect(h["dtstart"] == ["date": "2026-12-24"])
        #expect(h["dtend"] == ["date": "2026-12-27"])
        await host.stop()

        // Import into an empty daemon: every task comes back as it was.
        let (other, _) = try await TaskCommandTests.host()
        let imported = try await other.call("tasks.import.ics", ["path": .string(path)]).get()
        #expect(imported["added"] == 4, "\(imported)")
        #expect(imported["problems"] == [])
        for original in [parent, todo, allDay] {
            var back = try await other.call("tasks.get", ["id": original["id"]!]).get()
            var want = original
            for volatile in ["modified", "created"] {
                back = back.removing(volatile)
                want = want.removing(volatile)
            }
            #expect(back == want, "\(original["title"] ?? "")")
        }
        let seriesBack = try await other.call("tasks.get", ["id": series["id"]!]).get()
        #expect(seriesBack["overrides"]?.arrayValue?.first?["title"] == "Lecture (moved)")
        #expect(Set(seriesBack["rrule"]?.stringValue?.split(separator: ";") ?? []) == ["FREQ=WEEKLY", "BYDAY=MO", "COUNT=5"])
        #expect(seriesBack["exdates"] == series["exdates"])
        let again = try await other.call("tasks.import.ics", ["path": .string(path)]).get()
        #expect(again["added"] == 0, "a second import adds nothing")
        #expect(again["unchanged"] == 4)
        await other.stop()
    }

    /// A client that hangs up while its import runs: the call is cancelled and the import's one
    /// transaction is rolled back (GRDB interrupts it), so nothing of the file is written.
    @Test func aHangUpMidImportWritesNothing() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let count = 4000
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//assistantd tests//EN\r\n"
        for i in 0..<count {
            ics +=
                "BEGIN:VTODO\r\nUID:bulk-\(i)@example.org\r\nDTSTAMP:20261101T000000Z\r\nSUMMARY:Bulk \(i)\r\nDUE:20261201T090000Z\r\nEND:VTODO\r\n"
        }
        ics += "END:VCALENDAR\r\n"
        let path = directory.write("bulk.ics", ics)
        let client = try await RawLineClient(socketPath: host.socketPath)
        let request: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "tasks.import.ics", "params": ["path": .string(path)]]
        try await client.send(line: request.encodedString())
        await host.host.server.waitUntilCallsInFlight(atLeast: 1)
        await client.close()
        await host.host.server.waitUntilNoCallsInFlight()
        #expect(try await host.call("tasks.list", ["when": "all"]).get()["tasks"] == [], "nothing of the file was written")
        // The same file on a connection that stays imports all of it, so the check above could fail.
        let imported = try await host.call("tasks.import.ics", ["path": .string(path)]).get()
        #expect(imported["added"] == .int(Int64(count)))
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "icalendar")))
    func anotherClientsFileKeepsWhatThePluginDoesNotModel() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let source = directory.file("other.ics")
        #expect(await Peers.runOffPool(Peers.python, [Peers.script("ics_dump.py"), "--write", source]) == 0)
        let dry = try await host.call("tasks.import.ics", ["path": .string(source), "dry_run": true]).get()
        #expect(dry["added"] == 2)
        #expect(try await host.call("tasks.list").get()["tasks"] == [], "a dry run writes nothing")
        _ = try await host.call("tasks.import.ics", ["path": .string(source)]).get()
        let seminar = try await host.call("tasks.get", ["id": "other-client-1@example.org"]).get()
        #expect(seminar["title"] == "Seminář; with \"quotes\", commas, and a \\ backslash")
        #expect(seminar["start_local"] == "2026-12-07T10:00:00")
        #expect(seminar["end_local"] == "2026-12-07T11:30:00")
        let todo = try await host.call("tasks.get", ["id": "other-client-2@example.org"]).get()
        #expect(todo["category"] == "school")
        #expect(todo["tags"] == ["homework"])
        #expect(todo["all_day"] == true)
        let agenda = try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2027-01-01"]).get()
        #expect(
            agenda["occurrences"]?.arrayValue?.filter { $0["id"] == "other-client-1@example.org" }.map { $0["start_local"] } == [
                "2026-12-07T10:00:00", "2026-12-15T12:00:00", "2026-12-21T10:00:00", "2026-12-28T10:00:00",
            ])

        let out = directory.file("back.ics")
        _ = try await host.call("tasks.export.ics", ["path": .string(out)]).get()
        let d = try await Self.dump(out)
        let e = try #require(Self.component(d, uid: "other-client-1@example.org"))
        #expect(e["attendee"] == ["mailto:student@example.org"])
        #expect(e["x_custom"] == "keep me")
        let moved = try #require(Self.component(d, uid: "other-client-1@example.org", recurrence: true))
        #expect(moved["summary"] == "Seminář (moved)")
        await host.stop()
    }

    @Test func badFilesAndPathsGiveClearErrorsAndWriteNothing() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let garbage = directory.write("garbage.ics", "this is not a calendar\n")
        let noUID = directory.write("nouid.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        let badRule = directory.write(
            "badrule.ics",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:ok\r\nDTSTART:20261201T100000Z\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b"
                + "\r\nSUMMARY:bad\r\nDTSTART:20261201T100000Z\r\nRRULE:FREQ=DAILY;BYDAY=XX\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        )
        for (path, code) in [(directory.file("missing.ics"), 1208), (directory.path, 1208), (garbage, 1208), (noUID, 1209), (badRule, 1209)] {
            guard case .failure(let e) = try await host.call("tasks.import.ics", ["path": .string(path)]) else {
                Issue.record("\(path) was imported")
                continue
            }
            #expect(e.code == code, "\(path): \(e.message)")
        }
        #expect(try await host.call("tasks.list").get()["tasks"] == [], "nothing was written")
        let skipped = try await host.call("tasks.import.ics", ["path": .string(badRule), "skip_invalid": true]).get()
        #expect(skipped["added"] == 1)
        #expect(skipped["problems"]?.arrayValue?.first?["uid"] == "b")
        #expect(skipped["problems"]?.arrayValue?.first?["reason"]?.stringValue?.contains("BYDAY") == true)
        guard case .failure(let e) = try await host.call("tasks.export.ics", ["path": .string(directory.file("no/such/dir/x.ics"))]) else {
            Issue.record("exported into a missing folder")
            return
        }
        #expect(e.code == -32602)
        #expect(e.data?["param"] == "path")
        await host.stop()
    }
}

extension JSONValue {
    func removing(_ key: String) -> JSONValue {
        guard case .object(var o) = self else { return self }
        o[key] = nil
        return .object(o)
    }
}
