/// JSON renderings of manifests: `help`, `plugins.list`, and the OpenRPC document of `rpc.discover`.
enum ManifestJSON {
    static func usage(_ command: CommandDescriptor) -> String {
        ([command.name] + command.params.map { $0.required ? "\($0.name)=<\($0.type.name)>" : "[\($0.name)=<\($0.type.name)>]" })
            .joined(separator: " ")
    }

    static func param(_ spec: ParamSpec) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(spec.name), "type": .string(spec.type.name), "required": .bool(spec.required), "help": .string(spec.help),
        ]
        if let d = spec.defaultValue { object["default"] = d }
        switch spec.type {
        case .integer(let min, let max):
            if let min { object["minimum"] = .int(min) }
            if let max { object["maximum"] = .int(max) }
        case .number(let min, let max):
            if let min { object["minimum"] = .double(min) }
            if let max { object["maximum"] = .double(max) }
        case .oneOf(let choices):
            object["choices"] = .array(choices.map(JSONValue.string))
        case .array(let element?):
            object["items"] = .string(element.name)
        default: break
        }
        return .object(object)
    }

    static func command(_ command: CommandDescriptor, plugin: String) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(command.name), "plugin": .string(plugin), "summary": .string(command.summary),
            "usage": .string(usage(command)), "params": .array(command.params.map(param)),
            "result": .string(command.result.json["description"]?.stringValue ?? command.result.summary),
            "result_schema": command.result.value,
        ]
        if !command.rules.isEmpty { object["rules"] = .array(command.rules.map { .string($0.summary) }) }
        object["effect"] = .string(command.effect.rawValue)
        if let rule = command.effectRule { object["effect_rule"] = .string(rule) }
        if !command.destructiveWhen.isEmpty { object["destructive_when"] = .array(command.destructiveWhen.map(\.json)) }
        if let reason = command.personOnly { object["person_only"] = .string(reason) }
        if let confirm = command.confirm { object["confirm"] = confirm.json }
        if let view = command.view { object["view"] = view.json }
        if let says = command.says { object["says"] = says.json }
        if let example = command.example { object["example"] = .string(example) }
        return .object(object)
    }

    static func schema(_ type: ParamType) -> JSONValue {
        switch type {
        case .string: ["type": "string"]
        case .path: ["type": "string", "format": "path"]
        case .secret: ["type": "string", "format": "password", "writeOnly": true]
        case .date: ["type": "string", "format": "date"]
        case .duration:
            ["oneOf": [["type": "integer", "minimum": 0, "description": "minutes"], ["type": "string", "description": "H:MM or decimal hours"]]]
        case .dateTime: ["type": "string", "format": "date-time"]
        case .integer(let min, let max):
            .object(
                ["type": "integer"].merging(
                    [("minimum", min.map(JSONValue.int)), ("maximum", max.map(JSONValue.int))].compactMap { k, v in v.map { (k, $0) } },
                    uniquingKeysWith: { a, _ in a }))
        case .number(let min, let max):
            .object(
                ["type": "number"].merging(
                    [("minimum", min.map(JSONValue.double)), ("maximum", max.map(JSONValue.double))].compactMap { k, v in v.map { (k, $0) } },
                    uniquingKeysWith: { a, _ in a }))
        case .boolean: ["type": "boolean"]
        case .object: ["type": "object"]
        case .array(let element): element.map { .object(["type": "array", "items": schema($0)]) } ?? ["type": "array"]
        case .oneOf(let choices): .object(["type": "string", "enum": .array(choices.map(JSONValue.string))])
        case .any: [:]
        }
    }

    /// The schema of `help`'s answer (the documents below are written as JSON, from the descriptors).
    static let helpSchema: JSONSchema = {
        let param = JSONSchema.object([
            "name": .string, "type": .string, "required": .boolean, "help": .string, "default?": .any("the value used when it is not given"),
            "minimum?": .number, "maximum?": .number, "choices?": .array(.string), "items?": .string,
        ])
        let methodLine = JSONSchema.object(["name": .string, "plugin": .string, "summary": .string, "usage": .string])
        return JSONSchema.anyOf([
            .object(["methods": .array(methodLine)]).described("without method: every method"),
            methodLine.adding([
                "params": .array(param), "result": JSONSchema.string.described("the result in words"),
                "result_schema": JSONSchema.any("the JSON Schema of the result"), "rules?": .array(.string), "example?": .string,
                "effect?": JSONSchema.enumeration(CommandEffect.self).described("what calling it does to the world, where declared"),
                "effect_rule?": JSONSchema.string.described("when its arguments make it destructive, or why its effect is what it is"),
                "destructive_when?": JSONSchema.array(JSONSchema.any("{param, given: true} or {param, equals: value}"))
                    .described("arguments that make a call destructive"),
                "person_only?": JSONSchema.string.described("why only a person calls it, and an AI assistant is never offered it"),
                "confirm?": JSONSchema.object(["sentences": .array(.string), "details?": .string]).described(
                    "what a person is asked before a destructive call: templates over its arguments ({name}, {name:day}, optional […]), "
                        + "the first that fills; details names a read whose answer fills the rest"),
                "view?": JSONSchema.any(ResultView.schemaDescription),
                "says?": JSONSchema.array(.string).described(
                    "what a command that changes something says it did: templates over its result and arguments, the first that fills"),
            ]).described("with method: that method whole"),
        ])
    }()

    /// `help`, answered from documents built once: the list, and each method whole.
    static func help(_ table: MethodTable) -> @Sendable (Params) throws -> JSONValue {
        let list: JSONValue = [
            "methods": .array(
                table.sortedNames.compactMap { name in
                    table[name].map {
                        [
                            "name": .string(name), "plugin": .string($0.pluginID), "summary": .string($0.descriptor.summary),
                            "usage": .string(usage($0.descriptor)),
                        ]
                    }
                })
        ]
        let described = Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, command($0.value.descriptor, plugin: $0.value.pluginID)) })
        return { params in
            guard let name = params[HostParams.method] else { return list }
            guard let document = described[name] else {
                throw HostParams.method.invalid("names no method ('\(name)'); run 'assistantctl help' for the list")
            }
            return document
        }
    }

    static func openRPC(_ table: MethodTable, version: String) -> JSONValue {
        let methods: [JSONValue] = table.sortedNames.compactMap { name in
            guard let entry = table[name] else { return nil }
            let d = entry.descriptor
            var method: [String: JSONValue] = [
                "name": .string(name), "summary": .string(d.summary), "paramStructure": "either",
                "params": .array(
                    d.params.map { p in
                        var param: [String: JSONValue] = [
                            "name": .string(p.name), "required": .bool(p.required), "description": .string(p.help), "schema": schema(p.type),
                        ]
                        if let def = p.defaultValue, case .object(var s) = param["schema"]! {
                            s["default"] = def
                            param["schema"] = .object(s)
                        }
                        return .object(param)
                    }),
                "result": [
                    "name": "result", "description": .string(d.result.json["description"]?.stringValue ?? d.result.summary),
                    "schema": d.result.value,
                ],
                "tags": .array([.object(["name": .string(entry.pluginID)])]),
            ]
            if let example = d.example { method["description"] = .string("Example: \(example)") }
            // OpenRPC's extension field: what calling it does to the world.
            method["x-effect"] = .string(d.effect.rawValue)
            if let rule = d.effectRule { method["x-effect-rule"] = .string(rule) }
            if !d.destructiveWhen.isEmpty { method["x-destructive-when"] = .array(d.destructiveWhen.map(\.json)) }
            if let reason = d.personOnly { method["x-person-only"] = .string(reason) }
            if d.reachesOutside { method["x-open-world"] = true }
            if let confirm = d.confirm { method["x-confirm"] = confirm.json }
            if let view = d.view { method["x-view"] = view.json }
            if let says = d.says { method["x-says"] = says.json }
            if let undo = d.undo { method["x-undo"] = undo.json }
            return .object(method)
        }
        return [
            "openrpc": "1.2.6",
            "info": ["title": "assistantd", "version": .string(version), "description": "Line-delimited JSON-RPC 2.0 on a Unix socket"],
            "methods": .array(methods),
        ]
    }
}
