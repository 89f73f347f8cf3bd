extension JSONSchema {
    /// A published schema as indented lines for `assistantctl help METHOD`: each field with its
    /// type, `?` when it may be absent, and its description; nested objects below their field.
    public static func outline(_ schema: JSONValue, depth: Int = 4) -> [String] {
        var lines: [String] = []
        describe(schema, name: nil, optional: false, indent: "", depth: depth, into: &lines)
        return lines
    }

    private static func describe(_ schema: JSONValue, name: String?, optional: Bool, indent: String, depth: Int, into lines: inout [String]) {
        let object = schema.objectValue ?? [:]
        var line = indent
        if let name { line += name + (optional ? "?" : "") + ": " }
        line += JSONSchema(json: object).summary
        if let text = object["description"]?.stringValue { line += "  (\(text))" }
        lines.append(line)
        guard depth > 0 else { return }
        // An array's items, or each choice, are described where their fields are.
        if object["type"] == "array", let items = object["items"], items["properties"] != nil {
            describeFields(of: items, indent: indent + "  ", depth: depth - 1, into: &lines)
        } else if let choices = (object["oneOf"] ?? object["anyOf"])?.arrayValue, choices.contains(where: { $0["properties"] != nil }) {
            for choice in choices where choice["properties"] != nil || choice["items"]?["properties"] != nil {
                describe(choice, name: nil, optional: false, indent: indent + "  ", depth: depth - 1, into: &lines)
            }
        } else {
            describeFields(of: schema, indent: indent + "  ", depth: depth - 1, into: &lines)
        }
    }

    private static func describeFields(of schema: JSONValue, indent: String, depth: Int, into lines: inout [String]) {
        guard let properties = schema["properties"]?.objectValue else { return }
        let required = (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        // Required fields in their declared order, then the optional ones.
        let names = required.filter { properties[$0] != nil } + properties.keys.filter { !required.contains($0) }.sorted()
        for name in names {
            describe(properties[name]!, name: name, optional: !required.contains(name), indent: indent, depth: depth, into: &lines)
        }
    }
}
