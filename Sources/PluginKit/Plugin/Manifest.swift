@_exported import AssistantRPC
import Foundation

/// How a plugin describes itself. `help`, `rpc.discover`, the CLI's argument handling and the
/// README's command lists are all generated from manifests, so they never drift from the code.
public struct PluginManifest: Sendable {
    public var id: String
    public var version: String
    public var summary: String
    public var commands: [CommandDescriptor]
    public var jobs: [JobDescriptor]
    public var topics: [TopicDescriptor]
    /// Vault names the plugin reads or writes, relative to its scope (`octoprint/<name>/api_key`).
    public var vaultNames: [String]
    public var configOptions: [ConfigOption]
    public var errors: ErrorBlock?
    /// The views an AI assistant can attach (`PluginInfo.resources`).
    public var resources: [ResourceDeclaration]
    public var resourcesSetUp: ResourceDeclaration.SetUp?
    /// The plugin's parts of the web app's pages (`PluginInfo.pages`).
    public var pages: [PageDeclaration] = []

    public init(
        id: String, version: String, summary: String, commands: [CommandDescriptor] = [],
        jobs: [JobDescriptor] = [], topics: [TopicDescriptor] = [], vaultNames: [String] = [],
        configOptions: [ConfigOption] = [], errors: ErrorBlock? = nil, resources: [ResourceDeclaration] = [],
        resourcesSetUp: ResourceDeclaration.SetUp? = nil, pages: [PageDeclaration] = []
    ) {
        self.pages = pages
        self.errors = errors
        self.resources = resources
        self.resourcesSetUp = resourcesSetUp
        self.id = id
        self.version = version
        self.summary = summary
        self.commands = commands
        self.jobs = jobs
        self.topics = topics
        self.vaultNames = vaultNames
        self.configOptions = configOptions
    }
}

/// What a command does to the world, for a person (`help`) and an assistant that asks before
/// acting: reads nothing changes; a write changes the plugin's own data; a destructive one loses
/// data or acts outside (mails people, registers for an exam, moves a printer).
public enum CommandEffect: String, Sendable, CaseIterable {
    case read, write, destructive
}

/// An argument that makes a call destructive although the command is not (`notifications.send`
/// with `to`: it mails someone else), declared with the command. `help` and `rpc.discover` show
/// it (`x-destructive-when`, and the rule in words), and an assistant's client asks the person
/// before such a call as before any destructive one.
public struct DestructiveWhen: Sendable, Hashable {
    public enum Test: Sendable, Hashable {
        /// The parameter is given at all (a value that is not null).
        case given
        /// The parameter has this value.
        case equals(JSONValue)
    }

    public var param: String
    public var test: Test

    public static func given(_ param: some ParamDeclaration) -> DestructiveWhen { DestructiveWhen(param: param.spec.name, test: .given) }
    public static func given(_ param: String) -> DestructiveWhen { DestructiveWhen(param: param, test: .given) }
    public static func equals(_ param: some ParamDeclaration, _ value: JSONValue) -> DestructiveWhen {
        DestructiveWhen(param: param.spec.name, test: .equals(value))
    }
    public static func equals(_ param: String, _ value: JSONValue) -> DestructiveWhen { DestructiveWhen(param: param, test: .equals(value)) }

    /// `{"param": "to", "given": true}` or `{"param": "auto_register", "equals": true}`.
    public var json: JSONValue {
        switch test {
        case .given: ["param": .string(param), "given": true]
        case .equals(let value): ["param": .string(param), "equals": value]
        }
    }

    /// Whether the call's arguments meet the condition: given (a list must not be empty), or equal.
    public func holds(for arguments: [String: JSONValue]) -> Bool {
        guard let value = arguments[param], value != .null else { return false }
        switch test {
        case .given: return value.arrayValue.map { !$0.isEmpty } ?? true
        case .equals(let expected): return value == expected
        }
    }

    /// The rule in words: "destructive when to or attachments is given".
    public static func words(_ conditions: [DestructiveWhen]) -> String? {
        guard !conditions.isEmpty else { return nil }
        let given = conditions.filter { $0.test == .given }.map(\.param)
        var parts: [String] = []
        if !given.isEmpty { parts.append("when " + given.joined(separator: " or ") + " is given") }
        for condition in conditions {
            if case .equals(let value) = condition.test { parts.append("with \(condition.param)=\(value.encodedString())") }
        }
        return "destructive " + parts.joined(separator: ", or ")
    }
}

public struct CommandDescriptor: Sendable {
    public var name: String
    public var summary: String
    public var params: [ParamSpec]
    /// The JSON Schema of what the command returns (its description says it in words).
    public var result: JSONSchema
    public var example: String?
    /// Calls longer than this get -32005.
    public var timeout: Duration
    /// Rules over several parameters, checked after each one's own (`PluginCommand.checking`).
    public var rules: [ParamRule] = []
    /// What it does to the world: every declaration says (a command without one does not compile).
    public var effect: CommandEffect
    /// Arguments that make a call of a read or write command destructive (`PluginCommand.destructive(when:)`).
    public var destructiveWhen: [DestructiveWhen] = []
    /// Why the effect is what it is, where that is not plain (`PluginCommand.effectReason(_:)`).
    public var effectReason: String?
    /// The effect's rule in words, for `help` and `rpc.discover`: when the arguments make it
    /// destructive, or why it is what it is.
    public var effectRule: String? { DestructiveWhen.words(destructiveWhen) ?? effectReason }
    /// Why only a person may call it, with assistantctl, and an AI assistant never (it reaches
    /// any address, holds the host's shell commands, hands out accounts); nil: it may be offered.
    /// `rpc.discover` says it as `x-person-only`.
    public var personOnly: String?
    /// The call talks to a service beyond this machine (a study system, a printer, a CalDAV server,
    /// a mail server): MCP's `openWorldHint`, said as `x-open-world` by `rpc.discover`. A plugin
    /// whose every command does says so once (`PluginInfo(reachesOutside:)`).
    public var reachesOutside = false
    /// How a person sees the result in a terminal (`PluginCommand.view`); nil: the generic table.
    public var view: ResultView?
    /// The question a person answers before a destructive call (`PluginCommand.confirm`):
    /// every command that may be destructive declares one.
    public var confirm: ConfirmSentence?
    /// What the command says it did, in a line or two (`PluginCommand.says`): every command whose
    /// effect is not `read` declares one.
    public var says: ShortAnswer?
    /// How the change is taken back (`PluginCommand.undoneBy`); nil: no undo is offered.
    public var undo: UndoDeclaration?

    public init(
        name: String, summary: String, params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, destructiveWhen: [DestructiveWhen] = [], personOnly: String? = nil,
        reachesOutside: Bool = false, view: ResultView? = nil, confirm: ConfirmSentence? = nil
    ) {
        self.reachesOutside = reachesOutside
        self.confirm = confirm
        self.effect = effect
        self.destructiveWhen = destructiveWhen
        self.personOnly = personOnly
        self.view = view
        self.name = name
        self.summary = summary
        self.params = params
        self.result = result
        self.example = example
        self.timeout = timeout
    }
}

public indirect enum ParamType: Sendable, Hashable {
    case string
    case integer(min: Int64? = nil, max: Int64? = nil)
    case number(min: Double? = nil, max: Double? = nil)
    case boolean
    case object
    case array(of: ParamType?)
    /// A file system path. The CLI makes it absolute before sending because the daemon resolves it.
    case path
    /// Never accepted from argv by the CLI; redacted from every result, log line and error.
    case secret
    case oneOf([String])
    /// A duration in minutes: a JSON integer, or a string the plugin parses (`"1:30"`, `"1.5"`
    /// hours). A JSON number with a fraction is refused: `1.5` could mean hours or minutes.
    case duration
    /// An ISO 8601 date (YYYY-MM-DD).
    case date
    /// An ISO 8601 date-time in UTC.
    case dateTime
    case any

    public var name: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .object: "object"
        case .array: "array"
        case .path: "path"
        case .secret: "secret"
        case .oneOf: "enum"
        case .duration: "duration"
        case .date: "date"
        case .dateTime: "datetime"
        case .any: "any"
        }
    }
}

public struct ParamSpec: Sendable {
    public var name: String
    public var type: ParamType
    public var required: Bool
    public var defaultValue: JSONValue?
    public var help: String

    public init(_ name: String, _ type: ParamType, required: Bool = false, default defaultValue: JSONValue? = nil, help: String) {
        self.name = name
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.help = help
    }
}

public enum JobSchedule: Sendable, Hashable {
    /// Every `interval`, measured from the last run.
    case every(Duration)
    /// Once a day at this wall-clock time in the configured time zone.
    case daily(hour: Int, minute: Int)
    /// Every N minutes, N read from the plugin's own config option (its `default` when unset), so
    /// a person sets a poll interval (`feeds_every_min = 30`) without a second schedule syntax.
    case everyMinutes(option: String, default: Int64)
    /// Once a day at the "HH:MM" of the plugin's own config option (its `default` when unset or
    /// not a time), e.g. a digest at `digest_at`.
    case dailyAt(option: String, default: String)

    /// Every N minutes, N the value of a plugin's option: `.everyMinutes(StagConfig.refreshEveryMin)`.
    public static func everyMinutes(_ key: ConfigKey<Int64>) -> JobSchedule { .everyMinutes(option: key.key, default: key.defaultValue) }

    /// Once a day at the "HH:MM" of a plugin's option: `.dailyAt(TasksConfig.digestAt)`.
    public static func dailyAt(_ key: ConfigKey<String>) -> JobSchedule { .dailyAt(option: key.key, default: key.defaultValue) }

    /// The schedule with a configured interval or time read from the plugin's config.
    public func resolved(with config: PluginConfig) -> JobSchedule {
        switch self {
        case .everyMinutes(let option, let fallback):
            return .every(.seconds(max(1, config.int(option) ?? fallback) * 60))
        case .dailyAt(let option, let fallback):
            let (hour, minute) = Self.clockTime(config.string(option) ?? fallback) ?? Self.clockTime(fallback) ?? (7, 0)
            return .daily(hour: hour, minute: minute)
        default:
            return self
        }
    }

    /// "HH:MM" → (hour, minute), or nil.
    public static func clockTime(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
        return (h, m)
    }
}

public struct JobDescriptor: Sendable {
    /// Local id; the scheduler knows it as `<plugin>.<id>`.
    public var id: String
    public var summary: String
    public var schedule: JobSchedule
    public var jitter: Duration
    public var timeout: Duration

    public init(id: String, summary: String, schedule: JobSchedule, jitter: Duration = .zero, timeout: Duration = .seconds(300)) {
        self.id = id
        self.summary = summary
        self.schedule = schedule
        self.jitter = jitter
        self.timeout = timeout
    }
}

/// A topic as the manifest lists it (`help`, `plugins.list`, the README); its encoding is how
/// `plugins.list` shows it.
public struct TopicDescriptor: Sendable, ResultObject {
    public var topic: String
    public var summary: String
    /// The severity a notice of this topic has unless the plugin says otherwise.
    public var severity: Severity
    public init(_ topic: String, _ summary: String, severity: Severity = .info) {
        self.topic = topic
        self.summary = summary
        self.severity = severity
    }

    public static let members = ResultMembers<Self>(.field("topic", \.topic), .field("summary", \.summary), .field("severity", \.severity))
}

/// The notice topics of one plugin, declared once as the cases of an enum:
///
///     enum TasksTopic: String, PluginTopic {
///         case reminder = "tasks.reminder"
///         var summary: String { switch self { case .reminder: "a task's reminder" } }
///     }
///
/// The manifest lists `allCases`, and `PluginNotifier.post` takes only a case, so posting a topic
/// the manifest does not list does not compile.
public protocol PluginTopic: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    var summary: String { get }
    /// The severity of this topic's notices unless a post says otherwise (default info).
    var severity: Severity { get }
}

extension PluginTopic {
    public var severity: Severity { .info }

    public static var descriptors: [TopicDescriptor] { allCases.map { TopicDescriptor($0.rawValue, $0.summary, severity: $0.severity) } }
}

/// A plugin without notices.
public enum NoTopics: String, PluginTopic {
    case never = ""
    public static var allCases: [NoTopics] { [] }
    public var summary: String { "" }
}

public struct ConfigOption: Sendable {
    public var key: String
    public var type: ParamType
    public var defaultValue: JSONValue?
    public var help: String
    public init(_ key: String, _ type: ParamType, default defaultValue: JSONValue? = nil, help: String) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.help = help
    }
}
