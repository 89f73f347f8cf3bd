import Foundation

/// A member that reads itself from the JSON value of its key, nil when the key is missing (a
/// field wrapper such as Stag's `@StagText`): `JSONTreeDecoder` hands it the value directly,
/// with no decoder in between, as one dynamic check per member.
public protocol JSONTreeField: Decodable {
    init(tree value: JSONValue?)
}

extension JSONTreeField {
    /// Through another decoder (not how rows are read): the member's value as JSON, or nil.
    public init(from decoder: any Decoder) throws {
        self.init(tree: (decoder as? JSONTreeDecoder)?.value ?? (try? JSONValue(from: decoder)))
    }
}

/// Decodes a `Decodable` straight from a parsed `JSONValue` (an upstream's answer, already read
/// within the parser's limits). Written by hand because Foundation's `JSONDecoder` reads only
/// bytes: encoding each STAG answer again to decode it, with every field read as a `JSONValue` by
/// trial and error, made `stag.timetable` for a semester 9 ms slower (StagBench). It serves
/// what upstream rows use: keyed objects whose members read themselves from `value` (a field
/// wrapper, as Stag's `StagField`), plain strings, booleans and numbers (`Int`, `Int64`,
/// `Double`), and a list as `[JSONValue]` or `JSONValue`; any other shape is a `DecodingError`.
public struct JSONTreeDecoder: Decoder {
    public let value: JSONValue
    public var codingPath: [any CodingKey]
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    public init(value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(ObjectContainer(object: object, codingPath: codingPath))
    }

    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [JSONValue].self, .init(codingPath: codingPath, debugDescription: "a list is read as [JSONValue] (JSONTreeDecoder)"))
    }

    public func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(decoder: self) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value)"))
    }

    /// `T` read from this value: a JSON value or list as it is, a field by its own reading, a
    /// plain value when the JSON has that type.
    public func read<T: Decodable>(_ type: T.Type) throws -> T {
        if let same = value as? T { return same }
        if T.self == [JSONValue].self {
            guard case .array(let list) = value else { throw mismatch(type) }
            return list as! T
        }
        switch value {
        case .string(let s): if let t = s as? T { return t }
        case .bool(let b): if let t = b as? T { return t }
        case .int(let i):
            if let t = i as? T { return t }
            if T.self == Int.self { return Int(i) as! T }
            if T.self == Double.self { return Double(i) as! T }
        case .double(let d): if let t = d as? T { return t }
        default: break
        }
        // A plain value of another JSON type is a mismatch (its own init would ask again);
        // anything else decodes itself (a field, a nested row) through this decoder.
        if T.self is any BinaryInteger.Type || T.self is any BinaryFloatingPoint.Type || T.self == String.self || T.self == Bool.self {
            throw mismatch(type)
        }
        return try T(from: self)
    }

    struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: [String: JSONValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if let field = T.self as? any JSONTreeField.Type { return field.init(tree: object[key.stringValue]) as! T }
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no \(key.stringValue)"))
            }
            return try JSONTreeDecoder(value: value, codingPath: codingPath + [key]).read(type)
        }

        /// One lookup for a field (it reads a missing or null member itself), three otherwise.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            if let field = T.self as? any JSONTreeField.Type { return field.init(tree: object[key.stringValue]) as? T }
            guard let value = object[key.stringValue], value != .null else { return nil }
            return try JSONTreeDecoder(value: value, codingPath: codingPath + [key]).read(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try JSONTreeDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONTreeDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { JSONTreeDecoder(value: .object(object), codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONTreeDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct SingleValue: SingleValueDecodingContainer {
        let decoder: JSONTreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        func decodeNil() -> Bool { decoder.value == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.read(type) }
    }
}

extension JSONTreeDecoder {
    /// One upstream object read as a row type; nil when it is not an object or does not decode
    /// (a row that cannot be read is left out, never a crash).
    public static func row<Row: Decodable>(_ value: JSONValue?, as type: Row.Type) -> Row? {
        guard let value, value.objectValue != nil else { return nil }
        return try? Row(from: JSONTreeDecoder(value: value))
    }

    /// Each upstream value that is an object and decodes, as a row type; the others left out.
    public static func rows<Row: Decodable>(_ values: [JSONValue], as type: Row.Type) -> [Row] {
        values.compactMap { row($0, as: type) }
    }
}
