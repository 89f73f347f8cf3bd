/// A type that is the declaration of its own JSON: the schema `rpc.discover`, `help` and the MCP
/// tools publish for it. A result struct gets this from its `ResultMembers`; the leaves (strings,
/// numbers, lists, enums of strings) are described here.
public protocol ResultDescribing {
    static var resultSchema: JSONSchema { get }
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
/// out, when declared `.omittedWhenNil`).
extension Optional: ResultDescribing where Wrapped: ResultDescribing {
    public static var resultSchema: JSONSchema { Wrapped.resultSchema.nullable }
}

/// Any optional, whatever it wraps: a member declared with a schema of its own is nullable when
/// its property is optional, and one missing from a stored copy reads back as nil.
protocol OptionalMember {
    static var absent: Self { get }
}

extension Optional: OptionalMember {
    static var absent: Self { nil }
}

/// Names the data chooses (a count per state).
extension Dictionary: ResultDescribing where Key == String, Value: ResultDescribing {
    public static var resultSchema: JSONSchema { .map(Value.resultSchema) }
}

/// An enum of strings is described by its cases: `extension TaskKind: ResultDescribing {}`.
extension ResultDescribing where Self: CaseIterable & RawRepresentable, RawValue == String {
    public static var resultSchema: JSONSchema { .enumeration(Self.self) }
}
