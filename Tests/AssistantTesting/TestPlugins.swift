import Foundation
import HostCore
import NIOConcurrencyHelpers

/// A plugin registered only in tests: it proves the registry, parameter validation, progress,
/// redaction of relayed credentials, error mapping and jobs, through the same path as real plugins.
public final class EchoPlugin: AssistantPlugin {
    public let runs = NIOLockedValueBox(0)
    public let jobFailures = NIOLockedValueBox(0)
    public let contextBox = NIOLockedValueBox<PluginContext?>(nil)

    public init() {}

    public var manifest: PluginManifest {
        PluginManifest(
            id: "echo", version: "1.0", summary: "Test plugin",
            commands: [
                CommandDescriptor(
                    name: "echo.say", summary: "Repeat the text",
                    params: [
                        ParamSpec("text", .string, required: true, help: "what to say"),
                        ParamSpec("times", .integer(min: 1, max: 5), default: 1, help: "how often"),
                    ], result: "the text", example: "assistantctl echo.say text=hi"),
                CommandDescriptor(
                    name: "echo.login", summary: "Pretend to log in upstream and relay its settings",
                    params: [ParamSpec("token", .secret, required: true, help: "an upstream token")], result: "upstream settings"),
                CommandDescriptor(
                    name: "echo.slow", summary: "Report progress, then answer",
                    params: [ParamSpec("steps", .integer(min: 0, max: 100), default: 3, help: "progress steps")], result: "done",
                    timeout: .seconds(5)),
                CommandDescriptor(name: "echo.crash", summary: "Throw an unexpected error", result: "never"),
                CommandDescriptor(name: "echo.reauth", summary: "Upstream refuses the credentials", result: "never"),
                CommandDescriptor(name: "echo.hang", summary: "Never answer", result: "never", timeout: .milliseconds(200)),
                CommandDescriptor(
                    name: "echo.path", summary: "Echo a path",
                    params: [ParamSpec("file", .path, required: true, help: "a file")], result: "the path"),
                CommandDescriptor(name: "echo.vault", summary: "Read the plugin's vault entry 'token'", result: "the value or null"),
                CommandDescriptor(name: "echo.offline", summary: "The upstream cannot be reached", result: "never"),
                CommandDescriptor(
                    name: "echo.wait", summary: "Answer after a while",
                    params: [ParamSpec("ms", .integer(min: 0, max: 60_000), required: true, help: "milliseconds")], result: "waited"),
            ],
            jobs: [JobDescriptor(id: "tick", summary: "Counts", schedule: .every(.seconds(60)))],
            topics: [TopicDescriptor("echo.said", "something was said")],
            vaultNames: ["token"],
            configOptions: [ConfigOption("greeting", .string, default: "hello", help: "what to say first")])
    }

    public func registerMigrations(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(sql: "CREATE TABLE echo_said (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
    }

    public func setup(_ context: PluginContext) async throws -> SetupOutcome {
        contextBox.withLockedValue { $0 = context }
        return .ready
    }

    public func call(_ command: String, params: Params, context: CallContext) async throws -> JSONValue {
        guard let plugin = contextBox.withLockedValue({ $0 }) else { throw PluginError.notReady("no context") }
        switch command {
        case "say":
            let text = try params.requiredString("text")
            let times = Int(params.int("times") ?? 1)
            try await plugin.database.write { db in
                try db.execute(sql: "INSERT INTO echo_said(text) VALUES (?)", arguments: [text])
            }
            try await plugin.notifier.post(topic: "echo.said", title: "said", body: text)
            return .string(Array(repeating: text, count: times).joined(separator: " "))
        case "login":
            let token = try params.requiredString("token")
            return ["settings": ["api_key": "UPSTREAM-KEY-123456", "name": "printer"], "echo": .string("token was \(token)")]
        case "slow":
            let steps = params.int("steps") ?? 3
            for step in 0..<steps { context.progress("step \(step + 1)", done: step + 1, total: steps) }
            return "done"
        case "crash":
            struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
            throw Boom()
        case "reauth":
            throw PluginError.needsReauth("the upstream refused the token")
        case "hang":
            try await Task.sleep(for: .seconds(3600))
            return .null
        case "path":
            return .string(try params.requiredString("file"))
        case "offline":
            throw PluginError.notReady("printer.local:80 refused the connection")
        case "wait":
            try await Task.sleep(for: .milliseconds(params.int("ms") ?? 0))
            return "waited"
        case "vault":
            return try await plugin.vault.get("token").map(JSONValue.string) ?? .null
        default:
            throw RPCError.methodNotFound(command)
        }
    }

    public func runJob(_ id: String) async throws {
        runs.withLockedValue { $0 += 1 }
        if jobFailures.withLockedValue({ f in
            defer { if f > 0 { f -= 1 } }
            return f > 0
        }) {
            throw RPCError.internalError("tick failed on purpose")
        }
    }
}

/// Fails setup with a transient error `failures` times, then becomes ready.
public final class FlakyPlugin: AssistantPlugin {
    let remaining: NIOLockedValueBox<Int>
    public let attempts = NIOLockedValueBox(0)

    public init(failures: Int) { remaining = NIOLockedValueBox(failures) }

    public var manifest: PluginManifest {
        PluginManifest(id: "flaky", version: "1.0", summary: "Flaky", commands: [CommandDescriptor(name: "flaky.ping", summary: "ping", result: "pong")])
    }

    public func setup(_ context: PluginContext) async throws -> SetupOutcome {
        attempts.withLockedValue { $0 += 1 }
        let fail = remaining.withLockedValue { r -> Bool in
            defer { r -= 1 }
            return r > 0
        }
        if fail { throw PluginError.notReady("upstream not reachable yet") }
        return .ready
    }

    public func call(_ command: String, params: Params, context: CallContext) async throws -> JSONValue { "pong" }
}

/// Throws an unexpected error from setup: the plugin is `failed`, the daemon keeps serving.
public final class BrokenPlugin: AssistantPlugin {
    public init() {}
    public var manifest: PluginManifest {
        PluginManifest(id: "broken", version: "1.0", summary: "Broken", commands: [CommandDescriptor(name: "broken.ping", summary: "ping", result: "pong")])
    }
    public func setup(_ context: PluginContext) async throws -> SetupOutcome {
        struct SetupExploded: Error, CustomStringConvertible { var description: String { "setup exploded" } }
        throw SetupExploded()
    }
    public func call(_ command: String, params: Params, context: CallContext) async throws -> JSONValue { "pong" }
}

/// Declares a method outside its namespace, or a duplicate one: a start-up error.
public struct MisnamedPlugin: AssistantPlugin {
    public let commandName: String
    public let id: String
    public init(id: String = "misnamed", commandName: String) {
        self.id = id
        self.commandName = commandName
    }
    public var manifest: PluginManifest {
        PluginManifest(id: id, version: "1", summary: "x", commands: [CommandDescriptor(name: commandName, summary: "x", result: "x")])
    }
    public func setup(_ context: PluginContext) async throws -> SetupOutcome { .ready }
    public func call(_ command: String, params: Params, context: CallContext) async throws -> JSONValue { .null }
}
