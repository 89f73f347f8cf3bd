import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// CalDAV accounts and ICS feeds pointed at a server that answers as a broken or hostile one
/// would: each add is refused with a clear error naming the server, nothing is saved, and the
/// daemon goes on answering.
@Suite(.stopsTestHosts, .serialized, .timeLimit(.minutes(3))) struct HostileUpstreamTasksTests {
    static let behaviours: [HostileUpstream.Behaviour] = [
        .deepXML(depth: 100_000, status: 207), .billionLaughs(status: 207), .externalEntity(path: "/etc/hostname", status: 207),
        .trickle(every: .milliseconds(300)), .endlessBody, .gzipBomb(inflatedBytes: 1 << 30), .resetMidBody, .truncated, .htmlError,
        .redirectLoop, .redirect(to: "file:///etc/passwd"), .redirect(to: "http://192.0.2.1/calendars/"),
        .answer(status: 207, contentType: "application/xml", body: "<multistatus xmlns='DAV:'><response>"),
        .answer(status: 207, contentType: "text/html", body: "<html><body>Login</body></html>"),
    ]

    @Test func aCalDAVServerAnsweringBadlyIsRefusedAndNothingIsSaved() async throws {
        let (host, _) = try await TaskCommandTests.host { $0.http.timeoutSeconds = 2 }
        for behaviour in Self.behaviours {
            try await HostileUpstream.with(behaviour) { server in
                let outcome = try await host.call(
                    "tasks.caldav.add",
                    [
                        "name": "home", "url": .string(server.url + "/calendars/alice/"), "username": "alice", "password": "pw",
                    ])
                guard case .failure(let error) = outcome else {
                    Issue.record("\(behaviour) was accepted")
                    return
                }
                #expect([-32004, -32005, 1212].contains(error.code), "\(behaviour): \(error.code) \(error.message)")
                #expect(error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names the server: \(error.message)")
                #expect(!error.message.contains("pw"), "no secret in \(error.message)")
            }
            #expect(try await host.call("tasks.caldav.list").get()["accounts"] == [], "\(behaviour): nothing saved")
            #expect(try await host.call("status").get()["plugins"] != nil, "\(behaviour): the daemon still answers")
        }
        await host.stop()
    }

    @Test func anICSFeedAnsweringBadlyIsRefusedAndNothingIsSaved() async throws {
        let (host, clock) = try await TaskCommandTests.host { $0.http.timeoutSeconds = 2 }
        for behaviour in Self.behaviours {
            try await HostileUpstream.with(behaviour) { server in
                // A feed's GET is retried after a timeout, with backoff on the host clock.
                let outcome = try await clock.whileAdvancing {
                    try await host.call("tasks.feeds.add", ["name": "school", "url": .string(server.url + "/feed.ics")])
                }
                guard case .failure(let error) = outcome else {
                    Issue.record("\(behaviour) was accepted")
                    return
                }
                if error.code == 1211 {
                    let reasons = ["the answer is not an iCalendar file", "the server answered 500"]
                    #expect(reasons.map { "Feed 'school' could not be read: \($0)" }.contains(error.message), "\(behaviour): \(error.message)")
                } else {
                    #expect([-32004, -32005].contains(error.code), "\(behaviour): \(error.code) \(error.message)")
                    #expect(error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names the server: \(error.message)")
                }
            }
            #expect(try await host.call("tasks.feeds.list").get()["feeds"] == [], "\(behaviour): nothing saved")
        }
        await host.stop()
    }
}

/// Files that are not plain files, or too large: refused at once, the daemon answering on. A
/// FIFO used to hold a worker thread in `open()` until someone wrote to it; two froze the daemon.
@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct HostileFileTasksTests {
    @Test func importAndFeedsRefuseWhatIsNotAPlainFile() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let files = HostileFiles()
        for (path, problem) in files.cases {
            // Twice: the pool has two threads, and each FIFO open used to take one for good.
            for _ in 0..<2 {
                guard case .failure(let error) = try await host.call("tasks.import.ics", ["path": .string(path)]) else {
                    Issue.record("\(path) was imported")
                    continue
                }
                #expect(error.code == 1208)
                #expect(error.message.hasPrefix("Cannot use '\(path)': \(problem)"), "\(error.message)")
            }
            #expect(try await host.call("status").get()["plugins"] != nil, "the daemon answers after \(path)")
        }
        #expect(try await host.call("tasks.list", ["when": "all"]).get()["count"] == 0, "nothing was imported")
        guard case .failure(let feed) = try await host.call("tasks.feeds.add", ["name": "pipe", "url": .string("file://" + files.fifo)]) else {
            Issue.record("a FIFO feed was accepted")
            return
        }
        #expect(feed.message == "Feed 'pipe' could not be read: \(files.fifo) is a FIFO (named pipe), not a regular file")
        await host.stop()
    }
}

/// Occurrences are bounded per call: a rule that repeats more often than once a minute is refused
/// where it comes in, and an agenda over many minute-by-minute series stops at `limit`, says it
/// was cut, and says where to continue (a year of 20 of them once grew the daemon past 5 GB).
@Suite(.stopsTestHosts, .timeLimit(.minutes(2))) struct OccurrenceBoundTests {
    static func calendar(_ rules: [String]) -> String {
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for (i, rule) in rules.enumerated() {
            ics += "BEGIN:VEVENT\r\nUID:series-\(i)@test\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261201T0000\(String(format: "%02d", i))Z\r\n"
            ics += "DURATION:PT30S\r\nSUMMARY:Series \(i)\r\nRRULE:\(rule)\r\nEND:VEVENT\r\n"
        }
        return ics + "END:VCALENDAR\r\n"
    }

    @Test func aRuleMoreOftenThanEveryMinuteIsRefused() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let path = directory.write(
            "seconds.ics", Self.calendar(["FREQ=SECONDLY", "FREQ=MINUTELY;BYSECOND=0,30", "FREQ=SECONDLY;INTERVAL=60", "FREQ=MINUTELY"]))
        let imported = try await host.call("tasks.import.ics", ["path": .string(path), "skip_invalid": true]).get()
        #expect(imported["added"] == 2)
        let reasons = (imported["problems"]?.arrayValue ?? []).compactMap { $0["reason"]?.stringValue }
        #expect(reasons.count == 2)
        #expect(reasons.allSatisfy { $0.contains("more often than once a minute") }, "\(reasons)")
        guard
            case .failure(let error) = try await host.call(
                "tasks.add", ["title": "x", "start": "2026-12-01T10:00:00Z", "rrule": "FREQ=SECONDLY;INTERVAL=5"])
        else {
            Issue.record("a 5-second rule was accepted")
            return
        }
        #expect(error.code == -32602)
        #expect(error.data?["param"] == "rrule")
        await host.stop()
    }

    @Test func anAgendaOfManyMinuteSeriesStopsAtItsLimitAndContinues() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let path = directory.write("minutes.ics", Self.calendar(Array(repeating: "FREQ=MINUTELY", count: 20)))
        #expect(try await host.call("tasks.import.ics", ["path": .string(path)]).get()["added"] == 20)
        let first = try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2027-12-01", "limit": 1_000]).get()
        let occurrences = first["occurrences"]?.arrayValue ?? []
        #expect(first["truncated"] == true)
        #expect(occurrences.count == 1_000)
        // 20 series a minute apart by seconds: the first 1 000 are the first 50 minutes.
        #expect(occurrences.first?["start"] == "2026-12-01T00:00:00Z")
        #expect(occurrences.last?["start"] == "2026-12-01T00:49:19Z")
        #expect(first["next_from"] == "2026-12-01T00:50:00Z")
        let second = try await host.call("tasks.agenda", ["from": first["next_from"]!, "to": "2027-12-01", "limit": 1_000]).get()
        #expect(second["occurrences"]?.arrayValue?.first?["start"] == "2026-12-01T00:50:00Z", "continues with no gap and no repeat")
        // The default limit holds a year of them too, and says so.
        let year = try await host.call("tasks.agenda", ["from": "2026-12-01", "to": "2027-12-01"]).get()
        #expect(year["truncated"] == true)
        #expect(year["occurrences"]?.arrayValue?.count == 50_000)
        let small = try await host.call("tasks.agenda", ["from": "2026-12-01T00:00:00Z", "to": "2026-12-01T00:02:00Z"]).get()
        #expect(small["truncated"] == false)
        #expect(small["next_from"] == .null)
        #expect(small["occurrences"]?.arrayValue?.count == 40)
        await host.stop()
    }

    /// A window of any length is answered (a century of minute series): the limit bounds the
    /// work, and paging by `next_from` walks on with no repeats.
    @Test func aCenturyLongAgendaIsAnsweredAndPagesOn() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let path = directory.write("minutes.ics", Self.calendar(Array(repeating: "FREQ=MINUTELY", count: 20)))
        #expect(try await host.call("tasks.import.ics", ["path": .string(path)]).get()["added"] == 20)
        _ = try await host.call("tasks.add", ["title": "Yearly", "start": "2030-06-01T08:00:00Z", "rrule": "FREQ=YEARLY"]).get()
        let century = try await host.call("tasks.agenda", ["from": "2000-01-01", "to": "2100-01-01", "limit": 500]).get()
        #expect(century["truncated"] == true)
        #expect(century["occurrences"]?.arrayValue?.count == 500)
        #expect(century["next_from"] == "2026-12-01T00:25:00Z")
        // Every yearly occurrence to the end of the century, alone in its category.
        _ = try await host.call("tasks.update", ["id": .string(try Self.id(of: "Yearly", in: host)), "category": "work"]).get()
        let yearly = try await host.call("tasks.agenda", ["from": "2000-01-01", "to": "2100-01-01", "category": "work"]).get()
        #expect(yearly["truncated"] == false)
        #expect(yearly["occurrences"]?.arrayValue?.count == 70, "2030 to 2099")
        #expect(yearly["occurrences"]?.arrayValue?.last?["start"] == "2099-06-01T08:00:00Z")
        await host.stop()
    }

    static func id(of title: String, in host: TestHost) async throws -> String {
        let tasks = try await host.call("tasks.list", ["text": .string(title)]).get()["tasks"]?.arrayValue ?? []
        return try #require(tasks.first?["id"]?.stringValue)
    }
}
