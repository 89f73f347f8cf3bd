import Foundation

/// Read-only views an AI assistant can attach to a conversation (`assistantctl mcp`'s resources
/// and prompts), built from what the plugins' manifests declare (`plugins.list`: `resources`,
/// `resources_set_up`): each is one or more daemon calls, shown as their JSON (or a file's bytes).
/// Names no plugin, and is free of any MCP type, as `ToolCatalog` is.
public struct ResourceCatalog: Sendable {
    public typealias Read = ResourceDeclaration.Read

    /// A view with the reads, topics and prompts of every plugin that declares it.
    public typealias Resource = ResourceDeclaration

    /// The views of the plugins set up now, plain and templated, in the order declared.
    public let resources: [Resource]
    public let templates: [Resource]
    /// Every view declared, set up or not: what a notice's topic changes.
    let declared: [Resource]

    /// `plugins`: `plugins.list`'s answer. `setUp`: the answers of the reads that say whether a
    /// plugin is set up (`setUpReads`), by method.
    public init(plugins: JSONValue, setUp: [String: JSONValue] = [:]) {
        var all: [Resource] = []
        var available: [Resource] = []
        for plugin in plugins.arrayValue ?? [] {
            let declarations = (plugin["resources"]?.arrayValue ?? []).compactMap(ResourceDeclaration.init(json:))
            let ready =
                plugin["state"] == "ready"
                && (ResourceDeclaration.SetUp(json: plugin["resources_set_up"]).map { $0.holds(in: setUp[$0.method]) } ?? true)
            for declaration in declarations {
                Self.merge(declaration, into: &all)
                if ready { Self.merge(declaration, into: &available) }
            }
        }
        declared = all
        resources = available.filter { !$0.isTemplate }
        templates = available.filter(\.isTemplate)
    }

    /// A view declared by a second plugin under the same URI adds its reads, topics and prompts.
    static func merge(_ declaration: ResourceDeclaration, into list: inout [Resource]) {
        guard let index = list.firstIndex(where: { $0.uri == declaration.uri }) else { return list.append(declaration) }
        list[index].reads += declaration.reads
        list[index].topics += declaration.topics.filter { !list[index].topics.contains($0) }
        list[index].prompts += declaration.prompts.filter { !list[index].prompts.contains($0) }
    }

    /// The reads to make before building the catalogue: those that say whether a ready plugin
    /// is set up.
    public static func setUpReads(_ plugins: JSONValue) -> [String] {
        var methods: [String] = []
        for plugin in plugins.arrayValue ?? [] where plugin["state"] == "ready" {
            if let setUp = ResourceDeclaration.SetUp(json: plugin["resources_set_up"]), !methods.contains(setUp.method) {
                methods.append(setUp.method)
            }
        }
        return methods
    }

    /// The view `uri` names and its calls, their placeholders filled (`{today}`, `{tomorrow}`,
    /// `{week_end}`, a template's segment, `{file}`); nil for an unknown or unavailable one.
    public func reads(_ uri: String, today: String, weekEnd: String, tomorrow: String, file: String? = nil) -> (Resource, [Read])? {
        var values = ["today": today, "week_end": weekEnd, "tomorrow": tomorrow]
        if let file { values["file"] = file }
        let found: Resource
        if let plain = resources.first(where: { $0.uri == uri }) {
            found = plain
        } else if let (template, segment) = templates.lazy.compactMap({ t in Self.match(t.uri, uri).map { (t, $0) } }).first {
            found = template
            values[segment.name] = segment.value
        } else {
            return nil
        }
        return (
            found,
            found.reads.map { read in
                var filled = read
                filled.params = Self.fill(read.params, values)
                return filled
            }
        )
    }

    /// The one `{name}` segment of `template` as `uri` gives it: one segment, not empty,
    /// percent-decoded.
    static func match(_ template: String, _ uri: String) -> (name: String, value: String)? {
        guard let open = template.firstIndex(of: "{"), let close = template[open...].firstIndex(of: "}") else { return nil }
        let prefix = template[..<open]
        let suffix = template[template.index(after: close)...]
        guard uri.hasPrefix(prefix), uri.hasSuffix(suffix), uri.count > prefix.count + suffix.count else { return nil }
        let raw = String(uri.dropFirst(prefix.count).dropLast(suffix.count))
        guard !raw.contains("/") else { return nil }
        return (String(template[template.index(after: open)..<close]), raw.removingPercentEncoding ?? raw)
    }

    static func fill(_ params: JSONValue, _ values: [String: String]) -> JSONValue {
        switch params {
        case .string(let text) where text.hasPrefix("{") && text.hasSuffix("}"):
            return values[String(text.dropFirst().dropLast())].map { .string($0) } ?? params
        case .object(let object): return .object(object.mapValues { fill($0, values) })
        case .array(let items): return .array(items.map { fill($0, values) })
        default: return params
        }
    }

    /// The view's content from its calls' results: the one result, or each under its part.
    public static func content(_ results: [(Read, JSONValue)]) -> JSONValue {
        func kept(_ read: Read, _ value: JSONValue) -> JSONValue {
            guard let state = read.onlyState, case .object(var object) = value else { return value }
            for (key, member) in object {
                if let rows = member.arrayValue, rows.contains(where: { $0["state"] != nil }) {
                    object[key] = .array(rows.filter { $0["state"]?.stringValue == state })
                }
            }
            return .object(object)
        }
        if results.count == 1, results[0].0.part == nil { return kept(results[0].0, results[0].1) }
        return .object(Dictionary(results.map { ($0.0.part ?? $0.0.method, kept($0.0, $0.1)) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Which of the watched views a notice of `topic` changes (a template's by its pattern).
    public func changed(by topic: String, among uris: [String]) -> [String] {
        uris.filter { uri in
            let view = declared.first { $0.uri == uri || ($0.isTemplate && Self.match($0.uri, uri) != nil) }
            return (view?.topics ?? []).contains { $0.hasSuffix("*") ? topic.hasPrefix(String($0.dropLast())) : topic == $0 }
        }
    }

    /// The prompts: what each asks; the views it attaches are those that name it.
    public static let prompts: [(name: String, description: String, text: String)] = [
        (
            "daily_briefing", "Today at a glance, from the attached views",
            "Give me a short briefing for today from the attached views: what is on my agenda and timetable, what is due or "
                + "close to a deadline, and any warning. Mention only what needs my attention."
        ),
        (
            "plan_week", "Plan the week around the attached views",
            "Help me plan the next 7 days from the attached views: fit my open and overdue tasks around what is fixed in time, "
                + "leave time to prepare for what needs it, and say what does not fit."
        ),
    ]

    /// The views a prompt attaches, as they are now (those of plugins not set up are left out).
    public func uris(forPrompt name: String) -> [String] {
        resources.filter { $0.prompts.contains(name) }.map(\.uri)
    }
}
