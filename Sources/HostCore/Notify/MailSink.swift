import Foundation

/// How mail leaves the machine.
public protocol MailTransport: Sendable {
    func send(_ message: Data, from: String, to: [String]) async throws
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

    public func deliver(_ notice: Notice, attachments: [OutgoingAttachment], directRecipient: String?) async throws {
        let recipients = directRecipient.map { [$0] } ?? settings.to
        guard !recipients.isEmpty else { return }
        let message = MailMessage(
            from: settings.from, to: recipients, subject: "[assistantd@\(settings.hostName)] \(notice.title)",
            body: notice.body + "\n\n-- \n\(notice.plugin) · \(notice.topic) · \(notice.severity.rawValue) · \(notice.time)\n",
            attachments: attachments, date: ISO8601.date(notice.time) ?? Date(),
            extraHeaders: [("X-Assistantd-Topic", notice.topic), ("X-Assistantd-Severity", notice.severity.rawValue)],
            messageIDDomain: settings.hostName)
        try await transport.send(message.render(), from: settings.from, to: recipients)
    }
}

public struct MailError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Hands the message to a sendmail-compatible program (`sendmail -t -i`), as cron does: the local
/// MTA's queue, retries and aliases apply, and the daemon holds no SMTP credentials.
public struct SendmailTransport: MailTransport {
    let path: String
    let arguments: [String]

    public init(path: String, arguments: [String] = ["-t", "-i"]) {
        self.path = path
        self.arguments = arguments
    }

    public func send(_ message: Data, from: String, to: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments + ["-f", from]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: MailError("cannot run \(path): \(error.localizedDescription)"))
                return
            }
            // Blocking pipe writes stay off the cooperative thread pool.
            DispatchQueue.global().async {
                try? input.fileHandleForWriting.write(contentsOf: message)
                try? input.fileHandleForWriting.close()
            }
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else {
            throw MailError("\(path) exited with status \(status): \(stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
