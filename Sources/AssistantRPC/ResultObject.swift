import Foundation

/// A result type that is the only declaration of its result: its `members` list says, once per
/// field, the key, the property it is read from, and (when the property's type says too little)
/// its schema and description. The encoding and the JSON Schema both come from that list, so what
/// a command writes and what `rpc.discover` says it writes cannot drift apart.
///
///     struct Snoozed: CallResult, ResultObject {
///         let id: String
///         let remindAt: String
///
///         static let members = ResultMembers<Self>(
///             .field("id", \.id),
///             .field("remind_at", \.remindAt, .dateTime, "when the reminder comes again"))
///     }
///
/// A declaration rather than a swift-syntax macro: the macro wrote the same from the properties,
/// but swift-syntax nearly doubled the clean build (docs/performance-history.md).
public protocol ResultObject: ResultDescribing, Encodable {
    static var members: ResultMembers<Self> { get }
}

extension ResultObject {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ResultKey.self)
        try Self.members.write(self, into: &container)
    }

    public static var resultSchema: JSONSchema { members.schema }
}

/// A result object that is also read back (the offline cache stores an answer as its JSON and
/// decodes it when the upstream is down): the same members list decodes it, into an empty value
/// whose stored members are `var`s. What is stored is then exactly what was answered.
public protocol StoredResultObject: ResultObject, Decodable {
    init()
}

extension StoredResultObject {
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: ResultKey.self)
        try Self.members.read(into: &self, from: container)
    }
}

/// A result's key, as its members list spells it.
public struct ResultKey: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// The members of a result object, in the order they are written and listed.
public struct ResultMembers<Root>: Sendable {
    let fields: [ResultMember<Root>]
    let description: String?

    public init(_ fields: ResultMember<Root>..., described description: String? = nil) {
        self.fields = fields
        self.description = description
    }

    /// Each key (`key?` when it may be absent) with its schema: what `.flattened` takes in.
    var schemaMembers: [(String, JSONSchema)] { fields.flatMap(\.schemaMembers) }

    public var schema: JSONSchema {
        let object = JSONSchema.object(ordered: schemaMembers)
        return description.map(object.described) ?? object
    }

    public func write(_ value: Root, into container: inout KeyedEncodingContainer<ResultKey>) throws {
        for field in fields { try field.write(value, &container) }
    }

    /// Each stored member back from its key (a computed one has nothing to restore).
    public func read(into value: inout Root, from container: KeyedDecodingContainer<ResultKey>) throws {
        for field in fields { try field.read?(&value, container) }
    }
}

/// One member of a result object (or, flattened, another object's members).
public struct ResultMember<Root>: Sendable {
    typealias Reader = @Sendable (inout Root, KeyedDecodingContainer<ResultKey>) throws -> Void

    let schemaMembers: [(String, JSONSchema)]
    let write: @Sendable (Root, inout KeyedEncodingContainer<ResultKey>) throws -> Void
    /// Nil for a computed member, or a value that is never read back.
    var read: Reader? = nil

    /// A member whose schema is its type's; an optional one is written as `null` when missing.
    public static func field<Value: ResultDescribing & Encodable & SendableMetatype>(
        _ key: String, _ property: any KeyPath<Root, Value> & Sendable, _ description: String? = nil
    ) -> Self {
        field(key, property, Value.resultSchema, description)
    }

    /// A member whose type says too little (a string that holds a date): its schema, `null`
    /// allowed when the property is optional.
    public static func field<Value: Encodable & SendableMetatype>(
        _ key: String, _ property: any KeyPath<Root, Value> & Sendable, _ schema: JSONSchema, _ description: String? = nil
    ) -> Self {
        let declared = Value.self is any OptionalMember.Type ? schema.nullable : schema
        return ResultMember(
            schemaMembers: [(key, described(declared, description))],
            write: writer(key, property), read: reader(property, key, decoding(Value.self, key)))
    }

    /// An optional member left out when missing, rather than written as `null` (`key?`). `Int??`
    /// is "absent, or present and null".
    public static func omittedWhenNil<Wrapped: ResultDescribing & Encodable & SendableMetatype>(
        _ key: String, _ property: any KeyPath<Root, Wrapped?> & Sendable, _ description: String? = nil
    ) -> Self {
        omittedWhenNil(key, property, Wrapped.resultSchema, description)
    }

    /// The same with a schema of its own.
    public static func omittedWhenNil<Wrapped: Encodable & SendableMetatype>(
        _ key: String, _ property: any KeyPath<Root, Wrapped?> & Sendable, _ schema: JSONSchema, _ description: String? = nil
    ) -> Self {
        let member = ResultKey(stringValue: key)
        return ResultMember(
            schemaMembers: [(key + "?", described(schema, description))],
            write: { value, container in try container.encodeIfPresent(value[keyPath: property], forKey: member) },
            // Present is `.some`, even when null: `Int??` read back as "present and null".
            read: reader(property, present: key, decoding(Wrapped.self, key)))
    }

    /// An instant, written as ISO 8601 text (`ISO8601.string`); text that is not one does not
    /// read back (an error naming the key).
    public static func instant(_ key: String, _ property: any KeyPath<Root, Date> & Sendable, _ description: String? = nil) -> Self {
        let member = ResultKey(stringValue: key)
        return ResultMember(
            schemaMembers: [(key, described(.dateTime, description))],
            write: { value, container in try container.encode(ISO8601.string(value[keyPath: property]), forKey: member) },
            read: reader(property, key, Decoding { try instant(member, $0) }))
    }

    /// The same for an instant that may be missing, written as `null`.
    public static func instant(_ key: String, _ property: any KeyPath<Root, Date?> & Sendable, _ description: String? = nil) -> Self {
        let member = ResultKey(stringValue: key)
        return ResultMember(
            schemaMembers: [(key, described(JSONSchema.dateTime.nullable, description))],
            write: { value, container in try container.encode(value[keyPath: property].map(ISO8601.string), forKey: member) },
            read: reader(
                property, key,
                Decoding { container in
                    let present = container.contains(member) ? try !container.decodeNil(forKey: member) : false
                    return present ? try instant(member, container) : nil
                }))
    }

    private static func instant(_ member: ResultKey, _ container: KeyedDecodingContainer<ResultKey>) throws -> Date {
        let text = try container.decode(String.self, forKey: member)
        guard let date = ISO8601.date(text) else {
            // Says the key, not the text: a stored copy's content stays out of errors and logs.
            throw DecodingError.dataCorruptedError(
                forKey: member, in: container, debugDescription: "\(member.stringValue) is not an ISO 8601 instant")
        }
        return date
    }

    /// Another result object's members, written into this one (a group of fields shared by
    /// several results).
    public static func flattened<Value: ResultObject & SendableMetatype>(_ property: any KeyPath<Root, Value> & Sendable) -> Self {
        var read = unreadable(property, "the members flattened from \(Value.self)")
        if let writable = writable(property) {
            read = { value, container in try Value.members.read(into: &value[keyPath: writable.path], from: container) }
        }
        return ResultMember(
            schemaMembers: Value.members.schemaMembers,
            write: { value, container in try Value.members.write(value[keyPath: property], into: &container) }, read: read)
    }

    /// A computed member has nothing to restore (nil); a stored `let` would be silently left as
    /// `init()` made it, so reading one back fails, naming it: a stored result object's members
    /// are `var`s.
    private static func unreadable(_ property: PartialKeyPath<Root>, _ member: String) -> Reader? {
        guard MemoryLayout<Root>.offset(of: property) != nil else { return nil }
        return { _, container in
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: "\(member) is a stored let and cannot be read back; declare it var"))
        }
    }

    /// The same key path, writable, when the member is stored.
    private static func writable<Value>(_ property: any KeyPath<Root, Value> & Sendable) -> WritablePath<Value>? {
        (property as? WritableKeyPath<Root, Value>).map(WritablePath.init)
    }

    /// A downcast of a Sendable key path: the cast cannot say `& Sendable` (a marker protocol), but
    /// it is the same immutable object the caller gave as Sendable.
    private struct WritablePath<Value>: @unchecked Sendable {
        let path: WritableKeyPath<Root, Value>
    }

    /// Writes what `decoding` reads into a stored (writable) property; nil for a computed one.
    private static func reader<Value>(_ property: any KeyPath<Root, Value> & Sendable, _ key: String, _ decoding: Decoding<Value>) -> Reader? {
        guard let writable = writable(property) else { return unreadable(property, key) }
        return { value, container in value[keyPath: writable.path] = try decoding.read(container) }
    }

    /// The same for a member left out when nil: present is `.some`, even when null (`Int??` read
    /// back as "present and null").
    private static func reader<Wrapped>(
        _ property: any KeyPath<Root, Wrapped?> & Sendable, present key: String, _ decoding: Decoding<Wrapped>
    ) -> Reader? {
        guard let writable = writable(property) else { return unreadable(property, key) }
        let member = ResultKey(stringValue: key)
        return { value, container in value[keyPath: writable.path] = container.contains(member) ? .some(try decoding.read(container)) : nil }
    }

    typealias Writer = @Sendable (Root, inout KeyedEncodingContainer<ResultKey>) throws -> Void

    /// How a member is written, worked out once per member: the leaf types go to the container's
    /// own overloads, as synthesized `encode(to:)` does, rather than through its generic path
    /// (which asks the value's type again for every row; `result-bench` measures the difference).
    private static func writer<Value: Encodable & SendableMetatype>(_ key: String, _ property: any KeyPath<Root, Value> & Sendable) -> Writer {
        let member = ResultKey(stringValue: key)
        func leaf<Leaf>(_ type: Leaf.Type, _ write: @escaping (inout KeyedEncodingContainer<ResultKey>, Leaf) throws -> Void) -> Writer? {
            guard let path = property as? KeyPath<Root, Leaf> else { return nil }
            let fixed = Fixed(path: path, write: write)
            return { value, container in try fixed.write(&container, value[keyPath: fixed.path]) }
        }
        func optional<Leaf>(_ type: Leaf.Type, _ write: @escaping (inout KeyedEncodingContainer<ResultKey>, Leaf) throws -> Void) -> Writer? {
            leaf(Leaf?.self) { container, value in
                if let value { try write(&container, value) } else { try container.encodeNil(forKey: member) }
            }
        }
        return leaf(String.self) { try $0.encode($1, forKey: member) } ?? optional(String.self) { try $0.encode($1, forKey: member) }
            ?? leaf(Int64.self) { try $0.encode($1, forKey: member) } ?? optional(Int64.self) { try $0.encode($1, forKey: member) }
            ?? leaf(Int.self) { try $0.encode($1, forKey: member) } ?? optional(Int.self) { try $0.encode($1, forKey: member) }
            ?? leaf(Bool.self) { try $0.encode($1, forKey: member) } ?? optional(Bool.self) { try $0.encode($1, forKey: member) }
            ?? leaf(Double.self) { try $0.encode($1, forKey: member) } ?? optional(Double.self) { try $0.encode($1, forKey: member) }
            ?? { value, container in try container.encode(value[keyPath: property], forKey: member) }
    }

    /// A key path and how its value is written, fixed when the members are declared: immutable, so
    /// shared by every call.
    private struct Fixed<Leaf>: @unchecked Sendable {
        let path: KeyPath<Root, Leaf>
        let write: (inout KeyedEncodingContainer<ResultKey>, Leaf) throws -> Void
    }

    /// How a member's value is read back, worked out once per member (the casts cost more than the
    /// decoding when done for every row). Only a stored result object's members are ever read, so
    /// a type that is not `Decodable` fails when read rather than at compile time.
    private static func decoding<Value>(_ type: Value.Type, _ key: String) -> Decoding<Value> {
        let member = ResultKey(stringValue: key)
        guard let decodable = type as? any Decodable.Type else {
            return Decoding { container in
                throw DecodingError.typeMismatch(type, .init(codingPath: container.codingPath, debugDescription: "\(key) is not read back"))
            }
        }
        // The leaf types through the container's own overloads, as synthesized decoding reads them.
        func leaf<Leaf: Decodable>(_: Leaf.Type) -> Decoding<Value>? {
            if Value.self == Leaf.self { return Decoding { try $0.decode(Leaf.self, forKey: member) as! Value } }
            if Value.self == Leaf?.self { return Decoding { try $0.decodeIfPresent(Leaf.self, forKey: member) as! Value } }
            return nil
        }
        if let known = leaf(String.self) ?? leaf(Int64.self) ?? leaf(Int.self) ?? leaf(Bool.self) ?? leaf(Double.self) { return known }
        // An optional member left out reads as nil, as synthesized decoding has it (a copy written
        // by Foundation's encoder, which leaves nils out).
        let isOptional = type is any OptionalMember.Type
        func opened<Member: Decodable>(_: Member.Type) -> Decoding<Value> {
            Decoding { container in
                if isOptional, !container.contains(member), let none = (Value.self as? any OptionalMember.Type)?.absent as? Value { return none }
                // `Member` is `Value`, opened from the existential: the cast always holds.
                return try container.decode(Member.self, forKey: member) as! Value
            }
        }
        return opened(decodable)
    }

    /// A member's reading, made once: it captures only metatypes and the key, which never change.
    struct Decoding<Value>: @unchecked Sendable {
        let read: (KeyedDecodingContainer<ResultKey>) throws -> Value
    }

    private static func described(_ schema: JSONSchema, _ description: String?) -> JSONSchema {
        description.map(schema.described) ?? schema
    }
}
