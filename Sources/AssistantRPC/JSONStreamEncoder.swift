import Foundation

/// Writes an `Encodable` value as compact JSON straight into bytes, scrubbing every string as
/// `JSONWriter` does: a command's typed result goes into the reply with no `JSONValue` tree and no
/// `Data` in between.
///
/// Written by hand because Foundation's `JSONEncoder` builds a tree of its own and then a `Data`
/// (the agenda's 20 000 rows spent more time there than in the agenda), and it cannot scrub.
/// Members are written in the order the value encodes them.
///
/// Containers are written as they are used, which is how synthesized and hand-written
/// `encode(to:)` use them: a container is closed when its parent writes its next member, or when
/// the value is done. A type that goes back to a container it left (rare, and not done by
/// synthesized code) is refused with `EncodingError.invalidValue`.
public enum JSONStreamEncoder {
    public static func write<Value: Encodable, Scrubber: JSONScrubber>(
        _ value: Value, into out: inout [UInt8], scrubber: Scrubber
    ) throws {
        // The scrubber is boxed once per value: a writer generic over it made every container
        // generic too, and their metadata lookups were a tenth of a large reply (perf).
        let writer = StreamWriter(scrubber: scrubber, bytes: out)
        out = []
        defer { out = writer.bytes }
        try writer.value(value, depth: 0, key: nil, credential: false)
        writer.close(above: 0)
    }

    /// `value` as bytes, unscrubbed (for a value read back in a test or a batch).
    public static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        var out: [UInt8] = []
        try write(value, into: &out, scrubber: JSONWriter.NoScrubbing())
        return out
    }

}

/// The bytes and the containers open now, innermost last.
final class StreamWriter {
    struct Frame {
        var closer: UInt8
        /// Which container this is: a container left and then replaced at its depth is not it.
        var serial: Int
        var members = 0
    }

    // Only this writer's containers touch these, one call at a time: the dynamic exclusivity
    // checks on every byte appended showed in perf.
    @exclusivity(unchecked) var bytes: [UInt8]
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) var opened = 0
    /// The keys last written at each depth, by position, as written (scrubbed, escaped, quoted,
    /// with the colon) and whether each names a credential. A list's rows write the same keys in
    /// the same order, so the next row finds each key where the last one left it, by a string
    /// comparison that is one word for a literal: scanning each key again cost a third of a large
    /// reply, and hashing it a tenth.
    struct WrittenKey {
        var key: String
        var written: [UInt8]
        var credential: Bool
    }
    @exclusivity(unchecked) var layouts: [[WrittenKey]] = []
    let scrubber: any JSONScrubber

    init(scrubber: any JSONScrubber, bytes: [UInt8]) {
        self.scrubber = scrubber
        self.bytes = bytes
    }

    /// Closes the containers opened below `depth` (a member's own, once the next member begins).
    func close(above depth: Int) {
        while frames.count > depth { bytes.append(frames.removeLast().closer) }
    }

    /// The container at `depth` is still open (it was not left for a sibling's), and it is
    /// `serial` (nil for a single value, which has no frame of its own). The coding path is
    /// built only for the error.
    func check(_ depth: Int, serial: Int?, _ path: @autoclosure () -> [any CodingKey]) throws {
        guard frames.count >= depth, serial.map({ frames[depth - 1].serial == $0 }) ?? true else {
            throw EncodingError.invalidValue(
                "", .init(codingPath: path(), debugDescription: "a container was used after a later member began (JSONStreamEncoder writes in order)")
            )
        }
        if frames.count > depth { close(above: depth) }
    }

    /// The separator and key before a member of the container at `depth` (which is open);
    /// whether the key names a credential.
    @discardableResult
    func beginMember(_ depth: Int, key: String?) -> Bool {
        if frames[depth - 1].members > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[depth - 1].members += 1
        guard let key else { return false }
        let position = frames[depth - 1].members - 1
        if depth <= layouts.count, position < layouts[depth - 1].count, layouts[depth - 1][position].key == key {
            bytes.append(contentsOf: layouts[depth - 1][position].written)
            return layouts[depth - 1][position].credential
        }
        var written: [UInt8] = []
        let credential = scrubber.writeKey(key, into: &written)
        bytes.append(contentsOf: written)
        // Bounded: an object with thousands of members (a dictionary's keys are data) is not kept.
        guard position < 64 else { return credential }
        while layouts.count < depth { layouts.append([]) }
        if position < layouts[depth - 1].count {
            layouts[depth - 1][position] = WrittenKey(key: key, written: written, credential: credential)
        } else if position == layouts[depth - 1].count {
            layouts[depth - 1].append(WrittenKey(key: key, written: written, credential: credential))
        }
        return credential
    }

    /// Opens a container and returns its serial.
    func open(_ opener: UInt8, _ closer: UInt8) -> Int {
        bytes.append(opener)
        opened += 1
        frames.append(Frame(closer: closer, serial: opened))
        return opened
    }

    /// A credential member's non-empty string is written as the placeholder.
    func string(_ s: String, credential: Bool) {
        scrubber.writeString(s, credential: credential, into: &bytes)
    }

    func double(_ d: Double) {
        if d.isFinite {
            if d == d.rounded(), abs(d) < 1e15 { JSONWriter.writeInteger(Int64(d), into: &bytes) } else { bytes.append(contentsOf: "\(d)".utf8) }
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// Any value, its container (if it opens one) at `depth + 1`. The common leaf types are
    /// written directly; a value that encodes nothing is written as `{}`, as `JSONEncoder` does.
    func value<T: Encodable>(
        _ value: T, depth: Int, key: String?, credential: Bool, path: @autoclosure () -> [any CodingKey] = []
    ) throws {
        switch value {
        case let s as String: string(s, credential: credential)
        case let i as Int: JSONWriter.writeInteger(Int64(i), into: &bytes)
        case let i as Int64: JSONWriter.writeInteger(i, into: &bytes)
        case let b as Bool: bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case let d as Double: double(d)
        case let j as JSONValue: JSONWriter.write(j, into: &bytes, scrubber: scrubber)
        // Every other number here: the containers' defaults for them come back through this
        // function, and their own `encode(to:)` would ask a container again.
        case let i as any BinaryInteger: bytes.append(contentsOf: "\(i)".utf8)
        case let f as Float: double(Double(f))
        default:
            let before = bytes.count
            let encoder = StreamEncoder(
                writer: self, depth: depth, key: key, credential: credential, codingPath: path())
            try value.encode(to: encoder)
            close(above: depth)
            if bytes.count == before { bytes.append(contentsOf: "{}".utf8) }
        }
    }
}

struct StreamEncoder: Encoder {
    let writer: StreamWriter
    /// How many containers are open above this value.
    let depth: Int
    /// The member's key when the value is an object's member, and whether it names a credential.
    let key: String?
    let credential: Bool
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if writer.frames.count == depth + 1, writer.frames[depth].closer == UInt8(ascii: "}") {
            // The same value asking again (a subclass and its superclass): go on in the one object.
            return KeyedEncodingContainer(
                StreamKeyedContainer(
                    writer: writer, depth: depth + 1, serial: writer.frames[depth].serial, codingPath: codingPath))
        }
        writer.close(above: depth)
        let serial = writer.open(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(
            StreamKeyedContainer(writer: writer, depth: depth + 1, serial: serial, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.close(above: depth)
        let serial = writer.open(UInt8(ascii: "["), UInt8(ascii: "]"))
        return StreamUnkeyedContainer(writer: writer, depth: depth + 1, serial: serial, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleValueContainer(writer: writer, depth: depth, key: key, credential: credential, codingPath: codingPath)
    }
}

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: StreamWriter
    /// The depth of this container's own frame (its members' containers open below it).
    let depth: Int
    let serial: Int
    let codingPath: [any CodingKey]

    /// Starts a member; whether its key names a credential.
    @discardableResult
    private func member(_ key: Key) throws -> Bool {
        try writer.check(depth, serial: serial, codingPath + [key])
        return writer.beginMember(depth, key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try member(key)
        writer.bytes.append(contentsOf: "null".utf8)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try member(key)
        writer.bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        writer.string(value, credential: try member(key))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try member(key)
        writer.double(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try member(key)
        JSONWriter.writeInteger(Int64(value), into: &writer.bytes)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try member(key)
        JSONWriter.writeInteger(value, into: &writer.bytes)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let credential = try member(key)
        try writer.value(value, depth: depth, key: key.stringValue, credential: credential, path: codingPath + [key])
    }

    // An absent optional is left out (a result object writes its nulls itself, `ResultMembers`).
    // Synthesized `encode(to:)` calls the overload for the member's type, so each is here, and
    // each present value goes to its own `encode` (the leaf types' fast paths, not the generic one).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        _ = try? member(key)
        let serial = writer.open(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(
            StreamKeyedContainer<NestedKey>(writer: writer, depth: depth + 1, serial: serial, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = try? member(key)
        let serial = writer.open(UInt8(ascii: "["), UInt8(ascii: "]"))
        return StreamUnkeyedContainer(writer: writer, depth: depth + 1, serial: serial, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let credential = (try? member(key)) ?? false
        return StreamEncoder(writer: writer, depth: depth, key: key.stringValue, credential: credential, codingPath: codingPath + [key])
    }
}

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: StreamWriter
    let depth: Int
    let serial: Int
    let codingPath: [any CodingKey]
    var count: Int { writer.frames.count >= depth ? writer.frames[depth - 1].members : 0 }

    private func element() throws {
        try writer.check(depth, serial: serial, codingPath)
        writer.beginMember(depth, key: nil)
    }

    mutating func encodeNil() throws {
        try element()
        writer.bytes.append(contentsOf: "null".utf8)
    }
    mutating func encode(_ value: String) throws {
        try element()
        writer.string(value, credential: false)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try element()
        try writer.value(value, depth: depth, key: nil, credential: false, path: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        try? element()
        let serial = writer.open(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(writer: writer, depth: depth + 1, serial: serial, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        try? element()
        let serial = writer.open(UInt8(ascii: "["), UInt8(ascii: "]"))
        return StreamUnkeyedContainer(writer: writer, depth: depth + 1, serial: serial, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        try? element()
        return StreamEncoder(writer: writer, depth: depth, key: nil, credential: false, codingPath: codingPath)
    }
}

struct StreamSingleValueContainer: SingleValueEncodingContainer {
    let writer: StreamWriter
    let depth: Int
    let key: String?
    let credential: Bool
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        try writer.check(depth, serial: nil, codingPath)
        writer.bytes.append(contentsOf: "null".utf8)
    }
    mutating func encode(_ value: String) throws {
        try writer.check(depth, serial: nil, codingPath)
        writer.string(value, credential: credential)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try writer.check(depth, serial: nil, codingPath)
        try writer.value(value, depth: depth, key: key, credential: credential, path: codingPath)
    }
}

/// What a call answers: a `JSONValue`, or a typed result that writes itself straight into the
/// reply. A typed result is an `Encodable` type that declares this conformance.
public protocol CallResult: Sendable {
    func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws
}

extension CallResult where Self: Encodable {
    public func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        try JSONStreamEncoder.write(self, into: &out, scrubber: scrubber)
    }
}

extension CallResult {
    /// The result as a value: for a batch's reply, or code that reads a result.
    public func jsonValue() throws -> JSONValue {
        if let value = self as? JSONValue { return value }
        var out: [UInt8] = []
        try writeJSON(into: &out, scrubber: JSONWriter.NoScrubbing())
        return try JSONValue.decode(bytes: out)
    }
}

extension JSONValue: CallResult {
    public func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        JSONWriter.write(self, into: &out, scrubber: scrubber)
    }
}

extension JSONValue {
    /// A response whose result writes itself (a typed result), scrubbed as it is written. A
    /// result that cannot be written is answered as an internal error.
    public static func responseBytes(id: JSONValue, result: some CallResult, scrubbing scrubber: some JSONScrubber) -> [UInt8] {
        if let value = result as? JSONValue { return responseBytes(id: id, result: value, scrubbing: scrubber) }
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.write(id, into: &out)
        out.append(contentsOf: #","jsonrpc":"2.0","result":"#.utf8)
        do {
            try result.writeJSON(into: &out, scrubber: scrubber)
        } catch {
            return responseBytes(id: id, error: RPCError.internalError("the result could not be written: \(error)").json)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}

/// A typed model that is also part of a result or a stored snapshot (an exam term, an exam
/// date): its encoding as a value, and back from one.
public protocol JSONModel: Codable, CallResult {}

extension CallResult {
    /// The value as JSON; a value of strings, numbers and booleans always encodes.
    public var json: JSONValue { (try? jsonValue()) ?? .null }
}

extension JSONModel {
    /// The model from a value its encoding made (a result, a refresh snapshot).
    public init(json: JSONValue) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(json.encodedBytes()))
    }
}
