/// A type that is the declaration of its own JSON: the schema `rpc.discover`, `help` and the MCP
/// tools publish for it. A result struct gets this from `@ResultObject`; the leaves (strings,
/// numbers, lists, enums of strings) are described here.
public protocol ResultDescribing {
    static var resultSchema: JSONSchema { get }
}

/// An object result: its members in order (`key?` may be absent), so another object can take
/// them in (`@Flatten`).
public protocol ResultObjectDescribing: ResultDescribing, Encodable {
    static var resultMembers: [(String, JSONSchema)] { get }
}

/// `T`'s schema, spelled so that any type, `[String]` or `Int?`, fits where a macro writes it.
public enum ResultSchemaOf<T: ResultDescribing> {
    public static var schema: JSONSchema { T.resultSchema }
}

extension String: ResultDescribing { public static var resultSchema: JSONSchema { .string } }
extension Int: ResultDescribing { public static var resultSchema: JSONSchema { .integer } }
extension Int64: ResultDescribing { public static var resultSchema: JSONSchema { .integer } }
extension Double: ResultDescribing { public static var resultSchema: JSONSchema { .number } }
extension Bool: ResultDescribing { public static var resultSchema: JSONSchema { .boolean } }

extension Array: ResultDescribing where Element: ResultDescribing {
    public static var resultSchema: JSONSchema { .array(Element.resultSchema) }
}

/// One way to write nulls: an optional member is always written, `null` when missing (or left
/// out, when the property is marked `@OmitWhenNil`).
extension Optional: ResultDescribing where Wrapped: ResultDescribing {
    public static var resultSchema: JSONSchema { Wrapped.resultSchema.nullable }
}

/// Names the data chooses (a count per state).
extension Dictionary: ResultDescribing where Key == String, Value: ResultDescribing {
    public static var resultSchema: JSONSchema { .map(Value.resultSchema) }
}

/// An enum of strings is described by its cases: `extension TaskKind: ResultDescribing {}`.
extension ResultDescribing where Self: CaseIterable & RawRepresentable, RawValue == String {
    public static var resultSchema: JSONSchema { .enumeration(Self.self) }
}

extension JSONSchema {
    /// A field's declared schema (`@Schema(.dateTime)`), as the macro writes it.
    public static func given(_ schema: JSONSchema) -> JSONSchema { schema }
    /// The same for an optional field: `null` allowed too.
    public static func orNull(_ schema: JSONSchema) -> JSONSchema { schema.nullable }
}
