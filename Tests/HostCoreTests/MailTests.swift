import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct MailTests {
    /// A sendmail stand-in that keeps its arguments and the message it was given.
    func capturingSendmail(_ directory: TemporaryDirectory, exitCode: Int = 0) -> String {
        let script = directory.write(
            "sendmail",
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(directory.file("args"))\ncat > \(directory.file("message.tmp"))\n[ \(exitCode) = 0 ] && mv "
                + "\(directory.file("message.tmp")) \(directory.file("message"))\nexit \(exitCode)\n",
            mode: 0o700)
        return script
    }

    @Test func sendmailGetsAProperMIMEMessage() async throws {
        let directory = TemporaryDirectory()
        let sendmail = capturingSendmail(directory)
        let attachment = directory.write("report.pdf", "%PDF-1.4 fake pdf bytes")
        let host = try await TestHost.started(directory: directory) {
            $0.notify.mail.enabled = true
            $0.notify.mail.sendmailPath = sendmail
            $0.notify.mail.from = "assistant@example.org"
            $0.notify.mail.to = ["pilot@example.org"]
            $0.notify.mail.route = NoticeRoute(topics: [], minimumSeverity: .warning)
        }
        _ = try await host.call(
            "notifications.send",
            [
                "title": "Medical expires in 30 days — Žluťoučký kůň", "body": "Line one\nLine two with ünïcode",
                "severity": "warning", "attachments": [.string(attachment)],
            ]
        ).get()
        try await waitForFile(directory.file("message"))
        await host.stop()
        let args = try String(contentsOfFile: directory.file("args"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(args == ["-t", "-i", "-f", "assistant@example.org"])
        let mail = ParsedMail(try String(contentsOfFile: directory.file("message"), encoding: .utf8))
        #expect(mail.headers["to"] == "pilot@example.org")
        #expect(mail.headers["from"]?.hasSuffix("<assistant@example.org>") == true)
        #expect(mail.headers["auto-submitted"] == "auto-generated")
        #expect(mail.headers["mime-version"] == "1.0")
        let dateFormat = DateFormatter()
        dateFormat.locale = Locale(identifier: "en_US_POSIX")
        dateFormat.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let sent = try #require(mail.headers["date"].flatMap(dateFormat.date(from:)), "an RFC 5322 date: \(mail.headers["date"] ?? "none")")
        #expect(abs(sent.timeIntervalSinceNow) < 300, "written just now: \(sent)")
        #expect(mail.headers["message-id"]?.hasPrefix("<") == true)
        #expect(mail.headers["subject"]?.allSatisfy(\.isASCII) == true, "the subject is RFC 2047 encoded")
        #expect(mail.subject.hasSuffix("Medical expires in 30 days — Žluťoučký kůň"))
        let parts = mail.parts
        #expect(parts.count == 2)
        #expect(parts[0].type == "text/plain; charset=utf-8")
        #expect(String(decoding: parts[0].payload, as: UTF8.self).contains("Line two with ünïcode"))
        #expect(parts[1].type == "application/pdf")
        #expect(parts[1].disposition == "attachment; filename=\"report.pdf\"")
        #expect(parts[1].payload == Data("%PDF-1.4 fake pdf bytes".utf8))
    }

    @Test func belowTheMailSeverityNothingIsMailedButDirectMailIs() async throws {
        let directory = TemporaryDirectory()
        let sendmail = capturingSendmail(directory)
        let host = try await TestHost.started(directory: directory) {
            $0.notify.mail.enabled = true
            $0.notify.mail.sendmailPath = sendmail
            $0.notify.mail.to = ["routed@example.org"]
        }
        _ = try await host.call("notifications.send", ["title": "info only", "body": ""]).get()
        _ = try await host.call("notifications.send", ["title": "direct", "body": "x", "to": "someone@example.org"]).get()
        try await waitForFile(directory.file("message"))
        let header = try await host.call("notifications.send", ["title": "x", "body": "", "to": "a@b.c\r\nBcc: evil@example.org"])
        await host.stop()
        let mail = ParsedMail(try String(contentsOfFile: directory.file("message"), encoding: .utf8))
        #expect(mail.headers["to"] == "someone@example.org")
        #expect(mail.subject.hasSuffix("direct"))
        guard case .failure(let error) = header else {
            Issue.record("header injection accepted")
            return
        }
        #expect(error.data?["param"] == "to")
    }

    @Test func aFailingSendmailIsAnErrorWithItsStatusAndOutput() async throws {
        let directory = TemporaryDirectory()
        let script = directory.write("sendmail", "#!/bin/sh\ncat >/dev/null\necho 'queue full' >&2\nexit 75\n", mode: 0o700)
        await #expect {
            try await SendmailTransport(path: script).send(Data("Subject: x\r\n\r\nx\r\n".utf8), from: "a@example.org", to: ["b@example.org"])
        } throws: { error in
            "\(error)".contains("status 75") && "\(error)".contains("queue full")
        }
        await #expect(throws: MailError.self) {
            try await SendmailTransport(path: directory.file("missing")).send(Data(), from: "a@example.org", to: ["b@example.org"])
        }
    }

    /// A sendmail that writes a megabyte to stderr and to stdout before it reads its input: the
    /// pipes are read while it runs, so it neither blocks nor is cut off, and a failure keeps only
    /// the end of what it said.
    @Test func aChattySendmailNeitherBlocksNorFloodsTheError() async throws {
        let directory = TemporaryDirectory()
        let received = directory.file("received")
        let chatty = directory.write(
            "sendmail", "#!/bin/sh\nhead -c 1048576 /dev/zero | tr '\\0' e >&2\nhead -c 1048576 /dev/zero | tr '\\0' o\ncat >'\(received)'\nexit 0\n",
            mode: 0o700)
        try await SendmailTransport(path: chatty).send(Data("Subject: x\r\n\r\nbody\r\n".utf8), from: "a@example.org", to: ["b@example.org"])
        #expect(try String(contentsOfFile: received, encoding: .utf8) == "Subject: x\r\n\r\nbody\r\n")

        let failing = directory.write(
            "failing", "#!/bin/sh\ncat >/dev/null\nhead -c 300000 /dev/zero | tr '\\0' e >&2\necho 'the last words' >&2\nexit 1\n", mode: 0o700)
        await #expect {
            try await SendmailTransport(path: failing).send(Data("x".utf8), from: "a@example.org", to: ["b@example.org"])
        } throws: { error in
            let text = "\(error)"
            return text.contains("exited with status 1") && text.hasSuffix("the last words") && text.count < 4_300
        }
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd")))
    func smtpWithSTARTTLSAndAuthAgainstARealServer() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let host = try await TestHost.started { $0.sendMail(through: smtp) }
        _ = try await host.call("vault.set", ["name": "host/smtp/password", "secret": .string(smtp.password)]).get()
        let attachment = host.directory.write("a.txt", "attached text")
        _ = try await host.call(
            "notifications.send", ["title": "Über SMTP", "body": "hello", "to": "someone@example.org", "attachments": [.string(attachment)]]
        ).get()
        let message = try await smtp.message()
        #expect(message["tls"] as? Bool == true, "STARTTLS was negotiated")
        #expect(message["authenticated"] as? Bool == true, "AUTH was used")
        #expect(message["auth_login"] as? String == smtp.user)
        #expect(message["mail_from"] as? String == "assistant@example.org")
        #expect(message["rcpt_tos"] as? [String] == ["someone@example.org"])
        let mail = ParsedMail(message["data"] as! String)
        #expect(mail.subject.hasSuffix("Über SMTP"))
        #expect(mail.parts.last?.payload == Data("attached text".utf8))
        await host.stop()
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd")))
    func smtpWithImplicitTLSAndTheReport() async throws {
        let smtp = try await SMTPPeer(mode: "tls")
        defer { smtp.stop() }
        var settings = SMTPSettings()
        settings.host = "127.0.0.1"
        settings.port = smtp.port
        settings.security = "tls"
        settings.username = smtp.user
        settings.caFile = smtp.certificate
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let vault = try Vault(
            pool: store.pool, source: .keyFile(path: directory.file("k"), createIfMissing: true), redactor: SecretRedactor(), clock: SystemClock())
        try await vault.set("host/smtp/password", secret: smtp.password)
        let transport = SMTPTransport(settings: settings, vault: vault)
        let report = try await transport.sendReporting(Data("Subject: t\r\n\r\n.leading dot\r\n".utf8), from: "a@example.org", to: ["b@example.org"])
        #expect(report == SMTPSessionReport(tls: true, authMechanism: "PLAIN"))
        let message = try await smtp.message()
        #expect(message["tls"] as? Bool == true)
        #expect((message["data"] as? String)?.contains("\n.leading dot") == true, "dot-stuffing round-trips")
    }

    /// Lines a server sends after its 220 to STARTTLS, in the same write, would be read as replies
    /// from inside TLS (CVE-2011-0411's class): the session stops there, and no TLS, credentials
    /// or mail follow.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "socket")))
    func plaintextInjectedAfterSTARTTLSIsRefused() async throws {
        let server = try PeerProcess(Peers.python, [Peers.script("smtp_inject.py")])
        defer { server.stop() }
        let port = try await server.announcedPort("the injecting SMTP server")
        var settings = SMTPSettings()
        settings.host = "127.0.0.1"
        settings.port = port
        settings.timeoutSeconds = 10
        await #expect {
            try await SMTPTransport(settings: settings, vault: nil).send(
                Data("Subject: x\r\n\r\nx\r\n".utf8), from: "a@example.org", to: ["b@example.org"])
        } throws: { error in
            "\(error)".contains("127.0.0.1 sent more after its 220 to STARTTLS, before TLS began; refusing to go on (injected plaintext)")
        }
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd")))
    func smtpRefusesAnUntrustedCertificateAndAWrongPassword() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let vault = try Vault(
            pool: store.pool, source: .keyFile(path: directory.file("k"), createIfMissing: true), redactor: SecretRedactor(), clock: SystemClock())
        var settings = SMTPSettings()
        settings.host = "127.0.0.1"
        settings.port = smtp.port
        settings.username = smtp.user
        settings.timeoutSeconds = 10
        try await vault.set("host/smtp/password", secret: smtp.password)
        // No ca_file: the self-signed certificate is not trusted, and the password is never sent.
        await #expect {
            try await SMTPTransport(settings: settings, vault: vault).send(
                Data("Subject: x\r\n\r\nx\r\n".utf8), from: "a@example.org", to: ["b@example.org"])
        } throws: { error in
            !"\(error)".contains("timed out")
        }
        settings.caFile = smtp.certificate
        try await vault.set("host/smtp/password", secret: "wrong")
        await #expect {
            try await SMTPTransport(settings: settings, vault: vault).send(
                Data("Subject: x\r\n\r\nx\r\n".utf8), from: "a@example.org", to: ["b@example.org"])
        } throws: { error in
            "\(error)".contains("535")
        }
    }

    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd") && Peers.shouldRun(program: "/usr/bin/msmtp")))
    func realSendmailMsmtpRelaysToTheSMTPServer() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let directory = TemporaryDirectory()
        let wrapper = try smtp.msmtpSendmail(in: directory)
        let host = try await TestHost.started(directory: directory) {
            $0.notify.mail.enabled = true
            $0.notify.mail.sendmailPath = wrapper
            $0.notify.mail.from = "assistant@example.org"
            $0.notify.mail.to = ["pilot@example.org"]
        }
        _ = try await host.call("notifications.send", ["title": "via msmtp", "body": "relayed", "severity": "error"]).get()
        let message = try await smtp.message()
        #expect(message["tls"] as? Bool == true)
        #expect(message["authenticated"] as? Bool == true)
        #expect(message["rcpt_tos"] as? [String] == ["pilot@example.org"])
        #expect(ParsedMail(message["data"] as! String).subject.hasSuffix("via msmtp"))
        await host.stop()
    }

    /// Swift reads "\r\n" as one Character: an address check by Character let
    /// `a@b.c\r\nBcc:evil@…` through. Every control character, by scalar, is refused.
    @Test func anAddressWithALineBreakOrControlCharacterIsRefused() {
        for hostile in [
            "a@b.c\r\nBcc:evil@example.org", "a@b.c\nBcc:evil@example.org", "a@b.c\rBcc:evil@example.org", "a@b.c\u{0}",
            "a@b.c\u{85}Bcc:evil@example.org", "a@b.c\u{2028}Bcc:evil@example.org", "a@b.c\tx", "-oQ/tmp/x@example.org",
            "a@b.c,evil@example.org", "Name <a@b.c>", "a@@b.c", "@b.c", "a@", String(repeating: "a", count: 250) + "@b.cz",
        ] {
            #expect(!MailAddress.isValid(hostile), "accepted \(hostile.debugDescription)")
        }
        for fine in ["pilot@example.org", "root@localhost", "jan.novák@zcu.cz", "a+tag@b.c"] {
            #expect(MailAddress.isValid(fine), "refused \(fine)")
        }
    }

    /// Through a real SMTP server, directly and through msmtp: an address that hides a second
    /// recipient or header is refused before anything is sent, and a title that hides one stays
    /// inside the subject. The one message that arrives has its one recipient and no Bcc.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "aiosmtpd") && Peers.shouldRun(program: "/usr/bin/msmtp")))
    func noInjectedRecipientOrHeaderReachesTheServer() async throws {
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let directory = TemporaryDirectory()
        let wrapper = try smtp.msmtpSendmail(in: directory)
        let direct = try await TestHost.started { $0.sendMail(through: smtp) }
        _ = try await direct.call("vault.set", ["name": "host/smtp/password", "secret": .string(smtp.password)]).get()
        let relayed = try await TestHost.started(directory: directory) {
            $0.notify.mail.enabled = true
            $0.notify.mail.sendmailPath = wrapper
            $0.notify.mail.from = "assistant@example.org"
        }
        for host in [direct, relayed] {
            for hostile in ["someone@example.org\r\nBcc:evil@example.org", "someone@example.org\nBcc:evil@example.org"] {
                let refused = try await host.call("notifications.send", ["title": "x", "body": "", "to": .string(hostile)])
                guard case .failure(let error) = refused else {
                    Issue.record("\(hostile.debugDescription) was accepted")
                    continue
                }
                #expect(error.data?["param"] == "to")
            }
            _ = try await host.call(
                "notifications.send", ["title": "Hi\r\nBcc: evil@example.org\r\nX-Evil: 1", "body": "b", "to": "someone@example.org"]
            ).get()
            let message = try await smtp.message()
            #expect(message["rcpt_tos"] as? [String] == ["someone@example.org"])
            let data = try #require(message["data"] as? String)
            let headers = data.components(separatedBy: "\r\n\r\n").first ?? data
            let names = headers.components(separatedBy: "\r\n").compactMap { $0.split(separator: ":").first.map { $0.lowercased() } }
            #expect(!names.contains("bcc") && !names.contains("x-evil"), "\(headers)")
            #expect(ParsedMail(data).subject.hasSuffix("Hi  Bcc: evil@example.org  X-Evil: 1"))
            await host.stop()
        }
    }

    func waitForFile(_ path: String) async throws {
        try await withDeadline(20, "waiting for \(path)") {
            // The stand-in renames a finished file into place, so existence means complete.
            while !FileManager.default.fileExists(atPath: path) {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }
}
