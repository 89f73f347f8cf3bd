extension KeyedEncodingContainer {
    /// A missing optional as an explicit `null`: result contracts that list a member always
    /// (`"name": null`) rather than leaving it out, as `encodeIfPresent` would.
    public mutating func encodeOrNull<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
