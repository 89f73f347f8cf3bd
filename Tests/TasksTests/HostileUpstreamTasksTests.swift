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
                let outcome = try await host.call("tasks.caldav.add", [
                    "name": "home", "url": .string(server.url + "/calendars/alice/"), "username": "alice", "password": "pw",
                ])
                guard case .failure(let error) = outcome else { Issue.record("\(behaviour) was accepted"); return }
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
                guard case .failure(let error) = outcome else { Issue.record("\(behaviour) was accepted"); return }
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
                    Issue.record("\(path) was imported"); continue
                }
                #expect(error.code == 1208)
                #expect(error.message.hasPrefix("Cannot use '\(path)': \(problem)"), "\(error.message)")
            }
            #expect(try await host.call("status").get()["plugins"] != nil, "the daemon answers after \(path)")
        }
        #expect(try await host.call("tasks.list", ["when": "all"]).get()["count"] == 0, "nothing was imported")
        guard case .failure(let feed) = try await host.call("tasks.feeds.add", ["name": "pipe", "url": .string("file://" + files.fifo)]) else {
            Issue.record("a FIFO feed was accepted"); return
        }
        #expect(feed.message == "Feed 'pipe' could not be read: \(files.fifo) is a FIFO (named pipe), not a regular file")
        await host.stop()
    }
}
