import Foundation

// The host's own methods answer with typed results written straight into the reply by the
// scrubbing stream encoder, as plugin commands do; their schemas are in HostMethods and
// HostSchemas, and ResultSchemaTests holds each answer to its schema.

extension JobStatus: CallResult {}
extension Notice: CallResult {}

/// A list of typed rows (jobs, vault entries, notices) is a result as it is.
struct Rows<Row: Encodable & Sendable>: Encodable, CallResult {
    let rows: [Row]
    init(_ rows: [Row]) { self.rows = rows }
    func encode(to encoder: any Encoder) throws { try rows.encode(to: encoder) }
}

struct TimeResult: Encodable, CallResult {
    let now: String
    let timeZone: String
    let utcOffset: Int

    enum CodingKeys: String, CodingKey {
        case now
        case timeZone = "time_zone"
        case utcOffset = "utc_offset_s"
    }
}

struct MCPSettingsResult: Encodable, CallResult {
    let tools: [String]
    let allowDestructive: Bool
    let confirmDestructive: Bool
    let filesDir: String

    enum CodingKeys: String, CodingKey {
        case tools
        case allowDestructive = "allow_destructive"
        case confirmDestructive = "confirm_destructive"
        case filesDir = "files_dir"
    }
}

struct ConfigKeyRow: Encodable, Sendable {
    let key: String
    let plugin: String
    let type: String
    let `default`: String
    let help: String
}

struct VaultStored: Encodable, CallResult {
    let name: String
    let stored = true
}

struct VaultDeleted: Encodable, CallResult {
    let name: String
    let deleted = true
}

struct VaultState: Encodable, CallResult {
    let mode: String
    let locked: Bool
}

struct VaultStatusResult: Encodable, CallResult {
    let mode: String
    let locked: Bool
    let entries: Int
}

struct VaultLockResult: Encodable, CallResult {
    let locked: Bool
}

struct VaultRekeyed: Encodable, CallResult {
    let rekeyed: Int
}

struct DuplicateNotice: Encodable, CallResult {
    let duplicate = true
}

struct SubscribedResult: Encodable, CallResult {
    let subscribed: [String]
}

struct UnsubscribedResult: Encodable, CallResult {
    let unsubscribed: Bool
}

struct BackupResult: Encodable, CallResult {
    let path: String
    let bytes: Int
}

/// `status`: the daemon's own fields typed; the parts the plugins, the outbox and the sinks
/// describe are their JSON (each has its own schema in HostSchemas).
struct StatusResult: Encodable, CallResult {
    let version: String
    let apiVersion: String
    let pid: Int32
    let timeZone: String
    let now: String
    let started: String
    let uptime: Int
    let socket: String
    let database: String
    let configFile: String?
    let vault: VaultState
    let connections: Int
    let callsInFlight: JSONValue
    let subscribers: Int
    let droppedNotices: Int
    let sinks: [String]
    let sinkStatus: JSONValue
    let outbox: JSONValue
    let plugins: [PluginStatus]
    let jobs: [JobStatus]

    enum CodingKeys: String, CodingKey {
        case version, pid, now, started, socket, database, vault, connections, subscribers, sinks, outbox, plugins, jobs
        case apiVersion = "api_version"
        case timeZone = "time_zone"
        case uptime = "uptime_s"
        case configFile = "config_file"
        case callsInFlight = "calls_in_flight"
        case droppedNotices = "dropped_notices"
        case sinkStatus = "sink_status"
    }

    // `config_file` is always there, null when no file was read.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(apiVersion, forKey: .apiVersion)
        try c.encode(pid, forKey: .pid)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(now, forKey: .now)
        try c.encode(started, forKey: .started)
        try c.encode(uptime, forKey: .uptime)
        try c.encode(socket, forKey: .socket)
        try c.encode(database, forKey: .database)
        try c.encode(configFile, forKey: .configFile)
        try c.encode(vault, forKey: .vault)
        try c.encode(connections, forKey: .connections)
        try c.encode(callsInFlight, forKey: .callsInFlight)
        try c.encode(subscribers, forKey: .subscribers)
        try c.encode(droppedNotices, forKey: .droppedNotices)
        try c.encode(sinks, forKey: .sinks)
        try c.encode(sinkStatus, forKey: .sinkStatus)
        try c.encode(outbox, forKey: .outbox)
        try c.encode(plugins, forKey: .plugins)
        try c.encode(jobs, forKey: .jobs)
    }
}

/// A plugin as `status` and `plugins.list` show it: its state, and each account's when it has
/// accounts. `detail` is always written; `next_retry` and `accounts` only when there are some.
public struct PluginStatus: Encodable, Sendable {
    public let id: String
    public let version: String
    public let state: String
    public let summary: String
    public let detail: String?
    public let nextRetry: String?
    /// The kit's per-account states (`Accounts.statusJSON`).
    public let accounts: JSONValue?

    enum CodingKeys: String, CodingKey {
        case id, version, state, summary, detail, accounts
        case nextRetry = "next_retry"
    }

    public func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(id, forKey: .id)
        try o.encode(version, forKey: .version)
        try o.encode(state, forKey: .state)
        try o.encode(summary, forKey: .summary)
        try o.encode(detail, forKey: .detail)
        try o.encodeIfPresent(nextRetry, forKey: .nextRetry)
        try o.encodeIfPresent(accounts, forKey: .accounts)
    }
}

/// `plugins.list`: a plugin's status, then what its manifest declares.
struct PluginEntry: Encodable, Sendable {
    struct ErrorCode: Encodable, Sendable {
        let code: Int
        let meaning: String
    }
    struct Option: Encodable, Sendable {
        let key: String
        let type: String
        let `default`: JSONValue
        let help: String
    }

    let status: PluginStatus
    let commands: [String]
    let jobs: [String]
    let topics: [TopicDescriptor]
    let vaultNames: [String]
    let errors: [ErrorCode]
    let configOptions: [Option]
    let resources: [JSONValue]
    let resourcesSetUp: JSONValue?

    enum CodingKeys: String, CodingKey {
        case commands, jobs, topics, errors, resources
        case vaultNames = "vault_names", configOptions = "config_options", resourcesSetUp = "resources_set_up"
    }

    init(status: PluginStatus, manifest m: PluginManifest) {
        self.status = status
        commands = m.commands.map(\.name)
        jobs = m.jobs.map { "\(m.id).\($0.id)" }
        topics = m.topics
        vaultNames = m.vaultNames.map { "\(m.id)/\($0)" }
        errors = (m.errors?.codes ?? [:]).sorted { $0.key < $1.key }.map { ErrorCode(code: $0.key, meaning: $0.value) }
        configOptions = m.configOptions.map { Option(key: $0.key, type: $0.type.name, default: $0.defaultValue ?? .null, help: $0.help) }
        resources = m.resources.map(\.json)
        resourcesSetUp = m.resourcesSetUp?.json
    }

    /// The status's members, then the manifest's, in one object.
    func encode(to encoder: any Encoder) throws {
        try status.encode(to: encoder)
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(commands, forKey: .commands)
        try o.encode(jobs, forKey: .jobs)
        try o.encode(topics, forKey: .topics)
        try o.encode(vaultNames, forKey: .vaultNames)
        try o.encode(errors, forKey: .errors)
        try o.encode(configOptions, forKey: .configOptions)
        try o.encode(resources, forKey: .resources)
        try o.encode(resourcesSetUp ?? .null, forKey: .resourcesSetUp)
    }
}

/// `notifications.test`: each sink's answer to a test notice.
struct SinkTests: Encodable, CallResult {
    let sinks: [SinkTested]
}

/// One sink's answer: `ms` when it took the notice, `error` when not (each left out otherwise).
public struct SinkTested: Encodable, Sendable {
    let sink: String
    let ok: Bool
    let ms: Double?
    let error: String?
}
