import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// `stag.students.mail` through the host's mail to a real SMTP server (aiosmtpd, reached by
/// msmtp as sendmail): the students in the envelope only, no address of theirs in the message,
/// a dry run by default, and refusals that send nothing.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)), .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct StudentsMailTests {
    static let students = [
        "cibulka@students.zcu.cz", "cechova@students.zcu.cz", "hruby@students.zcu.cz", "chalupa@students.zcu.cz", "reznickova@students.zcu.cz",
    ]

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd") && Peers.shouldRun(program: "/usr/bin/msmtp")))
    func theClassGetsItInBccAfterADryRun() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let wrapperDirectory = TemporaryDirectory()
        let wrapper = try smtp.msmtpSendmail(in: wrapperDirectory)
        let bench = try await StagBench.start {
            $0.notify.mail.enabled = true
            $0.notify.mail.sendmailPath = wrapper
            $0.notify.mail.from = "assistant@example.org"
            $0.notify.mail.to = ["owner@example.org"]
        }
        try await bench.fake.loadFixture()
        try await bench.login(user: "dual")
        let mail: JSONValue = ["action_id": 700001, "subject": "Room change", "body": "We meet in PR-102 on Wednesday.\nJUDr. Dvořák"]

        // The default is a dry run: who would get it, in Czech order, and who has no e-mail.
        let dry = try await bench.host.call("stag.students.mail", mail).get()
        #expect(dry["dry_run"] == true)
        #expect(dry["to"] == "dvorakp@fpr.zcu.cz", "the teacher's own address in STAG")
        #expect(dry["bcc"] == .array(Self.students.map(JSONValue.string)))
        #expect(dry["without_email"] == ["Olga Rybová"])
        #expect(dry["sent"] == nil)
        #expect(try await bench.host.call("notifications.list", ["topic": "stag.students.mailed"]).get() == [])

        var send = mail.objectValue ?? [:]
        send["dry_run"] = false
        let sent = try await bench.host.call("stag.students.mail", .object(send)).get()
        #expect(sent["sent"] == 5)
        let message = try await smtp.message()
        #expect(Set(message["rcpt_tos"] as? [String] ?? []) == Set(["dvorakp@fpr.zcu.cz"] + Self.students), "everyone in the envelope")
        let data = message["data"] as? String ?? ""
        let headers = data.components(separatedBy: "\r\n\r\n").first ?? data
        #expect(!headers.lowercased().contains("bcc:"), "no Bcc header leaves the machine")
        for student in Self.students { #expect(!data.contains(student), "\(student) is seen by no one") }
        #expect(ParsedMail(data).headers["to"] == "dvorakp@fpr.zcu.cz")
        #expect(ParsedMail(data).subject.hasSuffix("Room change"))
        #expect(try await bench.host.call("notifications.list", ["topic": "stag.students.mailed"]).get().arrayValue?.count == 1)
        await bench.stop()
        _ = wrapperDirectory
    }

    @Test func refusalsSendNothing() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.loadFixture()
        try await bench.login(user: "dual")
        // Sending acts on the outside world (a dry run only lists the class), and it says so
        // where people and assistants look.
        let help = try await bench.host.call("help", ["method": "stag.students.mail"]).get()
        #expect(help["effect"] == "read" && help["effect_rule"] == "destructive with dry_run=false")
        let discovered = try await bench.host.call("rpc.discover").get()["methods"]?.arrayValue ?? []
        #expect(discovered.first { $0["name"] == "stag.students.mail" }?["x-destructive-when"] == [["param": "dry_run", "equals": false]])
        #expect(discovered.first { $0["name"] == "stag.exams.register" }?["x-effect"] == "destructive")
        let before = try await bench.fake.requests().count
        let good: [String: JSONValue] = ["action_id": 700001, "subject": "Hello", "body": "Text"]
        func with(_ changes: [String: JSONValue]) -> JSONValue { .object(good.merging(changes) { $1 }) }
        let cases: [(JSONValue, String)] = [
            (with(["subject": ""]), "subject"), (with(["subject": "Two\nlines"]), "subject"),
            (with(["subject": .string(String(repeating: "s", count: 201))]), "subject"), (with(["body": "  "]), "body"),
            (with(["body": .string(String(repeating: "b", count: 20_001))]), "body"), (with(["to": "a@b"]), "to"),
            (with(["to": "a@b.cz, c@d.cz"]), "to"), (with(["to": "-oQ/tmp/x@evil.cz"]), "to"), (with(["action_id": 0]), "action_id"),
            (with(["dry_run": "no"]), "dry_run"), (["action_id": 700001, "subject": "x"], "body"),
            // Sending needs mail, and none is configured here.
            (with(["dry_run": false]), "dry_run"),
        ]
        for (params, param) in cases {
            guard case .failure(let error) = try await bench.host.call("stag.students.mail", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.code == -32602, "\(params): \(error.message)")
            #expect(error.data?["param"] == .string(param), "\(params): \(error.message)")
        }
        #expect(try await bench.fake.requests().count == before, "nothing reached STAG")
        await bench.stop()

        // A student has no class to mail.
        let student = try await StudyTests.student()
        guard case .failure(let noRole) = try await student.host.call("stag.students.mail", .object(good)) else {
            Issue.record("a student mailed a class")
            return
        }
        #expect(noRole.code == 1303)
        await student.stop()
    }
}
