import Foundation

/// Read-only views an AI assistant can attach to a conversation (`assistantctl mcp`'s resources
/// and prompts): each is one or more daemon calls, shown as their JSON. Free of any MCP type,
/// as `ToolCatalog` is.
public struct ResourceCatalog: Sendable {
    public struct Resource: Sendable, Equatable {
        public var uri: String
        public var name: String
        public var description: String
        public var plugin: String
        /// Notice topics (exact, or prefixes ending in `*`) that tell of a change to it.
        public var topics: [String]
    }

    /// A daemon call a resource is read by.
    public struct Read: Sendable, Equatable {
        public var method: String
        public var params: JSONValue
        /// Where its result goes in the resource (nil: the resource is this result).
        public var part: String?
        /// Rows of this array member are kept only when their `state` is this (Stag's registered exams).
        public var onlyState: String?

        public init(method: String, params: JSONValue, part: String? = nil, onlyState: String? = nil) {
            (self.method, self.params, self.part, self.onlyState) = (method, params, part, onlyState)
        }
    }

    public static let all: [Resource] = [
        Resource(
            uri: "assistant://tasks/agenda/today", name: "Today's agenda", description: "Tasks and events today, in order", plugin: "tasks",
            topics: ["tasks.*"]),
        Resource(
            uri: "assistant://tasks/agenda/week", name: "This week's agenda", description: "Tasks and events in the next 7 days",
            plugin: "tasks", topics: ["tasks.*"]),
        Resource(
            uri: "assistant://tasks/overdue", name: "Overdue tasks", description: "Open tasks past their due", plugin: "tasks", topics: ["tasks.*"]),
        Resource(
            uri: "assistant://stag/timetable/week", name: "IS/STAG timetable", description: "This week's classes (the default account)",
            plugin: "stag", topics: ["stag.timetable.*", "stag.class.*"]),
        Resource(
            uri: "assistant://kos/timetable/week", name: "KOS timetable", description: "The semester's timetable slots (the default account)",
            plugin: "kos", topics: ["kos.timetable.*", "kos.class.*"]),
        Resource(
            uri: "assistant://exams/upcoming", name: "Registered exams", description: "Exam dates registered for in IS/STAG and KOS",
            plugin: "stag kos", topics: ["stag.exam.*", "kos.exam.*"]),
        Resource(
            uri: "assistant://logbook/currency", name: "Pilot currency", description: "Passenger and night recency, medical validity",
            plugin: "logbook", topics: ["logbook.*"]),
    ]

    /// `assistant://octoprint/{printer}/status` and `…/webcam` (a JPEG).
    public static let printerTemplates = [
        (uri: "assistant://octoprint/{printer}/status", name: "Printer status", mimeType: "application/json"),
        (uri: "assistant://octoprint/{printer}/webcam", name: "Printer webcam snapshot", mimeType: "image/jpeg"),
    ]

    public let resources: [Resource]

    /// The plugins whose own status tells whether they are set up, and the method that says.
    public static let setUpBy = ["stag": "stag.status", "kos": "kos.status"]

    /// The resources of the plugins that are set up: ready in `status`, and for Stag and KOS
    /// with an account (`setUp` holds their own status answers, by plugin).
    public init(status: JSONValue, setUp: [String: JSONValue] = [:]) {
        let ready = Set(
            (status["plugins"]?.arrayValue ?? []).compactMap { plugin -> String? in
                guard plugin["state"] == "ready", let id = plugin["id"]?.stringValue else { return nil }
                switch id {
                case "stag": return setUp[id]?["accounts"]?.arrayValue?.isEmpty == false ? id : nil
                case "kos": return setUp[id]?["set_up"] == true ? id : nil
                default: return id
                }
            })
        resources = Self.all.filter { $0.plugin.split(separator: " ").contains { ready.contains(String($0)) } }
        self.ready = ready
    }

    let ready: Set<String>

    /// The calls that read `uri`, on `today` (a date in the daemon's zone); nil for an unknown
    /// or unavailable one. A printer's resources are read for any printer name.
    public func reads(_ uri: String, today: String, weekEnd: String, tomorrow: String) -> [Read]? {
        if let printer = Self.printer(uri, suffix: "/status"), ready.contains("octoprint") {
            return [Read(method: "octoprint.status", params: ["printer": .string(printer)])]
        }
        guard resources.contains(where: { $0.uri == uri }) else { return nil }
        switch uri {
        case "assistant://tasks/agenda/today": return [Read(method: "tasks.agenda", params: ["from": .string(today), "to": .string(tomorrow)])]
        case "assistant://tasks/agenda/week": return [Read(method: "tasks.agenda", params: ["from": .string(today), "to": .string(weekEnd)])]
        case "assistant://tasks/overdue": return [Read(method: "tasks.list", params: ["when": "overdue"])]
        case "assistant://stag/timetable/week": return [Read(method: "stag.timetable", params: [:])]
        case "assistant://kos/timetable/week": return [Read(method: "kos.timetable", params: [:])]
        case "assistant://logbook/currency": return [Read(method: "logbook.currency", params: [:])]
        case "assistant://exams/upcoming":
            var reads: [Read] = []
            if ready.contains("stag") { reads.append(Read(method: "stag.exams", params: [:], part: "stag", onlyState: "registered")) }
            if ready.contains("kos") { reads.append(Read(method: "kos.exams", params: ["mine": true], part: "kos")) }
            return reads
        default: return nil
        }
    }

    /// The printer a printer resource names (`assistant://octoprint/{printer}<suffix>`).
    public static func printer(_ uri: String, suffix: String) -> String? {
        let prefix = "assistant://octoprint/"
        guard uri.hasPrefix(prefix), uri.hasSuffix(suffix) else { return nil }
        let name = String(uri.dropFirst(prefix.count).dropLast(suffix.count))
        guard !name.isEmpty, !name.contains("/") else { return nil }
        return name.removingPercentEncoding ?? name
    }

    /// The resource's content from its calls' results: the one result, or each under its part.
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

    /// Which resources (of those given) a notice of `topic` changes.
    public static func changed(by topic: String, among uris: [String]) -> [String] {
        uris.filter { uri in
            let topics: [String]
            if Self.printer(uri, suffix: "/status") != nil || Self.printer(uri, suffix: "/webcam") != nil {
                topics = ["octoprint.print.*"]
            } else {
                topics = Self.all.first { $0.uri == uri }?.topics ?? []
            }
            return topics.contains { $0.hasSuffix("*") ? topic.hasPrefix(String($0.dropLast())) : topic == $0 }
        }
    }

    /// The prompts: what each asks and the resources it embeds.
    public static let prompts: [(name: String, description: String, text: String, uris: [String])] = [
        (
            "daily_briefing", "Today at a glance: agenda, classes, exams within 7 days, prints running, currency warnings",
            "Give me a short briefing for today from the attached views: what is on my agenda and timetable, exams in the next 7 days, "
                + "prints that are running, and any currency or medical warning. Mention only what needs my attention.",
            [
                "assistant://tasks/agenda/today", "assistant://tasks/overdue", "assistant://stag/timetable/week", "assistant://kos/timetable/week",
                "assistant://exams/upcoming", "assistant://logbook/currency",
            ]
        ),
        (
            "plan_week", "Plan the week around the agenda, the timetable and registered exams",
            "Help me plan the next 7 days from the attached views: fit my open and overdue tasks around classes and events, "
                + "leave time before each registered exam, and say what does not fit.",
            [
                "assistant://tasks/agenda/week", "assistant://tasks/overdue", "assistant://stag/timetable/week", "assistant://kos/timetable/week",
                "assistant://exams/upcoming",
            ]
        ),
    ]
}
