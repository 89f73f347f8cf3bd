import Foundation

/// One command: its descriptor and its handler, declared together (as a Hummingbird route is
/// declared with its handler). The registry builds the dispatch table from these, so the manifest
/// and the dispatch cannot disagree.
///
///     PluginCommand("flights.get", "Show one flight", params: [LogbookParams.id], result: LogbookSchemas.entry,
///                   effect: .read, use: LogbookService.flightsGet)
public struct PluginCommand<Service: Sendable>: Sendable {
    public var descriptor: CommandDescriptor
    package let handler: @Sendable (Service, Params, CallContext) async throws -> any CallResult

    /// The general form: any closure over the service, the validated parameters and the call.
    public init(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, run: @escaping @Sendable (Service, Params, CallContext) async throws -> JSONValue
    ) {
        descriptor = CommandDescriptor(
            name: name, summary: summary, params: params.map(\.spec), result: result, example: example, timeout: timeout, effect: effect)
        handler = run
    }

    /// A typed result (`CallResult`), written straight into the reply with no `JSONValue`
    /// tree: the form for results of thousands of rows.
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, typed run: @escaping @Sendable (Service, Params, CallContext) async throws -> Result
    ) {
        descriptor = CommandDescriptor(
            name: name, summary: summary, params: params.map(\.spec), result: result, example: example, timeout: timeout, effect: effect)
        handler = { try await run($0, $1, $2) }
    }

    /// A service method over the parameters with a typed result: `use: TasksService.agenda`.
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (Service) -> @Sendable (Params) async throws -> Result
    ) {
        self.init(
            name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect,
            typed: { service, params, _ in
                try await method(service)(params)
            })
    }

    /// A service method that needs nothing from the call, with a typed result: `use: TasksService.categoriesList`.
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, use method: @escaping @Sendable (Service) -> @Sendable () async throws -> Result
    ) {
        self.init(
            name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect,
            typed: { service, _, _ in
                try await method(service)()
            })
    }

    /// A service method over the parameters and the call, with a typed result.
    public init<Result: CallResult>(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (Service) -> @Sendable (Params, CallContext) async throws -> Result
    ) {
        self.init(
            name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect,
            typed: { service, params, call in
                try await method(service)(params, call)
            })
    }

    /// A service method that needs nothing from the call: `use: LogbookService.profileGet`.
    public init(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect, use method: @escaping @Sendable (Service) -> @Sendable () async throws -> JSONValue
    ) {
        self.init(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect) { service, _, _ in
            try await method(service)()
        }
    }

    /// A service method over the parameters: `use: LogbookService.flightsAdd`.
    public init(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (Service) -> @Sendable (Params) async throws -> JSONValue
    ) {
        self.init(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect) { service, params, _ in
            try await method(service)(params)
        }
    }

    /// A service method over the parameters and the call (progress, the caller's connection).
    public init(
        _ name: String, _ summary: String, params: [any ParamDeclaration] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), effect: CommandEffect,
        use method: @escaping @Sendable (Service) -> @Sendable (Params, CallContext) async throws -> JSONValue
    ) {
        self.init(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect) { service, params, call in
            try await method(service)(params, call)
        }
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
