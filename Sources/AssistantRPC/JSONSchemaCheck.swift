extension JSONSchema {
    /// Where `value` does not fit this schema, one line per problem with its JSON path (`$.tasks[3].due`).
    ///
    /// Written here because none of the libraries at hand validates JSON Schema, and only the
    /// keywords this project emits are needed: type, enum, const, properties, required,
    /// additionalProperties, items, oneOf, anyOf, minimum and the date formats. `strict` treats an
    /// object without `additionalProperties` as closed, so tests find a field its schema forgot.
    public func problems(in value: JSONValue, strict: Bool = true, limit: Int = 20) -> [String] {
        var found: [String] = []
        Self.check(value, against: json, path: "$", strict: strict, into: &found, limit: limit)
        return found
    }

    private static func check(
        _ value: JSONValue, against schema: [String: JSONValue], path: String, strict: Bool, into found: inout [String], limit: Int
    ) {
        guard found.count < limit else { return }
        if let choices = schema["oneOf"]?.arrayValue ?? schema["anyOf"]?.arrayValue {
            let fitting = choices.filter { choice in
                var inner: [String] = []
                check(value, against: choice.objectValue ?? [:], path: path, strict: strict, into: &inner, limit: 1)
                return inner.isEmpty
            }
            if fitting.isEmpty || (schema["oneOf"] != nil && fitting.count > 1) {
                found.append("\(path): \(value.typeName) fits \(fitting.count) of the \(choices.count) choices")
            }
            return
        }
        if let constant = schema["const"], constant != value {
            found.append("\(path): must be \(constant.encodedString()), got \(value.encodedString().prefix(80))")
            return
        }
        if let values = schema["enum"]?.arrayValue, !values.contains(value) {
            let list = values.map { $0.encodedString() }.joined(separator: ", ")
            found.append("\(path): must be one of \(list), got \(value.encodedString().prefix(80))")
            return
        }
        let types: [String] =
            switch schema["type"] {
            case .string(let type)?: [type]
            case .array(let list)?: list.compactMap(\.stringValue)
            default: []
            }
        if !types.isEmpty, !types.contains(where: { fits(value, $0) }) {
            found.append("\(path): must be \(types.joined(separator: " or ")), got \(value.typeName)")
            return
        }
        switch value {
        case .string(let text):
            if let format = schema["format"]?.stringValue, !fitsFormat(text, format) {
                found.append("\(path): must be a \(format), got \"\(text.prefix(40))\"")
            }
        case .int, .double:
            if let minimum = schema["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
                found.append("\(path): must be at least \(minimum), got \(number)")
            }
        case .array(let items):
            if let itemSchema = schema["items"]?.objectValue {
                for (index, item) in items.enumerated() {
                    check(item, against: itemSchema, path: "\(path)[\(index)]", strict: strict, into: &found, limit: limit)
                }
            }
        case .object(let object):
            let properties = schema["properties"]?.objectValue ?? [:]
            for case .string(let key) in schema["required"]?.arrayValue ?? [] where object[key] == nil {
                found.append("\(path): lacks required '\(key)'")
            }
            for (key, child) in object.sorted(by: { $0.key < $1.key }) {
                if let propertySchema = properties[key]?.objectValue {
                    check(child, against: propertySchema, path: "\(path).\(key)", strict: strict, into: &found, limit: limit)
                } else {
                    switch schema["additionalProperties"] {
                    case .object(let extra)?:
                        check(child, against: extra, path: "\(path).\(key)", strict: strict, into: &found, limit: limit)
                    case .bool(false)?:
                        found.append("\(path): has '\(key)', which its schema does not declare")
                    case nil where strict && schema["properties"] != nil:
                        found.append("\(path): has '\(key)', which its schema does not declare")
                    default:
                        break
                    }
                }
            }
        default:
            break
        }
    }

    private static func fits(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("integer", .int): true
        case ("integer", .double(let d)): d.rounded() == d
        case ("number", .int), ("number", .double): true
        default: false
        }
    }

    private static func isCalendarDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return false }
        let back = CivilDate.civil(days: CivilDate.days(year: year, month: month, day: day))
        return back == (year, month, day)
    }

    private static func fitsFormat(_ text: String, _ format: String) -> Bool {
        switch format {
        case "date": isCalendarDate(text)
        case "date-time": ISO8601.date(text) != nil
        default: true
        }
    }
}
