import Foundation

/// The daemon's methods as tools for an AI assistant (`assistantctl mcp`), built from the
/// daemon's own OpenRPC document (`rpc.discover`): each method's parameters become the tool's
/// input schema, its result schema the output schema, its declared effect the safety hints.
/// Free of any MCP type, so that the rules are tested without a protocol in between.
public struct ToolCatalog: Sendable {
    public struct Tool: Sendable, Equatable {
        public var name: String
        public var description: String
        public var inputSchema: JSONValue
        public var outputSchema: JSONValue
        /// The result is not an object: it is given as `{"result": …}`.
        public var wrapsResult: Bool
        public var effect: String
        public var openWorld: Bool
        /// Arguments that make a call destructive though the tool is not (`x-destructive-when`).
        public var destructiveWhen: [Condition] = []
        /// The effect's rule in words (`x-effect-rule`), for the person asked to confirm.
        public var effectRule: String?
        /// The parameters that take a file path (`format: path`, alone or in a list): each must
        /// lie inside the session's roots.
        public var pathParams: [String] = []
        /// What the person is asked before a destructive call (`x-confirm`).
        public var confirm: ConfirmSentence?

        /// What a call with these arguments does: the tool's effect, or destructive when an
        /// argument says so.
        public func effect(for arguments: [String: JSONValue]) -> String {
            destructiveWhen.contains { $0.matches(arguments) } ? "destructive" : effect
        }

        /// Whether a call may be destructive: declared so, or made so by its arguments.
        public var mayBeDestructive: Bool { effect == "destructive" || !destructiveWhen.isEmpty }
    }

    /// One `x-destructive-when` entry: a parameter given at all, or given this value.
    public struct Condition: Sendable, Equatable {
        public var param: String
        /// nil: given at all (a list must not be empty).
        public var equals: JSONValue?

        init?(_ json: JSONValue) {
            guard let param = json["param"]?.stringValue else { return nil }
            self.param = param
            equals = json["equals"]
            guard equals != nil || json["given"] == true else { return nil }
        }

        public func matches(_ arguments: [String: JSONValue]) -> Bool {
            guard let value = arguments[param], value != .null else { return false }
            if let equals { return value == equals }
            return value.arrayValue.map { !$0.isEmpty } ?? true
        }
    }

    /// Why a method is not a tool, for a call that names it anyway.
    public enum Refusal: Error, Equatable {
        case unknown(String)
        case notExposed(String, reason: String)
        case destructive(String)
    }

    public let tools: [Tool]
    let hidden: [String: String]
    let byName: [String: Tool]

    /// `tools`: method names or prefixes ending in `*`; empty offers every method that may be.
    /// `offerDestructive`: list the destructive tools too (the session asks the person before
    /// each call, or `allow_destructive` lets them run).
    public init(discover: JSONValue, offerDestructive: Bool, tools patterns: [String] = []) {
        var tools: [Tool] = []
        var hidden: [String: String] = [:]
        for method in discover["methods"]?.arrayValue ?? [] {
            guard let name = method["name"]?.stringValue else { continue }
            let params = method["params"]?.arrayValue ?? []
            // The method's own declaration says when only a person may call it.
            if let why = method["x-person-only"]?.stringValue {
                hidden[name] = why
                continue
            }
            if !patterns.isEmpty,
                !patterns.contains(where: { $0.hasSuffix("*") ? name.hasPrefix(String($0.dropLast())) : name == $0 })
            {
                hidden[name] = "it is not among the tools [mcp] offers"
                continue
            }
            if params.contains(where: { $0["schema"]?["writeOnly"] == true || $0["schema"]?["format"] == "password" }) {
                hidden[name] = "it takes a secret, which a person gives with assistantctl"
                continue
            }
            let effect = method["x-effect"]?.stringValue ?? "destructive"
            if effect == "destructive" && !offerDestructive {
                hidden[name] = "destructive"
                continue
            }
            var properties: [String: JSONValue] = [:]
            var required: [JSONValue] = []
            for param in params {
                guard let key = param["name"]?.stringValue else { continue }
                var schema = param["schema"]?.objectValue ?? [:]
                if let text = param["description"]?.stringValue { schema["description"] = .string(text) }
                properties[key] = .object(schema)
                if param["required"] == true { required.append(.string(key)) }
            }
            let input: JSONValue = [
                "type": "object", "properties": .object(properties), "required": .array(required), "additionalProperties": false,
            ]
            let result = method["result"]?["schema"] ?? [:]
            let isObject = result["type"] == "object"
            let output: JSONValue = isObject ? result : ["type": "object", "properties": ["result": result], "required": ["result"]]
            let paths = params.compactMap { param -> String? in
                let schema = param["schema"]
                let isPath = schema?["format"] == "path" || schema?["items"]?["format"] == "path"
                return isPath ? param["name"]?.stringValue : nil
            }
            // The method's own declaration says whether it reaches beyond this machine.
            let open = method["x-open-world"] == true
            tools.append(
                Tool(
                    name: name, description: method["summary"]?.stringValue ?? name, inputSchema: input, outputSchema: output,
                    wrapsResult: !isObject, effect: effect, openWorld: open,
                    destructiveWhen: (method["x-destructive-when"]?.arrayValue ?? []).compactMap(Condition.init),
                    effectRule: method["x-effect-rule"]?.stringValue, pathParams: paths, confirm: ConfirmSentence(json: method["x-confirm"])))
        }
        self.tools = tools.sorted { $0.name < $1.name }
        self.hidden = hidden
        byName = Dictionary(tools.map { ($0.name, $0) }) { first, _ in first }
    }

    /// The tool a call names, or why there is none.
    public func tool(_ name: String) -> Result<Tool, Refusal> {
        if let tool = byName[name] { return .success(tool) }
        guard let why = hidden[name] else { return .failure(.unknown(name)) }
        return .failure(why == "destructive" ? .destructive(name) : .notExposed(name, reason: why))
    }

    /// A tool call's answer: the structured content, its JSON text for clients that read only
    /// text, and whether it is an error (a daemon error is a tool error the model can correct).
    /// What a call of a tool that is not offered is told (a tool error the model reads).
    public static func refusalText(_ refusal: Refusal) -> String {
        switch refusal {
        case .unknown(let name): "Unknown tool: \(name)"
        case .notExposed(let name, let reason): "\(name) is not offered to assistants: \(reason)."
        case .destructive(let name):
            "\(name) is destructive and not offered: set allow_destructive = true under [mcp] in the daemon's config.toml "
                + "(or run assistantctl mcp --allow-destructive) to offer it."
        }
    }

    public static func answer(_ result: Result<JSONValue, RPCError>, for tool: Tool) -> (structured: JSONValue, text: String, isError: Bool) {
        switch result {
        case .success(let value):
            let structured: JSONValue = tool.wrapsResult ? ["result": value] : value
            return (structured, structured.encodedString(), false)
        case .failure(let error):
            let structured: JSONValue = ["code": .int(Int64(error.code)), "message": .string(error.message), "data": error.data ?? .null]
            return (structured, error.message, true)
        }
    }
}
