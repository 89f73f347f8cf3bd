import Foundation

/// Any JSON value. Integers are kept apart from fractional numbers so that ids, counts and
/// minutes round-trip exactly and a validator can tell `3` from `3.5`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// A count (an `Int`) as a JSON number.
    public static func count(_ i: Int) -> JSONValue { .int(Int64(i)) }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue {
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var intValue: Int64? { if case .int(let i) = self { i } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The JSON type name used in error messages ("expected a string, got an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue {
    /// Compact, key-sorted encoding: never contains a raw newline, so one value fits one line.
    /// Non-finite doubles become null.
    public func encoded() -> Data { Data(encodedBytes()) }

    public func encodedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        JSONWriter.write(self, into: &out)
        return out
    }

    public func encodedString() -> String { String(decoding: encodedBytes(), as: UTF8.self) }

    /// The encoding with every string and key scrubbed and every credential member's string
    /// replaced as it is written: the same bytes as encoding the value redacted first.
    public func encodedBytes(scrubbing scrubber: some JSONScrubber) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        JSONWriter.write(self, into: &out, scrubber: scrubber)
        return out
    }

    /// A JSON-RPC response, `{"id":…,"jsonrpc":"2.0","result":…}` (or `"error"`), written from its
    /// parts: the same bytes as encoding the envelope object, keys sorted, without building it.
    public static func responseBytes(id: JSONValue, result: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.write(id, into: &out)
        out.append(contentsOf: #","jsonrpc":"2.0","result":"#.utf8)
        JSONWriter.write(result, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The same, with the result scrubbed as it is written (see `JSONScrubber`).
    public static func responseBytes(id: JSONValue, result: JSONValue, scrubbing scrubber: some JSONScrubber) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.write(id, into: &out)
        out.append(contentsOf: #","jsonrpc":"2.0","result":"#.utf8)
        JSONWriter.write(result, into: &out, scrubber: scrubber)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The same around a result encoded before (a document that never changes).
    public static func responseBytes(id: JSONValue, encodedResult: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encodedResult.count + 48)
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.write(id, into: &out)
        out.append(contentsOf: #","jsonrpc":"2.0","result":"#.utf8)
        out.append(contentsOf: encodedResult)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// "error" sorts before "id".
    public static func responseBytes(id: JSONValue, error: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        out.append(contentsOf: #"{"error":"#.utf8)
        JSONWriter.write(error, into: &out)
        out.append(contentsOf: #","id":"#.utf8)
        JSONWriter.write(id, into: &out)
        out.append(contentsOf: #","jsonrpc":"2.0"}"#.utf8)
        return out
    }

    public static func decode(_ data: Data) throws -> JSONValue {
        try JSONParser.parse(data)
    }

    public static func decode(bytes: some Collection<UInt8>) throws -> JSONValue {
        try JSONParser.parse(bytes)
    }

    public static func decode(_ text: String) throws -> JSONValue { try decode(Data(text.utf8)) }

    /// `decode(bytes:)` with its failure typed, for callers that report why (the offset and reason).
    public static func parse(bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes)
    }

    /// Converts any Encodable into a JSONValue (used by plugins to return their records).
    public init<T: Encodable>(encoding value: T) throws {
        self = try JSONParser.parse(JSONCoding.encoder.encode(value))
    }

    /// Decodes this value into a Decodable type.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        try JSONCoding.decoder.decode(T.self, from: encoded())
    }
}

public enum JSONCoding {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    public static let decoder = JSONDecoder()
}
