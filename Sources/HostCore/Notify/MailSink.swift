import Foundation
import Subprocess
import SystemPackage

/// How mail leaves the machine.
public protocol MailTransport: Sendable {
    func send(_ message: Data, from: String, to: [String]) async throws
    /// Sends to `to` and, unseen, to `blindCopies`: they are envelope recipients only, never in
    /// a header of the message (which has none for them), so no recipient sees the others.
    func send(_ message: Data, from: String, to: [String], blindCopies: [String]) async throws
}

extension MailTransport {
    /// A transport with its own envelope (SMTP's RCPT TO) sends to everyone the same message.
    public func send(_ message: Data, from: String, to: [String], blindCopies: [String]) async throws {
        try await send(message, from: from, to: to + blindCopies)
    }
}

public struct MailSettings: Sendable, Equatable {
    public var from: String
    public var to: [String]
    public var hostName: String

    public init(from: String, to: [String], hostName: String) {
        self.from = from
        self.to = to
        self.hostName = hostName
    }
}

/// Mails notices: routed ones to the configured recipients, direct ones to their own address.
public struct MailSink: NoticeSink {
    public let name = "mail"
    let settings: MailSettings
    let transport: any MailTransport

    public init(settings: MailSettings, transport: any MailTransport) {
        self.settings = settings
        self.transport = transport
    }

    public func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?, blindCopies: [String]) async throws {
        let recipients = directRecipient.map { [$0] } ?? settings.to
        let bcc = directRecipient == nil ? [] : blindCopies
        guard !recipients.isEmpty else { return }
        let message = MailMessage(
            from: settings.from, to: recipients, subject: "[assistantd@\(settings.hostName)] \(notice.title)",
            body: notice.body + "\n\n-- \n\(notice.plugin) · \(notice.topic) · \(notice.severity.rawValue) · \(notice.time)\n",
            attachments: attachments, date: ISO8601.date(notice.time) ?? Date(),
            extraHeaders: [("X-Assistantd-Topic", notice.topic), ("X-Assistantd-Severity", notice.severity.rawValue)],
            messageIDDomain: settings.hostName)
        if bcc.isEmpty {
            try await transport.send(message.render(), from: settings.from, to: recipients)
        } else {
            try await transport.send(message.render(), from: settings.from, to: recipients, blindCopies: bcc)
        }
    }
}

public struct MailError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Hands the message to a sendmail-compatible program (`sendmail -t -i`), as cron does: the local
/// MTA's queue, retries and aliases apply, and the daemon holds no SMTP credentials. The program
/// runs through swift-subprocess; its stdout and stderr are read while it runs (a chatty
/// sendmail would otherwise fill the pipe and block forever), keeping the last 4 KB of stderr for
/// the error message.
public struct SendmailTransport: MailTransport {
    let path: String
    let arguments: [String]

    public init(path: String, arguments: [String] = ["-t", "-i"]) {
        self.path = path
        self.arguments = arguments
    }

    static let stderrTail = 4096

    public func send(_ message: Data, from: String, to: [String]) async throws {
        try await run(arguments + ["-f", from], message)
    }

    /// Blind copies cannot be read from the headers (`-t`), which must not name them: the
    /// recipients are given on the command line instead, `-t` left out (MTAs disagree on what
    /// `-t` does with command-line recipients: Exim drops them), after `--` so no address is
    /// taken for an option.
    public func send(_ message: Data, from: String, to: [String], blindCopies: [String]) async throws {
        try await run(arguments.filter { $0 != "-t" } + ["-f", from, "--"] + to + blindCopies, message)
    }

    func run(_ arguments: [String], _ message: Data) async throws {
        let outcome: ExecutionResult<String, SequenceOutput, SequenceOutput>
        do {
            outcome = try await Subprocess.run(
                .path(FilePath(path)), arguments: Arguments(arguments), input: .data(message), output: .sequence, error: .sequence
            ) { execution in
                // Both streams drained while the program runs; only stderr's tail is kept.
                async let stdoutDrained: Void = { for try await _ in execution.standardOutput {} }()
                var tail: [UInt8] = []
                for try await buffer in execution.standardError {
                    buffer.withUnsafeBytes { tail.append(contentsOf: $0) }
                    if tail.count > 2 * Self.stderrTail { tail.removeFirst(tail.count - Self.stderrTail) }
                }
                try await stdoutDrained
                return String(decoding: tail.suffix(Self.stderrTail), as: UTF8.self)
            }
        } catch let error as SubprocessError {
            throw MailError("cannot run \(path): \(error)")
        }
        guard outcome.terminationStatus.isSuccess else {
            let stderr = outcome.closureResult.trimmingCharacters(in: .whitespacesAndNewlines)
            throw MailError("\(path) \(Self.describe(outcome.terminationStatus))\(stderr.isEmpty ? "" : ": \(stderr)")")
        }
    }

    static func describe(_ status: TerminationStatus) -> String {
        switch status {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was killed by signal \(signal)"
        }
    }
}
