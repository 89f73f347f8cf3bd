import Foundation

/// The daemon itself: whether it answers, what it is doing, its clock, its day, its settings and
/// the documents of every method.
enum DaemonMethods {
    static let all: [HostMethod] = [ping, help, status, time, today, mcpSettings, configKeys, discover, pluginsList]

    static let ping = HostMethod(
        HostCommand("ping", "Check that the daemon answers", result: JSONSchema.constant("pong"), example: "assistantctl ping", effect: .read) {
            _, params, _ in try pong(params)
        }, answer: .atOnce(pong))

    @Sendable static func pong(_: Params) throws -> JSONValue { "pong" }

    static let help = HostMethod(
        HostCommand(
            "help", "List every method, or describe one with its parameters", params: [HostParams.method], result: ManifestJSON.helpSchema,
            example: "assistantctl help vault.set", effect: .read
        ) { host, params, _ in try ManifestJSON.help(host.dispatcher.methods)(params) },
        answer: .fromTable { table, _ in .immediate(ManifestJSON.help(table)) })

    static let discover = HostMethod(
        HostCommand(
            "rpc.discover", "The OpenRPC document of every method, generated from the manifests",
            result: JSONSchema.anyObject("an OpenRPC 1.2 document: every method with its parameters' and its result's JSON Schemas"),
            effect: .read
        ) { host, _, _ in ManifestJSON.openRPC(host.dispatcher.methods, version: host.options.version) },
        answer: .fromTable { table, version in
            // The manifests do not change while the daemon runs: the document is encoded once.
            let document = ManifestJSON.openRPC(table, version: version)
            return .constant(document, encoded: document.encodedBytes())
        })

    static let status = HostMethod(
        HostCommand(
            "status", "Daemon version, uptime, socket, database, plugins and jobs", example: "assistantctl status", effect: .read
        ) { host, _, _ in await status(host) }
        .view(
            ResultView(
                rows: "plugins",
                columns: [.init("id", "PLUGIN"), .init("state", "STATE"), .init("detail", "DETAIL", optional: true)],
                fields: [
                    .init("version", "Version"), .init("uptime_s", "Up", .seconds), .init("time_zone", "Time zone"), .init("socket", "Socket"),
                    .init("database", "Database"), .init("vault.locked", "Vault locked", .flag), .init("connections", "Connections"),
                    .init("calls_in_flight.total", "Calls running"), .init("sinks", "Notices to", .list), .init("outbox.pending", "Outbox"),
                    .init("dropped_notices", "Dropped notices"), .init("jobs", "Jobs", .count), .init("jobs_failing", "Jobs failing", .list),
                ],
                highlights: [.init("state", is: "failed", .red)])))

    static func status(_ host: AssistantHost) async -> StatusResult {
        var plugins: [PluginStatus] = []
        for supervisor in host.supervisors { plugins.append(await supervisor.status()) }
        let configuration = host.configuration
        return StatusResult(
            version: host.options.version, apiVersion: AssistantVersion.api, pid: getpid(), timeZone: configuration.timeZone.identifier,
            now: host.clock.now, started: host.startedAt, uptime: Int(max(0, host.clock.now.timeIntervalSince(host.startedAt))),
            socket: host.server.path, database: host.store.path, configFile: host.options.configPath,
            vault: VaultState(mode: await host.vault.mode, locked: await host.vault.isLocked), connections: host.server.connectionCount,
            callsInFlight: host.dispatcher.callsInFlight, subscribers: host.subscribers.count, droppedNotices: host.server.droppedNotices,
            sinks: await host.notices.sinkNames, sinkStatus: (try? await host.notices.sinkStatus()) ?? [],
            outbox: try? await host.notices.outboxStatus(), plugins: plugins, jobs: await host.scheduler.list())
    }

    static let time = HostMethod(
        HostCommand("time", "The daemon's clock and configured time zone (the CLI shows times in it)", effect: .read) { host, _, _ in
            let zone = host.configuration.timeZone
            let now = host.clock.now
            return TimeResult(now: now, timeZone: zone.identifier, utcOffset: zone.secondsFromGMT(for: now))
        })

    static let today = HostMethod(
        HostCommand(
            "today", "The day across plugins: tasks due or overdue, events, classes, exams within 7 days, running prints, warnings",
            params: [HostParams.date], example: "assistantctl today", timeout: .seconds(30), effect: .read
        ) { host, params, _ in await DayOverview.today(host, day: params[HostParams.date]) })

    static let mcpSettings = HostMethod(
        HostCommand("mcp.settings", "What assistantctl mcp offers an AI assistant ([mcp] in the config)", effect: .read) { host, _, _ in
            let settings = host.configuration.mcp
            return MCPSettingsResult(
                tools: settings.tools, allowDestructive: settings.allowDestructive, confirmDestructive: settings.confirmDestructive,
                filesDir: settings.filesDir ?? (host.options.dataDirectory as NSString).appendingPathComponent("files"))
        }
        .personOnly(because: HostMethods.PersonOnly.policy))

    static let configKeys = HostMethod(
        HostCommand(
            "config.keys", "Every key config.toml may hold: the host's and each plugin's, with type, default and meaning",
            example: "assistantctl config.keys", effect: .read
        ) { host, _, _ in Rows(configKeys(host)) }
        .view(ResultView(columns: [.init("key", "KEY"), .init("default", "DEFAULT"), .init("help", "MEANING")])))

    static func configKeys(_ host: AssistantHost) -> [ConfigKeyRow] {
        var keys = HostConfigKeys.all.map { ConfigKeyRow(key: $0.dotted, plugin: "host", type: $0.type, default: $0.defaultText, help: $0.help) }
        for supervisor in host.supervisors {
            let m = supervisor.manifest
            keys.append(
                ConfigKeyRow(
                    key: "plugins.\(m.id).enabled", plugin: m.id, type: "boolean", default: "true",
                    help: "false: the plugin is not started and its methods answer that it is disabled"))
            for option in m.configOptions {
                keys.append(
                    ConfigKeyRow(
                        key: "plugins.\(m.id).\(option.key)", plugin: m.id, type: option.type.name,
                        default: option.defaultValue.map { $0 == .null ? "none" : $0.encodedString() } ?? "none", help: option.help))
            }
        }
        return keys
    }

    static let pluginsList = HostMethod(
        HostCommand("plugins.list", "Plugins with their state, commands, jobs, topics and vault names", effect: .read) { host, _, _ in
            var list: [PluginEntry] = []
            for supervisor in host.supervisors { list.append(PluginEntry(status: await supervisor.status(), manifest: supervisor.manifest)) }
            return Rows(list)
        }
        .view(
            ResultView(
                columns: [
                    .init("id", "PLUGIN"), .init("state", "STATE"), .init("version", "VERSION", optional: true), .init("summary", "SUMMARY"),
                ], highlights: [.init("state", is: "failed", .red)])))
}
