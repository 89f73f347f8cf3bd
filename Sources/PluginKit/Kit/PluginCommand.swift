import Foundation

/// One command: its descriptor and its handler, declared together (as a Hummingbird route is
/// declared with its handler). The registry builds the dispatch table from these, so the manifest
/// and the dispatch cannot disagree.
///
///     PluginCommand("snooze", "Delivers the last reminder again in N minutes", params: [TasksParams.id, TasksParams.minutes],
///                   effect: .write, use: TasksService.snooze)
public struct PluginCommand<Service: Sendable>: Sendable {
    public var descriptor: CommandDescriptor
    package let handler: @Sendable (Service, Params, CallContext) async throws -> any CallResult

    /// The general form: any closure over the service, the validated parameters and the call. The
    /// result's schema is its type's (`ResultObject`); `result:` gives one for a result that is
    /// a free-form `JSONValue` or adds a description.
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema? = nil, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, typed run: @escaping @Sendable (Service, Params, CallContext) async throws -> Result
    ) {
        descriptor = CommandDescriptor(
            name: name, summary: summary, params: params.map(\.spec), result: Self.schema(result, of: Result.self, for: name),
            example: example, timeout: timeout, effect: effect)
        handler = { try await run($0, $1, $2) }
    }

    /// A closure that builds its answer as a `JSONValue` (a free-form result, or a small test
    /// plugin's): its schema is given, since a `JSONValue` has none of its own.
    public init(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, run: @escaping @Sendable (Service, Params, CallContext) async throws -> JSONValue
    ) {
        self.init(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect, typed: run)
    }

    /// A service method over the parameters: `use: TasksService.list`.
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema? = nil, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (Service) -> @Sendable (Params) async throws -> Result
    ) {
        self.init(
            name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect,
            typed: { service, params, _ in
                try await method(service)(params)
            })
    }

    /// A service method that needs nothing from the call: `use: TasksService.categoriesList`.
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema? = nil, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, use method: @escaping @Sendable (Service) -> @Sendable () async throws -> Result
    ) {
        self.init(
            name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect,
            typed: { service, _, _ in
                try await method(service)()
            })
    }

    /// A service method over the parameters and the call (progress, the caller's connection).
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema? = nil, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (Service) -> @Sendable (Params, CallContext) async throws -> Result
    ) {
        self.init(
            name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect,
            typed: { service, params, call in
                try await method(service)(params, call)
            })
    }

    /// The declared schema, else the result type's own; a command with neither is a mistake in
    /// its plugin, caught when the manifest is first built (every test builds them all).
    static func schema<Result>(_ declared: JSONSchema?, of type: Result.Type, for name: String) -> JSONSchema {
        if let declared { return declared }
        if let described = type as? any ResultDescribing.Type { return described.resultSchema }
        preconditionFailure("\(name): \(type) declares no schema; make it a ResultObject, or give result:")
    }

    /// The same command with why its effect is what it is, in words (`help`'s and
    /// `rpc.discover`'s effect rule); nil says nothing more.
    public func effectReason(_ reason: String?) -> PluginCommand {
        mapDescriptor { $0.effectReason = reason }
    }

    /// The same command, destructive for a call whose arguments meet any of `conditions`.
    public func destructive(when conditions: DestructiveWhen...) -> PluginCommand {
        mapDescriptor { $0.destructiveWhen += conditions }
    }

    /// The same command, writing a file for its caller: it takes `overwrite` (an existing file
    /// is refused without it) and is destructive with `overwrite=true`, when the person is asked
    /// "Replace hours.png?" (its path parameters, unless the command asks something of its own).
    public func writesFiles() -> PluginCommand {
        mapDescriptor {
            $0.params.append(FileOutput.overwrite.spec)
            $0.destructiveWhen.append(.equals(FileOutput.overwrite, true))
            if $0.confirm == nil {
                $0.confirm = ConfirmSentence($0.params.filter { $0.type == .path }.map { "Replace {\($0.name)}?" })
            }
        }
    }

    /// What the person is asked before a destructive call, in plain words built from its
    /// arguments (`ConfirmSentence`): `"Delete the task “{title}”?"`, the first sentence that
    /// fills. `details` names a read whose answer fills what the arguments do not.
    public func confirm(_ sentences: String..., details: String? = nil) -> PluginCommand {
        mapDescriptor { $0.confirm = ConfirmSentence(sentences, details: details) }
    }

    /// What the command says it did, in the person's terms (`ShortAnswer`): templates over its
    /// result and its arguments, the first that fills: `"Added {id:short} “{title}”[: {start:when}]"`.
    public func says(_ sentences: String...) -> PluginCommand {
        mapDescriptor { $0.says = ShortAnswer(sentences) }
    }

    /// How the change is taken back: `method` called with `arguments` (its parameter → a member
    /// of this command's answer, or one of its arguments), unless the member `unless` is present.
    public func undoneBy(_ method: String, _ arguments: [String: String], unless: String? = nil) -> PluginCommand {
        mapDescriptor { $0.undo = UndoDeclaration(method, arguments: arguments, unless: unless) }
    }

    /// The same command, talking to a service beyond this machine (`CommandDescriptor.reachesOutside`).
    public func reachesOutside() -> PluginCommand {
        mapDescriptor { $0.reachesOutside = true }
    }

    /// The same command, never offered to an AI assistant: a person calls it with assistantctl.
    public func personOnly(because reason: String) -> PluginCommand {
        mapDescriptor { $0.personOnly = reason }
    }

    /// How `assistantctl` shows the result to a person (columns, formats, grouping).
    public func view(_ view: ResultView) -> PluginCommand {
        mapDescriptor { $0.view = view }
    }

    /// The same handler with a changed descriptor (a generated example, a shared parameter).
    public func mapDescriptor(_ change: (inout CommandDescriptor) -> Void) -> PluginCommand {
        var copy = self
        change(&copy.descriptor)
        return copy
    }
}

/// A periodic job: its descriptor and its handler.
public struct PluginJob<Service: Sendable>: Sendable {
    public var descriptor: JobDescriptor
    package let handler: @Sendable (Service) async throws -> Void

    public init(
        _ id: String, _ summary: String, schedule: JobSchedule, jitter: Duration = .zero, timeout: Duration = .seconds(300),
        run: @escaping @Sendable (Service) async throws -> Void
    ) {
        descriptor = JobDescriptor(id: id, summary: summary, schedule: schedule, jitter: jitter, timeout: timeout)
        handler = run
    }
}
