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
}

/// One member of a result object (or, flattened, another object's members).
public struct ResultMember<Root>: Sendable {
    let schemaMembers: [(String, JSONSchema)]
    let write: @Sendable (Root, inout KeyedEncodingContainer<ResultKey>) throws -> Void

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
        return ResultMember(schemaMembers: [(key, described(declared, description))]) { value, container in
            try container.encode(value[keyPath: property], forKey: ResultKey(stringValue: key))
        }
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
        ResultMember(schemaMembers: [(key + "?", described(schema, description))]) { value, container in
            try container.encodeIfPresent(value[keyPath: property], forKey: ResultKey(stringValue: key))
        }
    }

    /// Another result object's members, written into this one (a group of fields shared by
    /// several results).
    public static func flattened<Value: ResultObject & SendableMetatype>(_ property: any KeyPath<Root, Value> & Sendable) -> Self {
        ResultMember(schemaMembers: Value.members.schemaMembers) { value, container in
            try Value.members.write(value[keyPath: property], into: &container)
        }
    }

    private static func described(_ schema: JSONSchema, _ description: String?) -> JSONSchema {
        description.map(schema.described) ?? schema
    }
}
