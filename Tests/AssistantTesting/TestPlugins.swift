import Foundation
import HostCore
import NIOConcurrencyHelpers

/// A plugin registered only in tests: it proves the registry, parameter validation, progress,
/// redaction of relayed credentials, error mapping and jobs, through the same path as real plugins.
public final class EchoPlugin: AssistantPlugin {
    public let runs = NIOLockedValueBox(0)
    public let jobFailures = NIOLockedValueBox(0)
    public let contextBox = NIOLockedValueBox<PluginContext?>(nil)
    /// What `echo.hold` calls went through: "started", then "cancelled" or "finished".
    public let holdEvents: AsyncStream<String>
    let holdContinuation: AsyncStream<String>.Continuation

    public init() {
        (holdEvents, holdContinuation) = AsyncStream<String>.makeStream()
    }

    @dynamicMemberLookup
    public struct Options: PluginOptions {
        public init() {}
        public let greeting = ConfigKey<String>("greeting", .string, default: "hello", help: "what to say first")
    }

    public var info: PluginInfo {
        PluginInfo(
            id: "echo", version: "1.0", summary: "Test plugin", topics: EchoTopic.self,
            vaultNames: ["token"], options: Options.self)
    }

    public var commands: [PluginCommand<PluginContext>] {
        [
            PluginCommand(
                "say", "Repeat the text",
                params: [
                    ParamSpec("text", .string, required: true, help: "what to say"),
                    ParamSpec("times", .integer(min: 1, max: 5), default: 1, help: "how often"),
                ], result: .any("the text"), example: "assistantctl echo.say text=hi", effect: .write
            ) { plugin, params, _ in
                let text = try params.requiredString("text")
                let times = Int(try params.requiredInt("times"))
                try await plugin.database.write { db in
                    try db.execute(sql: "INSERT INTO echo_said(text) VALUES (?)", arguments: [text])
                }
                try await plugin.notifier.post(topic: EchoTopic.said, title: "said", body: text)
                return .string(Array(repeating: text, count: times).joined(separator: " "))
            },
            PluginCommand(
                "login", "Pretend to log in upstream and relay its settings",
                params: [ParamSpec("token", .secret, required: true, help: "an upstream token")], result: .any("upstream settings"), effect: .write
            ) { _, params, _ in
                let token = try params.requiredString("token")
                return [
                    "settings": ["api_key": "UPSTREAM-KEY-123456", "name": "printer"], "echo": .string("token was \(token)"),
                    "seen": .object([token: true]),
                ]
            },
            PluginCommand(
                "slow", "Report progress, then answer",
                params: [ParamSpec("steps", .integer(min: 0, max: 100), default: 3, help: "progress steps")], result: .any("done"),
                timeout: .seconds(5), effect: .write
            ) { _, params, call in
                let steps = try params.requiredInt("steps")
                for step in 0..<steps { call.progress("step \(step + 1)", done: step + 1, total: steps) }
                return "done"
            },
            PluginCommand("crash", "Throw an unexpected error", result: .any("never"), effect: .write) { _, _, _ in
                struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
                throw Boom()
            },
            PluginCommand("reauth", "Upstream refuses the credentials", result: .any("never"), effect: .write) { _, _, _ in
                throw PluginError.needsReauth("the upstream refused the token")
            },
            PluginCommand("hang", "Never answer", result: .any("never"), timeout: .milliseconds(200), effect: .write) { _, _, _ in
                try await Task.sleep(for: .seconds(3600))
                return .null
            },
            PluginCommand(
                "hold", "Hold the call (an hour by default), telling the test when it starts and how it ends",
                params: [ParamSpec("ms", .integer(min: 0, max: 3_600_000), help: "how long")], result: .any("held"), effect: .write
            ) { [holdContinuation] _, params, _ in
                holdContinuation.yield("started")
                do {
                    try await Task.sleep(for: .milliseconds(params.int("ms") ?? 3_600_000))
                } catch {
                    holdContinuation.yield("cancelled")
                    throw error
                }
                holdContinuation.yield("finished")
                return "held"
            },
            PluginCommand(
                "path", "Echo a path", params: [ParamSpec("file", .path, required: true, help: "a file")], result: .any("the path"), effect: .write
            ) {
                _, params, _ in .string(try params.requiredString("file"))
            },
            PluginCommand("vault", "Read the plugin's vault entry 'token'", result: .any("the value or null"), effect: .write) { plugin, _, _ in
                try await plugin.vault.get("token").map(JSONValue.string) ?? .null
            },
            PluginCommand("offline", "The upstream cannot be reached", result: .any("never"), effect: .write) { _, _, _ in
                throw PluginError.notReady("printer.local:80 refused the connection")
            },
            PluginCommand(
                "wait", "Answer after a while",
                params: [ParamSpec("ms", .integer(min: 0, max: 60_000), required: true, help: "milliseconds")], result: .any("waited"), effect: .write
            ) { _, params, _ in
                try await Task.sleep(for: .milliseconds(try params.requiredInt("ms")))
                return "waited"
            },
            PluginCommand("greeting", "The configured greeting (a typed config key)", result: .any("the greeting"), effect: .write) { plugin, _, _ in
                .string(plugin.config[Options.greeting])
            },
            PluginCommand(
                "measure", "A typed Encodable result", params: [ParamSpec("text", .string, required: true, help: "text")],
                result: .any("{text, length}"),
                effect: .write,
                typed: { (_: PluginContext, params: Params, _: CallContext) async throws -> Measured in
                    let text = try params.requiredString("text")
                    return Measured(text: text, length: text.count)
                }),
        ]
    }

    public var jobs: [PluginJob<PluginContext>] {
        [
            PluginJob("tick", "Counts", schedule: .every(.seconds(60))) { [self] _ in
                runs.withLockedValue { $0 += 1 }
                if jobFailures.withLockedValue({ f in
                    defer { if f > 0 { f -= 1 } }
                    return f > 0
                }) {
                    throw RPCError.internalError("tick failed on purpose")
                }
            }
        ]
    }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(sql: "CREATE TABLE echo_said (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<PluginContext> {
        contextBox.withLockedValue { $0 = context }
        return .ready(context)
    }
}

public struct Measured: Encodable, CallResult {
    public var text: String
    public var length: Int
}

/// Fails setup with a transient error `failures` times, then becomes ready.
public final class FlakyPlugin: AssistantPlugin {
    let remaining: NIOLockedValueBox<Int>
    public let attempts = NIOLockedValueBox(0)

    public init(failures: Int) { remaining = NIOLockedValueBox(failures) }

    public var info: PluginInfo { PluginInfo(id: "flaky", version: "1.0", summary: "Flaky") }
    public var commands: [PluginCommand<Void>] { [PluginCommand("ping", "ping", result: .any("pong"), effect: .write) { _, _, _ in "pong" }] }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<Void> {
        attempts.withLockedValue { $0 += 1 }
        let fail = remaining.withLockedValue { r -> Bool in
            defer { r -= 1 }
            return r > 0
        }
        if fail { throw PluginError.notReady("upstream not reachable yet") }
        return .ready(())
    }
}

/// Throws an unexpected error from setup: the plugin is `failed`, the daemon keeps serving.
public final class BrokenPlugin: AssistantPlugin {
    public init() {}
    public var info: PluginInfo { PluginInfo(id: "broken", version: "1.0", summary: "Broken") }
    public var commands: [PluginCommand<Void>] { [PluginCommand("ping", "ping", result: .any("pong"), effect: .write) { _, _, _ in "pong" }] }
    public func setup(_ context: PluginContext) async throws -> PluginSetup<Void> {
        struct SetupExploded: Error, CustomStringConvertible { var description: String { "setup exploded" } }
        throw SetupExploded()
    }
}

/// Sets up only when the test says so: calls that arrive meanwhile wait, then get the outcome.
public final class GatedPlugin: AssistantPlugin {
    public let gate = AsyncGate()
    public init() {}
    public var info: PluginInfo { PluginInfo(id: "gated", version: "1.0", summary: "Gated") }
    public var commands: [PluginCommand<String>] {
        [PluginCommand("ping", "ping", result: .any("the service's word"), effect: .write) { service, _, _ in .string(service) }]
    }
    public func setup(_ context: PluginContext) async throws -> PluginSetup<String> {
        await gate.wait()
        return .ready("ready-pong")
    }
}

/// Opens once; everybody waiting then goes on.
public final class AsyncGate: Sendable {
    private let state = NIOLockedValueBox<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    public init() {}
    public func open() {
        let waiters = state.withLockedValue { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        waiters.forEach { $0.resume() }
    }
    public func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLockedValue { s -> Bool in
                if !s.open { s.waiters.append(continuation) }
                return s.open
            }
            if open { continuation.resume() }
        }
    }
}

/// Declares a badly named or duplicate command: a start-up error.
public struct MisnamedPlugin: AssistantPlugin {
    public let commandNames: [String]
    public let id: String
    public let errors: ErrorBlock?
    public init(id: String = "misnamed", commandNames: [String], errors: ErrorBlock? = nil) {
        self.id = id
        self.commandNames = commandNames
        self.errors = errors
    }
    public var info: PluginInfo { PluginInfo(id: id, version: "1", summary: "x", errors: errors) }
    public var commands: [PluginCommand<Void>] {
        commandNames.map { PluginCommand($0, "x", result: .any("x"), effect: .write) { _, _, _ in .null } }
    }
    public func setup(_ context: PluginContext) async throws -> PluginSetup<Void> { .ready(()) }
}

/// Commands with the given names, each answering "<name>:<n>": the table test's plugin.
public struct NamedEchoPlugin: AssistantPlugin {
    public let names: [String]
    public init(names: [String]) { self.names = names }
    public var info: PluginInfo { PluginInfo(id: "named", version: "1", summary: "named") }
    public var commands: [PluginCommand<Void>] {
        names.map { name in
            PluginCommand(
                name, "answers its name", params: [ParamSpec("n", .integer(), required: true, help: "a number")], result: .any("name:n"),
                effect: .write
            ) {
                _, params, _ in .string("\(name):\(try params.requiredInt("n"))")
            }
        }
    }
    public func setup(_ context: PluginContext) async throws -> PluginSetup<Void> { .ready(()) }
}

/// Accounts the way a plugin uses them: add (checked before saving), list, default, remove, use.
public struct AccountsPlugin: AssistantPlugin {
    public init() {}
    public var info: PluginInfo {
        PluginInfo(
            id: "accts", version: "1", summary: "accounts", topics: AccountsTopic.self,
            errors: ErrorBlock(1000...1099, codes: [1001: "the upstream refused the key"]))
    }
    public var commands: [PluginCommand<Accounts>] {
        [
            PluginCommand(
                "accounts.add", "add",
                params: [
                    ParamSpec("name", .string, required: true, help: "name"), ParamSpec("url", .string, required: true, help: "url"),
                    ParamSpec("key", .secret, required: true, help: "key"),
                ], result: .any("the account"), effect: .write
            ) { accounts, params, _ in
                let account = try await accounts.save(
                    try params.requiredString("name"), settings: ["url": .string(try params.requiredString("url"))],
                    secrets: ["key": try params.requiredString("key")]
                ) { _, secrets in
                    guard secrets["key"] == "good" else { throw RPCError(code: 1001, message: "the upstream refused the key") }
                }
                return account.json
            },
            PluginCommand("accounts.list", "list", result: .any("accounts"), effect: .write) { accounts, _, _ in
                ["accounts": .array(try await accounts.list().map(\.json))]
            },
            PluginCommand(
                "accounts.default", "default", params: [ParamSpec("name", .string, required: true, help: "name")], result: .any("the account"),
                effect: .write
            ) {
                accounts, params, _ in try await accounts.setDefault(try params.requiredString("name")).json
            },
            PluginCommand(
                "accounts.remove", "remove", params: [ParamSpec("name", .string, required: true, help: "name")], result: .any("ok"), effect: .write
            ) {
                accounts, params, _ in
                try await accounts.remove(try params.requiredString("name"))
                return ["removed": .string(try params.requiredString("name"))]
            },
            PluginCommand(
                "use", "use", params: [ParamSpec("account", .string, help: "account")], result: .any("the account and its key"), effect: .write
            ) {
                accounts, params, _ in
                let account = try await accounts.usable(params.string("account"))
                return ["account": .string(account.name), "has_key": .bool(try await accounts.secret(account.name, "key") != nil)]
            },
            PluginCommand(
                "expire", "the upstream refused it",
                params: [
                    ParamSpec("account", .string, required: true, help: "account"),
                    ParamSpec("cancelled", .boolean, default: false, help: "flip from a task already cancelled (a refresh whose sibling failed)"),
                ],
                result: .any("ok"), effect: .write
            ) {
                accounts, params, _ in
                let name = try params.requiredString("account")
                guard params.bool("cancelled") == true else {
                    try await accounts.needsReauth(name, reason: "the token expired")
                    return "ok"
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.cancelAll()
                    // Added to a cancelled group, the child starts cancelled.
                    group.addTask { try await accounts.needsReauth(name, reason: "the token expired") }
                    try await group.waitForAll()
                }
                return "ok"
            },
        ]
    }
    public func setup(_ context: PluginContext) async throws -> PluginSetup<Accounts> {
        await context.accounts.setCommands(
            reauth: { "assistantctl accts.accounts.add name=\($0) url=… key=…" }, add: "assistantctl accts.accounts.add")
        return .ready(context.accounts)
    }
}

struct FeedOptions: PluginOptions {
    let cacheDays = ReadCache.cacheDays
}

/// Reads through the kit's UpstreamClient, ReadCache and RefreshCoordinator against a loopback
/// upstream (`HTTPUpstreamPeer`), with one account `main` whose address is set by `feed.point`.
public struct FeedPlugin: AssistantPlugin {
    public init() {}
    public var info: PluginInfo {
        PluginInfo(
            id: "feed", version: "1", summary: "feed", topics: FeedTopic.self,
            options: FeedOptions.self)
    }

    public final class Service: Sendable {
        let context: PluginContext
        init(context: PluginContext) { self.context = context }

        func client() async throws -> UpstreamClient {
            let account = try await context.accounts.usable("main")
            return try UpstreamClient(
                plugin: "feed", account: "main",
                configuration: .init(
                    baseURL: account["url"]?.stringValue ?? "", auth: .bearer(token: { "good" }), timeout: .seconds(5), retries: 0,
                    reauthCommand: "assistantctl feed.point url=…"),
                clock: context.clock, onReauthNeeded: { [context] reason in try? await context.accounts.needsReauth("main", reason: reason) })
        }
    }

    public var commands: [PluginCommand<Service>] {
        [
            PluginCommand(
                "point", "set the upstream", params: [ParamSpec("url", .string, required: true, help: "url")], result: .any("ok"), effect: .write
            ) {
                feed, params, _ in
                try await feed.context.accounts.save("main", settings: ["url": .string(try params.requiredString("url"))]).json
            },
            PluginCommand(
                "read", "a cached read", params: [ParamSpec("path", .string, required: true, help: "path")], result: .any("the answer"),
                effect: .write,
                typed: { feed, params, _ in
                    let path = try params.requiredString("path")
                    let client = try await feed.client()
                    return try await feed.context.cache.read(account: "main", key: ReadCache.key("read", ["path": .string(path)])) {
                        try await client.json(.GET, path)
                    }
                }),
            PluginCommand(
                "watch", "poll /items",
                params: [
                    ParamSpec("every_s", .integer(min: 1), default: 120, help: "s"),
                    ParamSpec("jitter_s", .integer(min: 0), default: 0, help: "the job's jitter, s"),
                ], result: .any("ok"), effect: .write
            ) {
                feed, params, _ in
                let context = feed.context
                try await context.refresh.arm(
                    .init(
                        name: "items", account: "main", every: .seconds(try params.requiredInt("every_s")),
                        jitter: .seconds(try params.requiredInt("jitter_s")), summary: "polls /items",
                        fetch: { try await feed.client().json(.GET, "/items").objectValue ?? [:] },
                        onChange: { change in
                            let keys =
                                (change.added.keys.map { "+\($0)" } + change.removed.keys.map { "-\($0)" } + change.changed.keys.map { "~\($0)" })
                                .sorted()
                            try await context.notifier.post(topic: FeedTopic.changed, title: "items", body: keys.joined(separator: " "))
                        }))
                return "armed"
            },
            PluginCommand("unwatch", "stop polling", result: .any("ok"), effect: .write) { feed, _, _ in
                await feed.context.refresh.cancel(name: "items", account: "main")
                return "stopped"
            },
            PluginCommand("refresh", "poll now", result: .any("the change"), effect: .write) { feed, _, _ in
                let change = try await feed.context.refresh.runNow(name: "items", account: "main")
                return [
                    "baseline": .bool(change.isBaseline), "added": .array(change.added.keys.sorted().map(JSONValue.string)),
                    "removed": .array(change.removed.keys.sorted().map(JSONValue.string)),
                    "changed": .array(change.changed.keys.sorted().map(JSONValue.string)),
                ]
            },
        ]
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<Service> { .ready(Service(context: context)) }
}

public enum EchoTopic: String, PluginTopic {
    case said = "echo.said"
    public var summary: String { "something was said" }
}

public enum AccountsTopic: String, PluginTopic {
    case authExpired = "accts.auth.expired"
    public var summary: String { "log in again" }
}

/// The feed test plugin's own topic and the kit's refresh notices in its name.
public enum FeedTopic: String, PluginTopic {
    case changed = "feed.changed"
    case authExpired = "feed.auth.expired"
    case upstreamUnreachable = "feed.upstream.unreachable"
    case upstreamRecovered = "feed.upstream.recovered"
    public var summary: String { rawValue }
}
