import Logging
import NIOConcurrencyHelpers

/// A log handler that scrubs known secrets from every message and metadata value, at every
/// level, before the wrapped handler writes it. Its level follows a shared box so SIGHUP can
/// change it for every logger at once.
public struct RedactingLogHandler: LogHandler {
    public static let level = NIOLockedValueBox<Logger.Level>(.info)

    private var inner: any LogHandler
    private let redactor: SecretRedactor

    public init(wrapping inner: any LogHandler, redactor: SecretRedactor = .shared) {
        self.inner = inner
        self.redactor = redactor
    }

    public var logLevel: Logger.Level {
        get { Self.level.withLockedValue { $0 } }
        set { Self.level.withLockedValue { $0 = newValue } }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(redactor.redactForLog(event.message.description))"
        if let metadata = event.metadata {
            event.metadata = metadata.mapValues { redact($0) }
        }
        var copy = inner
        copy.logLevel = .trace  // the level was already checked against ours
        copy.log(event: event)
    }

    private func redact(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let s): .string(redactor.redactForLog(s))
        case .stringConvertible(let c): .string(redactor.redactForLog(c.description))
        case .array(let items): .array(items.map(redact))
        case .dictionary(let d): .dictionary(d.mapValues(redact))
        }
    }
}
