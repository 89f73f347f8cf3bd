import Foundation

/// The host's own method set. It goes through the same manifest, validation and registry path
/// as every plugin's commands, which is what proves the registry.
struct HostMethod: Sendable {
    enum Body: Sendable {
        case call(@Sendable (AssistantHost, Params, CallContext) async throws -> any CallResult)
        /// A method that never suspends and needs no host: answered at once, with no child task.
        case immediate(@Sendable (Params) throws -> JSONValue)
        /// A method answered from the finished method table (the manifests' own documents), whose
        /// handler is made once the table is whole: it describes every method, itself included.
        case fromTable(@Sendable (MethodTable, _ version: String) -> MethodHandler)
    }

    let descriptor: CommandDescriptor
    let body: Body

    /// A method whose answer is free-form or put together from other parts' JSON.
    init(descriptor: CommandDescriptor, run: @escaping @Sendable (AssistantHost, Params, CallContext) async throws -> JSONValue) {
        self.descriptor = descriptor
        body = .call { host, params, context in try await run(host, params, context) }
    }

    /// A method with a typed result, written straight into the reply.
    init(descriptor: CommandDescriptor, typed run: @escaping @Sendable (AssistantHost, Params, CallContext) async throws -> any CallResult) {
        self.descriptor = descriptor
        body = .call(run)
    }

    init(descriptor: CommandDescriptor, immediate: @escaping @Sendable (Params) throws -> JSONValue) {
        self.descriptor = descriptor
        body = .immediate(immediate)
    }

    init(descriptor: CommandDescriptor, fromTable make: @escaping @Sendable (MethodTable, _ version: String) -> MethodHandler) {
        self.descriptor = descriptor
        body = .fromTable(make)
    }
}

enum HostMethods {
    /// Why a host method is never offered to an AI assistant (`CommandDescriptor.personOnly`).
    enum PersonOnly {
        static let vault = "the vault is kept by a person (assistantctl vault)"
        static let policy = "it is the policy itself"
        static let stream = "it streams notices to a connection"
        static let backup = "it copies the whole database"
    }

    static let all: [HostMethod] = [
        HostMethod(
            descriptor: CommandDescriptor(
                name: "ping", summary: "Check that the daemon answers", result: JSONSchema.constant("pong"), example: "assistantctl ping",
                effect: .read)
        ) {
            _ in "pong"
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "help", summary: "List every method, or describe one with its parameters",
                params: [ParamSpec("method", .string, help: "a method name such as vault.set")],
                result: HostSchemas.help,
                example: "assistantctl help vault.set", effect: .read)
        ) { table, _ in
            .immediate(ManifestJSON.help(table))
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "status", summary: "Daemon version, uptime, socket, database, plugins and jobs", result: HostSchemas.status,
                example: "assistantctl status", effect: .read,
                view: ResultView(
                    rows: "plugins",
                    columns: [.init("id", "PLUGIN"), .init("state", "STATE"), .init("detail", "DETAIL", optional: true)],
                    fields: [
                        .init("version", "Version"), .init("uptime_s", "Up", .seconds), .init("time_zone", "Time zone"), .init("socket", "Socket"),
                        .init("database", "Database"), .init("vault.locked", "Vault locked", .flag), .init("connections", "Connections"),
                        .init("calls_in_flight.total", "Calls running"), .init("sinks", "Notices to", .list), .init("outbox.pending", "Outbox"),
                        .init("dropped_notices", "Dropped notices"),
                    ],
                    highlights: [.init("state", is: "failed", .red)]))
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            await status(host)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "time", summary: "The daemon's clock and configured time zone (the CLI shows times in it)",
                result: JSONSchema.object(["now": .dateTime, "time_zone": .string, "utc_offset_s": .integer]), effect: .read)
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            let zone = host.configuration.timeZone
            let now = host.clock.now
            return TimeResult(now: ISO8601.string(now), timeZone: zone.identifier, utcOffset: zone.secondsFromGMT(for: now))
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "today",
                summary: "The day across plugins: tasks due or overdue, events, classes, exams within 7 days, running prints, warnings",
                params: [ParamSpec("date", .date, help: "the day (YYYY-MM-DD), in the configured time zone; default today")],
                result: HostSchemas.today, example: "assistantctl today", timeout: .seconds(30), effect: .read)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            try await DayOverview.today(host, params)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "mcp.settings", summary: "What assistantctl mcp offers an AI assistant ([mcp] in the config)",
                result: JSONSchema.object([
                    "tools": JSONSchema.array(.string).described("method names or prefixes ending in *; empty: all that may be offered"),
                    "allow_destructive": .boolean, "confirm_destructive": .boolean,
                    "files_dir": JSONSchema.string.described("where file paths may point when the client declares no roots"),
                ]), effect: .read, personOnly: PersonOnly.policy)
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            let settings = host.configuration.mcp
            return MCPSettingsResult(
                tools: settings.tools, allowDestructive: settings.allowDestructive, confirmDestructive: settings.confirmDestructive,
                filesDir: settings.filesDir ?? (host.options.dataDirectory as NSString).appendingPathComponent("files"))
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "config.keys", summary: "Every key config.toml may hold: the host's and each plugin's, with type, default and meaning",
                result: JSONSchema.array(
                    .object([
                        "key": JSONSchema.string.described("the dotted key, e.g. notify.mail.to or plugins.tasks.mail_to"),
                        "plugin": JSONSchema.string.described("the plugin the key belongs to; host for the daemon's own"), "type": .string,
                        "default": JSONSchema.string.described("the default as TOML text, or how it is worked out"), "help": .string,
                    ])), example: "assistantctl config.keys", effect: .read,
                view: ResultView(columns: [.init("key", "KEY"), .init("default", "DEFAULT"), .init("help", "MEANING")]))
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            var keys = HostConfigKeys.all.map {
                ConfigKeyRow(key: $0.dotted, plugin: "host", type: $0.type, default: $0.defaultText, help: $0.help)
            }
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
            return Rows(keys)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "rpc.discover", summary: "The OpenRPC document of every method, generated from the manifests",
                result: JSONSchema.anyObject("an OpenRPC 1.2 document: every method with its parameters' and its result's JSON Schemas"),
                effect: .read)
        ) { table, version in
            // The manifests do not change while the daemon runs: the document is encoded once.
            let document = ManifestJSON.openRPC(table, version: version)
            return .constant(document, encoded: document.encodedBytes())
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "plugins.list", summary: "Plugins with their state, commands, jobs, topics and vault names",
                result: JSONSchema.array(HostSchemas.pluginEntry), effect: .read,
                view: ResultView(
                    columns: [
                        .init("id", "PLUGIN"), .init("state", "STATE"), .init("version", "VERSION", optional: true), .init("summary", "SUMMARY"),
                    ], highlights: [.init("state", is: "failed", .red)]))
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            var list: [PluginEntry] = []
            for supervisor in host.supervisors { list.append(PluginEntry(status: await supervisor.status(), manifest: supervisor.manifest)) }
            return Rows(list)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "jobs.list", summary: "Periodic jobs with last and next run and last outcome",
                result: JSONSchema.array(HostSchemas.job), effect: .read,
                view: ResultView(
                    columns: [
                        .init("id", "JOB"), .init("last_outcome", "LAST"), .init("last_run", "RAN", .when, optional: true),
                        .init("next_run", "NEXT", .when), .init("last_error", "ERROR"),
                    ], highlights: [.init("last_outcome", is: "failed", .red), .init("last_outcome", is: "timeout", .red)]))
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            Rows(await host.scheduler.list())
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "jobs.run", summary: "Run a job now (refused while it is already running)",
                params: [ParamSpec("id", .string, required: true, help: "job id as listed by jobs.list, e.g. host.prune")],
                result: HostSchemas.job.described("the job's status after the run"), example: "assistantctl jobs.run id=host.prune",
                // A job keeps its own time limit; the call outlasts the longest.
                timeout: .seconds(3600), effect: .write)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            try await host.scheduler.runNow(try params.requiredString("id"))
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "vault.set", summary: "Store a secret (the CLI reads it from stdin or a prompt, never from argv)",
                params: [
                    ParamSpec("name", .string, required: true, help: "<plugin>/<name>, e.g. host/smtp/password"),
                    ParamSpec("secret", .secret, required: true, help: "the secret value"),
                ], result: JSONSchema.object(["name": .string, "stored": .constant(true)]), example: "assistantctl vault set host/smtp/password",
                effect: .write, personOnly: PersonOnly.vault)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            let name = try params.requiredString("name")
            let scope = String(name.prefix { $0 != "/" })
            guard scope == "host" || host.supervisor(scope) != nil else {
                throw RPCError.invalidParam(
                    "name", "must start with 'host/' or a plugin id (\(host.supervisors.map(\.id).joined(separator: ", "))), got '\(name)'")
            }
            let secret = try params.requiredString("secret")
            if name.hasPrefix("host/webhook/"), name.hasSuffix("/secret"), secret.utf8.count < AssistantHost.minimumWebhookSecretBytes {
                throw RPCError.invalidParam(
                    "secret", "a webhook secret needs at least \(AssistantHost.minimumWebhookSecretBytes) bytes (e.g. openssl rand -hex 32)")
            }
            try await vaultCall { try await host.vault.set(name, secret: secret) }
            await host.supervisor(scope)?.credentialsChanged()
            return VaultStored(name: name)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "vault.list", summary: "Vault entry names and timestamps (never values)",
                params: [ParamSpec("prefix", .string, help: "only names starting with this, e.g. octoprint/")],
                result: JSONSchema.array(HostSchemas.vaultEntry), effect: .read, personOnly: PersonOnly.vault,
                view: ResultView(columns: [
                    .init("name", "NAME"), .init("updated_at", "UPDATED", .when), .init("created_at", "CREATED", .when, optional: true),
                ]))
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            Rows(try await vaultCall { try await host.vault.list(prefix: params.string("prefix")) })
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "vault.delete", summary: "Delete a vault entry",
                params: [ParamSpec("name", .string, required: true, help: "the entry's full name")],
                result: JSONSchema.object(["name": .string, "deleted": .constant(true)]), effect: .destructive, personOnly: PersonOnly.vault)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            let name = try params.requiredString("name")
            guard try await vaultCall({ try await host.vault.delete(name) }) else {
                throw RPCError.invalidParam("name", "names no vault entry ('\(name)'); see 'vault.list'")
            }
            return VaultDeleted(name: name)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "vault.status", summary: "Whether the vault is locked, and its key mode",
                result: JSONSchema.object(["mode": .enumeration(["keyfile", "passphrase"]), "locked": .boolean, "entries": .integer]), effect: .read,
                personOnly: PersonOnly.vault)
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            let entries = try await host.vault.list(prefix: nil).count
            return VaultStatusResult(mode: await host.vault.mode, locked: await host.vault.isLocked, entries: entries)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "vault.unlock", summary: "Unlock a passphrase vault (the first unlock sets the passphrase)",
                params: [ParamSpec("passphrase", .secret, required: true, help: "the vault passphrase")],
                result: JSONSchema.object(["locked": .constant(false)]), effect: .write, personOnly: PersonOnly.vault)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            try await vaultCall { try await host.vault.unlock(passphrase: try params.requiredString("passphrase")) }
            for supervisor in host.supervisors { await supervisor.credentialsChanged() }
            return VaultLockResult(locked: false)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "vault.lock", summary: "Forget the key of a passphrase vault until the next unlock",
                result: JSONSchema.object(["locked": .constant(true)]), effect: .write, personOnly: PersonOnly.vault)
        ) { (host: AssistantHost, _: Params, _: CallContext) async throws -> any CallResult in
            try await vaultCall { try await host.vault.lock() }
            return VaultLockResult(locked: true)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "vault.rekey", summary: "Re-encrypt every entry under a new key (a new key file, or a new passphrase)",
                params: [ParamSpec("passphrase", .secret, help: "the new passphrase (passphrase mode only)")],
                result: JSONSchema.object(["rekeyed": JSONSchema.integer.described("entries re-encrypted")]), effect: .write,
                personOnly: PersonOnly.vault)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            try await vaultCall { try await host.vault.rekey(newPassphrase: params.string("passphrase")) }
            return VaultRekeyed(rekeyed: try await host.vault.list(prefix: nil).count)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "notifications.send", summary: "Send a notice through the configured sinks, or mail one address directly",
                params: [
                    ParamSpec("title", .string, required: true, help: "one-line title (the mail subject)"),
                    ParamSpec("body", .string, required: true, help: "the text"),
                    ParamSpec("topic", .string, default: "host.manual", help: "topic for routing and subscriptions"),
                    ParamSpec(
                        "severity", .oneOf(Severity.allCases.map(\.rawValue)), default: "info", help: "debug, info, warning, error or critical"),
                    ParamSpec("to", .string, help: "mail this address directly instead of routing by topic"),
                    ParamSpec("attachments", .array(of: .path), help: "files to attach (absolute paths; the CLI resolves relative ones)"),
                    ParamSpec("dedupe_key", .string, help: "a notice with a key seen before is dropped"),
                    ParamSpec("link", .string, help: "an http(s) address the notice points to (a phone opens it on a tap)"),
                ], result: JSONSchema.anyOf([HostSchemas.notice, .object(["duplicate": .constant(true)])]),
                example: "assistantctl notifications.send title=Hello body='It works'", effect: .write,
                destructiveWhen: [.given("to"), .given("attachments")], reachesOutside: true,
                confirm: ConfirmSentence([
                    "Mail {attachments} to {to} (subject “{title}”)?", "Mail “{title}” to {to}?",
                    "Send {attachments} with the notice “{title}” through the configured sinks[ of topic {topic}]?",
                ]))
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            let topic = try params.requiredString("topic")
            guard !topic.isEmpty, topic.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else {
                throw RPCError.invalidParam("topic", "must be dotted words such as host.manual, got '\(topic)'")
            }
            let attachments = try (params.array("attachments") ?? []).compactMap(\.stringValue).map { try OutgoingAttachment.file(atPath: $0) }
            let link = params.string("link")
            if let link, !ConfigLoader.isWebURL(link) {
                throw RPCError.invalidParam("link", "must be an http:// or https:// address, got '\(link)'")
            }
            var draft = NoticeDraft(
                topic: topic, plugin: "host", title: try params.requiredString("title"), body: try params.requiredString("body"),
                severity: Severity(rawValue: params.string("severity") ?? "info") ?? .info, dedupeKey: params.string("dedupe_key"),
                attachments: attachments, directRecipient: params.string("to"))
            draft.link = link
            guard let notice = try await host.notices.post(draft) else { return DuplicateNotice() }
            return notice
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "notifications.test", summary: "Send a test notice straight to one sink or every sink, and report each one's answer",
                params: [ParamSpec("sink", .string, help: "a sink's name as status lists it (stdout, mail, ntfy, webhook.NAME, desktop)")],
                result: JSONSchema.object(["sinks": .array(HostSchemas.sinkTest)]),
                example: "assistantctl notifications.test sink=ntfy", effect: .write,
                view: ResultView(
                    rows: "sinks", columns: [.init("sink", "SINK"), .init("ok", "OK", .flag), .init("ms", "MS"), .init("error", "ERROR")],
                    highlights: [.init("ok", is: false, .red)]))
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            SinkTests(sinks: try await host.notices.test(sink: params.string("sink"), hostName: ProcessInfo.processInfo.hostName))
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "notifications.list", summary: "Recent notices, newest first",
                params: [
                    ParamSpec("limit", .integer(min: 1, max: 10_000), default: 50, help: "how many"),
                    ParamSpec("topic", .string, help: "a topic or a prefix pattern such as octoprint.*"),
                ], result: JSONSchema.array(HostSchemas.notice).described("newest first"), effect: .read)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            let limit = Int(params.int("limit") ?? 50)
            return Rows(try await host.notices.list(limit: limit, topic: params.string("topic").map(TopicPattern.init)))
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "subscribe", summary: "Receive notices on this connection as 'notice' notifications",
                params: [ParamSpec("topics", .array(of: .string), help: "topics or prefix patterns (octoprint.*); none means all")],
                result: JSONSchema.object(["subscribed": .array(.string)]), example: "assistantctl watch 'octoprint.*'", effect: .read,
                personOnly: PersonOnly.stream)
        ) { (host: AssistantHost, params: Params, context: CallContext) async throws -> any CallResult in
            guard let connection = context.connection else { throw RPCError.invalidRequest("subscribe needs a socket connection") }
            let topics = (params.array("topics") ?? []).compactMap(\.stringValue)
            host.subscribers.subscribe(connection, patterns: topics.map(TopicPattern.init))
            return SubscribedResult(subscribed: topics)
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "unsubscribe", summary: "Stop receiving notices on this connection", result: JSONSchema.object(["unsubscribed": .boolean]),
                effect: .read, personOnly: PersonOnly.stream)
        ) {
            (host: AssistantHost, _: Params, context: CallContext) async throws -> any CallResult in
            guard let connection = context.connection else { return UnsubscribedResult(unsubscribed: false) }
            return UnsubscribedResult(unsubscribed: host.subscribers.unsubscribe(connection.connectionID))
        },
        HostMethod(
            descriptor: CommandDescriptor(
                name: "backup", summary: "Write a consistent copy of the database while the daemon runs",
                params: [
                    ParamSpec("path", .path, required: true, help: "where to write the copy"),
                    ParamSpec("overwrite", .boolean, default: false, help: "replace an existing file"),
                ], result: JSONSchema.object(["path": .string, "bytes": .integer]), example: "assistantctl backup path=backup.sqlite",
                timeout: .seconds(3600), effect: .write, destructiveWhen: [.equals("overwrite", true)], personOnly: PersonOnly.backup)
        ) { (host: AssistantHost, params: Params, _: CallContext) async throws -> any CallResult in
            let path = try params.requiredString("path")
            if params.bool("overwrite") != true { try FileOutput.checkFree(path, param: "path") }
            let directory = (path as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw RPCError.invalidParam("path", "the directory '\(directory)' does not exist")
            }
            // A whole-database copy: on NIO's thread pool, not a cooperative thread.
            let store = host.store
            do { try await runBlocking { try store.backup(to: path) } } catch {
                throw RPCError(
                    code: RPCErrorCode.internalError, message: "Backup failed: \(ErrorText.sentence(error))", data: ["path": .string(path)])
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return BackupResult(path: path, bytes: size)
        },
    ]

    static func vaultCall<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as VaultError {
            switch error {
            case .locked:
                throw RPCError(code: RPCErrorCode.vaultLocked, message: "The vault is locked; run 'assistantctl vault unlock'")
            case .wrongPassphrase:
                throw RPCError.invalidParam("passphrase", "does not unlock the vault")
            case .notPassphraseMode:
                throw RPCError(code: RPCErrorCode.conflict, message: "The vault uses a key file, not a passphrase (vault.mode = \"keyfile\")")
            case .invalidName(_, let reason):
                throw RPCError.invalidParam("name", reason)
            default:
                throw RPCError(code: RPCErrorCode.internalError, message: "Vault error: \(error.description)")
            }
        }
    }

    static func status(_ host: AssistantHost) async -> StatusResult {
        var plugins: [PluginStatus] = []
        for supervisor in host.supervisors { plugins.append(await supervisor.status()) }
        let configuration = host.configuration
        return StatusResult(
            version: host.options.version, apiVersion: AssistantVersion.api, pid: getpid(), timeZone: configuration.timeZone.identifier,
            now: ISO8601.string(host.clock.now), started: ISO8601.string(host.startedAt),
            uptime: Int(max(0, host.clock.now.timeIntervalSince(host.startedAt))), socket: host.server.path, database: host.store.path,
            configFile: host.options.configPath, vault: VaultState(mode: await host.vault.mode, locked: await host.vault.isLocked),
            connections: host.server.connectionCount, callsInFlight: host.dispatcher.callsInFlight, subscribers: host.subscribers.count,
            droppedNotices: host.server.droppedNotices, sinks: await host.notices.sinkNames,
            sinkStatus: (try? await host.notices.sinkStatus()) ?? .array([]), outbox: (try? await host.notices.outboxStatus()) ?? .null,
            plugins: plugins, jobs: await host.scheduler.list())
    }

    static func hostJobs(_ host: AssistantHost) -> [ScheduledJob] {
        let notices = host.notices
        let settings = host.settings
        return [
            ScheduledJob(
                id: "host.prune",
                descriptor: JobDescriptor(
                    id: "prune", summary: "Delete notices, delivered outbox rows and dedupe keys past the retention",
                    schedule: .daily(hour: 3, minute: 30), jitter: .seconds(600))
            ) {
                _ = try await notices.prune(olderThan: settings.withLockedValue { $0.store.retentionDays })
            }
        ]
    }
}
