import Foundation

/// Instants as the daemon writes them everywhere (ISO 8601 text, `ISO8601.string`), for the
/// kit's models that store or return one.
extension KeyedDecodingContainer {
    /// The instant at `key`, nil when absent or null; text that is not ISO 8601 is an error
    /// naming the key.
    public func decodeInstantIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "'\(text)' is not an ISO 8601 instant")
        }
        return date
    }

    public func decodeInstant(forKey key: Key) throws -> Date {
        guard let date = try decodeInstantIfPresent(forKey: key) else {
            throw DecodingError.valueNotFound(Date.self, .init(codingPath: codingPath + [key], debugDescription: "no instant"))
        }
        return date
    }
}
