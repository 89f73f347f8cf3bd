/// A read-only view an AI assistant can attach to a conversation (an MCP resource), declared in
/// the manifest of the plugin it belongs to and published by `plugins.list` (`resources`), so
/// that `assistantctl mcp` builds its catalogue from the manifests and names no plugin itself.
///
/// A view is one or more of the daemon's reads. Their parameters may hold placeholders the
/// client fills when it reads: `{today}`, `{tomorrow}` and `{week_end}` (dates in the daemon's
/// zone), `{printer}` (the one segment of a templated URI such as
/// `assistant://octoprint/{printer}/status`) and `{file}` (a private temporary file the read
/// writes a binary view to, as a webcam's snapshot). Views of two plugins may share a URI: each
/// then adds its read under its own `part` (the exams registered in IS/STAG and in KOS).
public struct ResourceDeclaration: Sendable, Equatable, ResultObject {
    /// One daemon call of a view.
    public struct Read: Sendable, Equatable, ResultObject {
        public var method: String
        public var params: JSONValue
        /// Where its result goes in the view (nil: the view is this result).
        public var part: String?
        /// Rows of an array member are kept only when their `state` is this (registered exams).
        public var onlyState: String?

        public init(method: String, params: JSONValue = [:], part: String? = nil, onlyState: String? = nil) {
            (self.method, self.params, self.part, self.onlyState) = (method, params, part, onlyState)
        }

        public static let members = ResultMembers<Self>(
            .field("method", \.method), .field("params", \.params, .any("the read's arguments, with {today}-style placeholders")),
            .omittedWhenNil("part", \.part), .omittedWhenNil("only_state", \.onlyState))
    }

    public var uri: String
    public var name: String
    public var description: String
    public var mimeType: String
    public var reads: [Read]
    /// Notice topics (exact, or prefixes ending in `*`) that tell of a change to it.
    public var topics: [String]
    /// The prompts that attach it (`daily_briefing`, `plan_week`).
    public var prompts: [String]

    public init(
        uri: String, name: String, description: String, mimeType: String = "application/json", reads: [Read], topics: [String],
        prompts: [String] = []
    ) {
        (self.uri, self.name, self.description, self.mimeType) = (uri, name, description, mimeType)
        (self.reads, self.topics, self.prompts) = (reads, topics, prompts)
    }

    /// Whether its URI has a `{printer}`-style segment (an MCP resource template).
    public var isTemplate: Bool { uri.contains("{") }

    /// As `plugins.list` publishes it, and `init?(json:)` reads it back.
    public static let members = ResultMembers<Self>(
        .field("uri", \.uri), .field("name", \.name), .field("description", \.description), .field("mime_type", \.mimeType),
        .field("reads", \.reads), .field("topics", \.topics), .field("prompts", \.prompts))

    public init?(json: JSONValue) {
        guard let uri = json["uri"]?.stringValue, let name = json["name"]?.stringValue else { return nil }
        let reads = (json["reads"]?.arrayValue ?? []).compactMap { read -> Read? in
            guard let method = read["method"]?.stringValue else { return nil }
            return Read(
                method: method, params: read["params"] ?? [:], part: read["part"]?.stringValue, onlyState: read["only_state"]?.stringValue)
        }
        guard !reads.isEmpty else { return nil }
        self.init(
            uri: uri, name: name, description: json["description"]?.stringValue ?? "",
            mimeType: json["mime_type"]?.stringValue ?? "application/json", reads: reads,
            topics: (json["topics"]?.arrayValue ?? []).compactMap(\.stringValue),
            prompts: (json["prompts"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    /// How a plugin says it is set up enough to have views: a member of one of its reads (a
    /// list that is not empty, or true). Without one, a plugin that is ready has its views.
    public struct SetUp: Sendable, Equatable, ResultObject {
        public var method: String
        public var member: String

        public init(method: String, member: String) { (self.method, self.member) = (method, member) }

        public static let members = ResultMembers<Self>(.field("method", \.method), .field("member", \.member))

        public init?(json: JSONValue?) {
            guard let method = json?["method"]?.stringValue, let member = json?["member"]?.stringValue else { return nil }
            self.init(method: method, member: member)
        }

        /// Whether the read's answer says set up.
        public func holds(in answer: JSONValue?) -> Bool {
            switch answer?[member] {
            case .array(let items)?: !items.isEmpty
            case .bool(let flag)?: flag
            default: false
            }
        }
    }
}
