import Foundation

/// `status`: the daemon, its vault, its connections, its sinks, its plugins and its jobs.
struct StatusResult: CallResult, ResultObject {
    let version: String
    let apiVersion: String
    let pid: Int32
    let timeZone: String
    let now: Date
    let started: Date
    let uptime: Int
    let socket: String
    let database: String
    let configFile: String?
    let vault: VaultState
    let connections: Int
    let callsInFlight: Dispatcher.CallsInFlight
    let subscribers: Int
    let droppedNotices: Int
    let sinks: [String]
    let sinkStatus: [NoticeCenter.SinkStanding]
    let outbox: NoticeCenter.OutboxCounts?
    let plugins: [PluginStatus]
    let jobs: [JobStatus]

    /// The jobs whose last run did not succeed, by id.
    var jobsFailing: [String] { jobs.filter { $0.lastOutcome.map { $0 != "ok" } ?? false }.map(\.id) }

    static let members = ResultMembers<Self>(
        .field("version", \.version), .field("api_version", \.apiVersion), .field("pid", \.pid, .integer), .field("time_zone", \.timeZone),
        .instant("now", \.now), .instant("started", \.started), .field("uptime_s", \.uptime), .field("socket", \.socket),
        .field("database", \.database), .field("config_file", \.configFile), .field("vault", \.vault), .field("connections", \.connections),
        .field("calls_in_flight", \.callsInFlight), .field("subscribers", \.subscribers), .field("dropped_notices", \.droppedNotices),
        .field("sinks", \.sinks), .field("sink_status", \.sinkStatus), .field("outbox", \.outbox), .field("plugins", \.plugins),
        .field("jobs", \.jobs), .field("jobs_failing", \.jobsFailing, "the jobs whose last run did not succeed (jobs.list has them all)"))
}

/// The vault's key mode and whether it is locked (`status`).
struct VaultState: Sendable, ResultObject {
    let mode: String
    let locked: Bool

    static let members = ResultMembers<Self>(.field("mode", \.mode, VaultMethods.modeSchema), .field("locked", \.locked))
}

/// A plugin as `status` and `plugins.list` show it: its state, and each account's when it has
/// accounts.
public struct PluginStatus: Sendable, ResultObject {
    public let id: String
    public let version: String
    public let state: PluginState
    public let summary: String
    public let detail: String?
    public let nextRetry: String?
    public let accounts: [Accounts.Standing]?

    public static let members = ResultMembers<Self>(
        .field("id", \.id), .field("version", \.version), .field("summary", \.summary), .field("state", \.state), .field("detail", \.detail),
        .omittedWhenNil("next_retry", \.nextRetry, .dateTime), .omittedWhenNil("accounts", \.accounts))
}

extension PluginState: ResultDescribing {}

/// `plugins.list`: a plugin's status, then what its manifest declares.
struct PluginEntry: Sendable, ResultObject {
    struct ErrorCode: Sendable, ResultObject {
        let code: Int
        let meaning: String

        static let members = ResultMembers<Self>(.field("code", \.code), .field("meaning", \.meaning))
    }

    struct Option: Sendable, ResultObject {
        let key: String
        let type: String
        let `default`: JSONValue
        let help: String

        static let members = ResultMembers<Self>(
            .field("key", \.key), .field("type", \.type), .field("default", \.default, .any("the default, or null")), .field("help", \.help))
    }

    let status: PluginStatus
    let commands: [String]
    let jobs: [String]
    let topics: [TopicDescriptor]
    let vaultNames: [String]
    let errors: [ErrorCode]
    let configOptions: [Option]
    let resources: [ResourceDeclaration]
    let resourcesSetUp: ResourceDeclaration.SetUp?
    let pages: [PageDeclaration]

    static let members = ResultMembers<Self>(
        .flattened(\.status), .field("commands", \.commands), .field("jobs", \.jobs), .field("topics", \.topics),
        .field("vault_names", \.vaultNames), .field("errors", \.errors, "the plugin's own error codes"),
        .field("config_options", \.configOptions),
        .field("resources", \.resources, "the views an AI assistant can attach (MCP resources), declared in the manifest"),
        .field(
            "resources_set_up", \.resourcesSetUp,
            "the read whose member (a list that is not empty, or true) says the plugin has views; null: ready is enough"),
        .field("pages", \.pages, "its parts of the web app's pages, declared in the manifest"))

    init(status: PluginStatus, manifest m: PluginManifest) {
        self.status = status
        commands = m.commands.map(\.name)
        jobs = m.jobs.map { "\(m.id).\($0.id)" }
        topics = m.topics
        vaultNames = m.vaultNames.map { "\(m.id)/\($0)" }
        errors = (m.errors?.codes ?? [:]).sorted { $0.key < $1.key }.map { ErrorCode(code: $0.key, meaning: $0.value) }
        configOptions = m.configOptions.map { Option(key: $0.key, type: $0.type.name, default: $0.defaultValue ?? .null, help: $0.help) }
        resources = m.resources
        resourcesSetUp = m.resourcesSetUp
        pages = m.pages
    }
}
