// Test-only helpers: compiled where the Testing module exists (not in a release build against
// the static Swift runtime, where the benchmarks need none of them).
#if canImport(Testing)
    import Foundation
    import HostCore
    import Testing

    /// A cached answer is stored as its encoding and decoded back for a stale read: the value
    /// encoded, decoded and encoded again must give the same bytes, or a stale copy counts as none.
    public func expectReadsBack<Value: Codable>(_ value: Value, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try JSONStreamEncoder.encode(value)
        let again = try JSONStreamEncoder.encode(try JSONDecoder().decode(Value.self, from: Data(bytes)))
        #expect(
            String(decoding: again, as: UTF8.self) == String(decoding: bytes, as: UTF8.self), "\(what) reads back", sourceLocation: sourceLocation)
    }
#endif
