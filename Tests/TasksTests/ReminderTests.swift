import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Tasks

/// Reminders on the test clock: the exact minute, restarts, missed ones, snooze, repeats, mail.
@Suite(.stopsTestHosts) struct ReminderTests {
    static func start(
        _ clock: TestClock, _ directory: TemporaryDirectory = TemporaryDirectory(),
        configure: @escaping (inout HostConfiguration) -> Void = { _ in }
    ) async throws -> TestHost {
        try await TestHost.started(plugins: [TasksPlugin()], clock: clock, directory: directory) {
            $0.timeZone = TimeZone(identifier: "Europe/Prague")!
            configure(&$0)
        }
    }

    static func reminders(_ host: TestHost, _ topic: String = "tasks.reminder") async throws -> [JSONValue] {
        try await host.call("notifications.list", ["topic": .string(topic), "limit": 100]).get().arrayValue ?? []
    }

    static func date(_ s: String) -> Date { ISO8601.date(s)! }

    @Test func aReminderFiresAtItsMinuteAndNotBefore() async throws {
        let clock = TestClock(now: Self.date("2026-11-24T08:00:00Z"))
        let host = try await Self.start(clock)
        _ = try await host.call(
            "tasks.add",
            [
                "title": "Exam prep", "start": "2026-11-24 09:20", "location": "Library", "notes": "Chapters 3–5",
                "reminders": [["before_min": 15, "of": "start"]],
            ]
        ).get()
        // The scheduler waits for exactly 08:05:00Z (09:20 Prague − 15 min): no polling interval.
        await clock.waitForSleeper { $0 == Self.date("2026-11-24T08:05:00Z") }
        clock.advance(to: Self.date("2026-11-24T08:05:00Z"))
        let line = try await withDeadline(10, "the reminder") { await host.stdout.next { $0.contains("Exam prep") } }
        #expect(line.contains("tasks.reminder"))
        let notices = try await Self.reminders(host)
        #expect(notices.count == 1)
        #expect(notices.first?["time"] == "2026-11-24T08:05:00Z")
        #expect(notices.first?["title"] == "Exam prep")
        #expect(notices.first?["severity"] == "info")
        let body = notices.first?["body"]?.stringValue ?? ""
        #expect(body.hasPrefix("When: 2026-11-24 09:20 Europe/Prague"), "\(body)")
        #expect(body.contains("Where: Library"))
        #expect(body.contains("Chapters 3–5"))
        await host.stop()
    }

    @Test func aRestartDeliversNothingTwiceAndMissedOnesLateOrCounted() async throws {
        let clock = TestClock(now: Self.date("2026-11-24T08:00:00Z"))
        let directory = TemporaryDirectory()
        let first = try await Self.start(clock, directory) { $0.plugins["tasks"] = ["missed_grace_h": 2] }
        _ = try await first.call("tasks.add", ["title": "Fired", "due": "2026-11-24 09:10", "reminders": [["before_min": 0]]]).get()
        _ = try await first.call("tasks.add", ["title": "Soon late", "due": "2026-11-24 10:00", "reminders": [["before_min": 0, "of": "due"]]]).get()
        _ = try await first.call("tasks.add", ["title": "Long missed", "due": "2026-11-24 09:30", "reminders": [["before_min": 0]]]).get()
        await clock.waitForSleeper { $0 == Self.date("2026-11-24T08:10:00Z") }
        clock.advance(to: Self.date("2026-11-24T08:10:00Z"))
        _ = try await withDeadline(10, "the first reminder") { await first.stdout.next { $0.contains("Fired") } }
        await first.stop()

        // Down from 08:10 to 11:00: "Soon late" (09:00Z) is within 2 h, "Long missed" (08:30Z) is not.
        clock.advance(to: Self.date("2026-11-24T11:00:00Z"))
        let second = try await Self.start(clock, directory) { $0.plugins["tasks"] = ["missed_grace_h": 2] }
        let notices = try await Self.reminders(second)
        #expect(notices.map { $0["title"] } == ["Soon late", "Fired"], "Fired is not sent again")
        #expect(notices.first?["body"]?.stringValue?.hasPrefix("Late:") == true)
        #expect(notices.first?["severity"] == "warning", "the to-do is overdue by now")
        let missed = try await Self.reminders(second, "tasks.reminders.missed")
        #expect(missed.count == 1)
        #expect(missed.first?["title"] == "1 reminder missed while the daemon was down")
        #expect(missed.first?["body"]?.stringValue?.hasPrefix("Long missed") == true)
        await second.stop()

        // A third start sends nothing more.
        let third = try await Self.start(clock, directory) { $0.plugins["tasks"] = ["missed_grace_h": 2] }
        #expect(try await Self.reminders(third).count == 2)
        #expect(try await Self.reminders(third, "tasks.reminders.missed").count == 1)
        await third.stop()
    }

    @Test func snoozeDeliversTheLastReminderAgain() async throws {
        let clock = TestClock(now: Self.date("2026-11-24T08:00:00Z"))
        let host = try await Self.start(clock)
        let t = try await host.call("tasks.add", ["title": "Call mum", "start": "2026-11-24 09:30", "reminders": [["before_min": 0]]]).get()
        let id = try #require(t["id"])
        // Nothing fired yet: snooze moves the pending reminder.
        let moved = try await host.call("tasks.snooze", ["id": id, "minutes": 45]).get()
        #expect(moved["remind_at"] == "2026-11-24T08:45:00Z")
        await clock.waitForSleeper { $0 == Self.date("2026-11-24T08:30:00Z") }
        clock.advance(to: Self.date("2026-11-24T08:30:00Z"))
        await clock.waitForSleeper { $0 == Self.date("2026-11-24T08:45:00Z") }
        #expect(try await Self.reminders(host).isEmpty, "the moved reminder does not fire at its old time")
        clock.advance(to: Self.date("2026-11-24T08:45:00Z"))
        _ = try await withDeadline(10, "the moved reminder") { await host.stdout.next { $0.contains("Call mum") } }
        // After it fired: snooze delivers it again.
        let again = try await host.call("tasks.snooze", ["id": id, "minutes": 10]).get()
        #expect(again["remind_at"] == "2026-11-24T08:55:00Z")
        await clock.waitForSleeper { $0 == Self.date("2026-11-24T08:55:00Z") }
        clock.advance(to: Self.date("2026-11-24T08:55:00Z"))
        _ = try await withDeadline(10, "the snoozed reminder") { await host.stdout.next(2) { $0.contains("Call mum") } }
        let times = try await Self.reminders(host).map { $0["time"] }
        #expect(times == ["2026-11-24T08:55:00Z", "2026-11-24T08:45:00Z"])
        await host.stop()
    }

    @Test func eachOccurrenceOfARepeatGetsItsReminder() async throws {
        let clock = TestClock(now: Self.date("2026-11-24T06:00:00Z"))
        let host = try await Self.start(clock)
        _ = try await host.call(
            "tasks.add",
            [
                "title": "Pills", "kind": "event", "start": "2026-11-24 08:00", "rrule": "FREQ=DAILY;COUNT=3",
                "reminders": [["before_min": 5, "of": "start"]],
            ]
        ).get()
        for (day, fire) in [(24, "2026-11-24T06:55:00Z"), (25, "2026-11-25T06:55:00Z"), (26, "2026-11-26T06:55:00Z")] {
            await clock.waitForSleeper { $0 == Self.date(fire) }
            clock.advance(to: Self.date(fire))
            _ = try await withDeadline(10, "reminder on the \(day)th") { await host.stdout.next(day - 23) { $0.contains("Pills") } }
        }
        let notices = try await Self.reminders(host)
        #expect(notices.map { $0["time"] } == ["2026-11-26T06:55:00Z", "2026-11-25T06:55:00Z", "2026-11-24T06:55:00Z"])
        #expect(Set(notices.compactMap { $0["dedupe_key"]?.stringValue }).count == 3)
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd")))
    func mailRemindersCarryTheTaskAsICSAndOnlyTheChosenChannelsGetThem() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let clock = TestClock(now: Self.date("2026-11-24T08:00:00Z"))
        let host = try await Self.start(clock) { $0.sendMail(through: smtp) }
        _ = try await host.call("vault.set", ["name": "host/smtp/password", "secret": .string(smtp.password)]).get()
        let t = try await host.call(
            "tasks.add",
            [
                "title": "Zkouška: Matematika", "start": "2026-11-24 09:10", "channels": ["mail"], "reminders": [["before_min": 0]],
            ]
        ).get()
        #expect(t["channels"] == ["mail"])
        let plain = try await host.call("tasks.add", ["title": "Stdout only", "start": "2026-11-24 09:20", "reminders": [["before_min": 0]]]).get()
        #expect(plain["channels"] == ["mail", "stdout"], "mail is configured, so the default is both")
        _ = try await host.call("tasks.update", ["id": plain["id"]!, "channels": ["stdout"]]).get()
        await clock.waitForSleeper { $0 == Self.date("2026-11-24T08:10:00Z") }
        clock.advance(to: Self.date("2026-11-24T08:10:00Z"))
        let message = try await smtp.message()
        let mail = ParsedMail(message["data"] as! String)
        #expect(mail.subject.hasSuffix("Zkouška: Matematika"))
        let ics = try #require(mail.parts.first { $0.type.hasPrefix("text/calendar") })
        #expect(ics.type.contains("method=PUBLISH"))
        let text = String(decoding: ics.payload, as: UTF8.self)
        #expect(text.contains("BEGIN:VTODO\r\n"))
        #expect(text.contains("SUMMARY:Zkouška: Matematika\r\n"))
        #expect(text.contains("DTSTART;TZID=Europe/Prague:20261124T091000\r\n"))
        #expect(text.contains("UID:\(t["id"]!.stringValue!)\r\n"))
        // The mail-only reminder never reached stdout; the stdout-only one never reached mail.
        await clock.waitForSleeper { $0 == Self.date("2026-11-24T08:20:00Z") }
        clock.advance(to: Self.date("2026-11-24T08:20:00Z"))
        _ = try await withDeadline(10, "the stdout reminder") { await host.stdout.next { $0.contains("Stdout only") } }
        #expect(!host.stdout.lines.contains { $0.contains("Zkouška") })
        let outbox = try await host.call("notifications.list", ["topic": "tasks.reminder"]).get().arrayValue ?? []
        #expect(outbox.count == 2)
        await host.stop()
        #expect(!smtp.process.output.lines.contains { $0.hasSuffix("message-2.json") }, "one mail only")
    }
}

@Suite(.stopsTestHosts) struct ReminderMailTests {
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd") && Peers.shouldRun(program: "/usr/bin/msmtp")))
    func aMailReminderGoesThroughTheSendmailPath() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let directory = TemporaryDirectory()
        let wrapper = try smtp.msmtpSendmail(in: directory)
        let clock = TestClock(now: ISO8601.date("2026-11-24T08:00:00Z")!)
        let host = try await ReminderTests.start(clock) {
            $0.notify.mail.enabled = true
            $0.notify.mail.sendmailPath = wrapper
            $0.notify.mail.from = "assistant@example.org"
            $0.notify.mail.to = ["student@example.org"]
        }
        _ = try await host.call(
            "tasks.add", ["title": "Odevzdat esej", "due": "2026-11-24 09:30", "channels": ["mail"], "reminders": [["before_min": 0]]]
        ).get()
        await clock.waitForSleeper { $0 == ISO8601.date("2026-11-24T08:30:00Z")! }
        clock.advance(to: ISO8601.date("2026-11-24T08:30:00Z")!)
        let message = try await smtp.message()
        #expect(message["rcpt_tos"] as? [String] == ["student@example.org"])
        let mail = ParsedMail(message["data"] as! String)
        #expect(mail.subject.hasSuffix("Odevzdat esej"))
        let ics = try #require(mail.parts.first { $0.type.hasPrefix("text/calendar") })
        #expect(String(decoding: ics.payload, as: UTF8.self).contains("DUE;TZID=Europe/Prague:20261124T093000\r\n"))
        await host.stop()
    }
}

@Suite(.stopsTestHosts) struct DigestTests {
    @Test func theDigestJobSendsTodaysAgendaAndTheOverdueListAtDigestAt() async throws {
        let clock = TestClock(now: ISO8601.date("2026-11-24T05:00:00Z")!)  // 06:00 in Prague
        let host = try await ReminderTests.start(clock) { $0.plugins["tasks"] = ["digest": true, "digest_at": "06:45"] }
        _ = try await host.call("tasks.add", ["title": "Seminar", "kind": "event", "start": "2026-11-24 10:00", "duration_min": 90]).get()
        _ = try await host.call("tasks.add", ["title": "Late essay", "due": "2026-11-22 12:00"]).get()
        _ = try await host.call("tasks.add", ["title": "Tomorrow", "due": "2026-11-25 12:00"]).get()
        let jobs = try await host.call("jobs.list").get().arrayValue ?? []
        #expect(jobs.first { $0["id"] == "tasks.digest" }?["schedule"] == "daily at 06:45")
        #expect(jobs.first { $0["id"] == "tasks.caldav" }?["schedule"] == "every 900 s")
        await clock.waitForSleeper { $0 == ISO8601.date("2026-11-24T05:45:00Z")! }
        clock.advance(to: ISO8601.date("2026-11-24T05:45:00Z")!)
        _ = try await withDeadline(10, "the digest") { await host.stdout.next { $0.contains("tasks.digest") } }
        let notice = try #require(try await ReminderTests.reminders(host, "tasks.digest").first)
        #expect(notice["title"] == "Agenda for 2026-11-24")
        #expect(notice["severity"] == "warning", "something is overdue")
        let body = notice["body"]?.stringValue ?? ""
        #expect(body == "Today:\n  10:00  Seminar\nOverdue:\n  Late essay (due 2026-11-22T12:00:00)", "\(body)")
        await host.stop()
    }
}

/// An import writes its tasks' reminder state in the same transaction and hands the scheduler
/// its queue after the commit: the imported reminders fire, and re-importing the same file
/// arms nothing twice.
@Suite(.stopsTestHosts) struct ImportedReminderTests {
    @Test func importedRemindersFireOnceEach() async throws {
        let clock = TestClock(now: ReminderTests.date("2026-11-24T08:00:00Z"))
        let host = try await ReminderTests.start(clock)
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for i in 1...3 {
            ics += "BEGIN:VEVENT\r\nUID:alarm-\(i)@test\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261124T09\(i)000Z\r\nDURATION:PT1H\r\n"
            ics += "SUMMARY:Imported \(i)\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:-PT30M\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        }
        ics += "END:VCALENDAR\r\n"
        let path = host.directory.write("alarms.ics", ics)
        #expect(try await host.call("tasks.import.ics", ["path": .string(path)]).get()["added"] == 3)
        #expect(try await host.call("tasks.import.ics", ["path": .string(path)]).get()["unchanged"] == 3)
        for i in 1...3 {
            let at = ReminderTests.date("2026-11-24T08:\(i)0:00Z").addingTimeInterval(-30 * 60 + 3600)
            await clock.waitForSleeper { $0 == at }
            clock.advance(to: at)
            _ = try await withDeadline(10, "reminder \(i)") { await host.stdout.next { $0.contains("Imported \(i)") } }
        }
        #expect(try await ReminderTests.reminders(host).count == 3, "each fired once")
        await host.stop()
    }
}
