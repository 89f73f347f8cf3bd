/// A JSON Schema (draft 2020-12) of a method's result, declared with the method and published by
/// `rpc.discover`, `help METHOD` and the MCP tools' `outputSchema`.
///
///     .object(["id": .string, "title": .string, "due?": .dateTime, "tags": .array(.string)])
///
/// A property whose key ends in `?` may be absent; every other one is always present (listed in
/// `required`). `.nullable` allows `null` as well. Objects are published open (a later version may
/// add a field without breaking a client), but `problems(in:)` holds a result to the declared
/// properties unless the object is declared `.open`, so a test catches a field the schema forgot.
public struct JSONSchema: Sendable, Hashable {
    public private(set) var json: [String: JSONValue]

    public init(json: [String: JSONValue]) { self.json = json }

    public var value: JSONValue { .object(json) }

    public static let string = JSONSchema(json: ["type": "string"])
    public static let integer = JSONSchema(json: ["type": "integer"])
    public static let number = JSONSchema(json: ["type": "number"])
    public static let boolean = JSONSchema(json: ["type": "boolean"])
    public static let null = JSONSchema(json: ["type": "null"])
    /// A calendar date, `YYYY-MM-DD`.
    public static let date = JSONSchema(json: ["type": "string", "format": "date"])
    /// An instant, ISO 8601 with a zone (`2026-12-01T08:00:00Z`).
    public static let dateTime = JSONSchema(json: ["type": "string", "format": "date-time"])
    /// A time of day on the wall clock, `HH:MM` (a class's start, a term's end).
    public static let clock = JSONSchema.string.described("HH:MM")
    /// Any JSON value: only for what truly is free-form (a printer's own settings), and said so.
    public static func any(_ why: String) -> JSONSchema { JSONSchema(json: ["description": .string(why)]) }

    public static func enumeration(_ values: [String]) -> JSONSchema {
        JSONSchema(json: ["type": "string", "enum": .array(values.map(JSONValue.string))])
    }

    public static func enumeration<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> JSONSchema where E.RawValue == String {
        enumeration(E.allCases.map(\.rawValue))
    }

    public static func constant(_ value: JSONValue) -> JSONSchema { JSONSchema(json: ["const": value]) }

    public static func array(_ items: JSONSchema) -> JSONSchema { JSONSchema(json: ["type": "array", "items": items.value]) }

    /// An object with these properties (`key?` = may be absent), in this order.
    public static func object(_ properties: KeyValuePairs<String, JSONSchema>) -> JSONSchema {
        object(ordered: properties.map { ($0.key, $0.value) })
    }

    /// The same, from a list built in code (columns declared by an enum).
    public static func object(ordered properties: [(String, JSONSchema)]) -> JSONSchema {
        var declared: [(String, JSONValue)] = []
        var required: [JSONValue] = []
        for (key, schema) in properties {
            if key.hasSuffix("?") {
                declared.append((String(key.dropLast()), schema.value))
            } else {
                declared.append((key, schema.value))
                required.append(.string(key))
            }
        }
        var json: [String: JSONValue] = [
            "type": "object", "properties": .object(Dictionary(declared, uniquingKeysWith: { first, _ in first })),
        ]
        // `required` keeps the declared order: help and the generated pages list fields by it.
        if !required.isEmpty { json["required"] = .array(required) }
        return JSONSchema(json: json)
    }

    /// An object keyed by names the data chooses (a count per state), each value of this schema.
    public static func map(_ values: JSONSchema) -> JSONSchema {
        JSONSchema(json: ["type": "object", "additionalProperties": values.value])
    }

    /// Exactly one of the choices fits (distinct shapes: a success row or an error row).
    public static func oneOf(_ choices: [JSONSchema]) -> JSONSchema {
        JSONSchema(json: ["oneOf": .array(choices.map(\.value))])
    }

    /// At least one of the choices fits (shapes that may overlap).
    public static func anyOf(_ choices: [JSONSchema]) -> JSONSchema {
        JSONSchema(json: ["anyOf": .array(choices.map(\.value))])
    }

    /// An object whose fields another program chooses (OctoPrint's own answers), described.
    public static func anyObject(_ what: String) -> JSONSchema {
        JSONSchema(json: ["type": "object", "additionalProperties": true, "description": .string(what)])
    }

    /// The same schema, `null` allowed too.
    public var nullable: JSONSchema {
        var copy = self
        switch json["type"] {
        case .string(let type)?: copy.json["type"] = .array([.string(type), "null"])
        case .array(let types)? where !types.contains("null"): copy.json["type"] = .array(types + ["null"])
        case .array?: break
        case nil where json["anyOf"]?.arrayValue?.contains(JSONSchema.null.value) == true: break
        default: copy = JSONSchema(json: ["anyOf": .array([value, JSONSchema.null.value])])
        }
        if case .array(let values)? = copy.json["enum"], !values.contains(.null) { copy.json["enum"] = .array(values + [.null]) }
        return copy
    }

    /// An object that may carry properties beyond those declared (a passthrough).
    public var open: JSONSchema {
        var copy = self
        copy.json["additionalProperties"] = true
        return copy
    }

    public func described(_ text: String) -> JSONSchema {
        var copy = self
        copy.json["description"] = .string(text)
        return copy
    }

    /// This object with more properties (a task with its occurrence fields).
    public func adding(_ properties: KeyValuePairs<String, JSONSchema>) -> JSONSchema {
        let extra = JSONSchema.object(properties)
        var copy = self
        var merged = json["properties"]?.objectValue ?? [:]
        for (key, value) in extra.json["properties"]?.objectValue ?? [:] { merged[key] = value }
        copy.json["properties"] = .object(merged)
        let required = (json["required"]?.arrayValue ?? []) + (extra.json["required"]?.arrayValue ?? [])
        if !required.isEmpty { copy.json["required"] = .array(required) }
        return copy
    }

    /// A short type name for `help` and the generated pages: `string (date-time)`, `[object]`.
    public var summary: String {
        if let oneOf = (json["oneOf"] ?? json["anyOf"])?.arrayValue {
            return oneOf.map { JSONSchema(json: $0.objectValue ?? [:]).summary }.joined(separator: " | ")
        }
        if let values = json["enum"]?.arrayValue {
            return values.map { $0.stringValue.map { "\"\($0)\"" } ?? "null" }.joined(separator: " | ")
        }
        let types: [String] =
            switch json["type"] {
            case .string(let t)?: [t]
            case .array(let ts)?: ts.compactMap(\.stringValue)
            default: ["any"]
            }
        return types.map { type in
            switch type {
            case "array": "[\(JSONSchema(json: json["items"]?.objectValue ?? [:]).summary)]"
            case "string": json["format"]?.stringValue.map { "string (\($0))" } ?? "string"
            default: type
            }
        }.joined(separator: " | ")
    }
}
