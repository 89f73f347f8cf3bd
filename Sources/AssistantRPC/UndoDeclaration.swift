/// How a change is taken back, declared with the command that makes it: the method that undoes
/// it, and its arguments from the change's answer (or its own arguments). Published by
/// `rpc.discover` (`x-undo`); the web app offers it as the Undo button beside what was said.
/// `tasks.delete` is undone by `tasks.restore {id: deleted}`, but not when only an occurrence
/// went (`unless: "occurrence"`).
public struct UndoDeclaration: Sendable, Equatable {
    public var method: String
    /// The undoing method's parameter → the member of the answer (or the argument) that fills it.
    public var arguments: [String: String]
    /// A member of the answer, or an argument, that when present (not null or false) means the
    /// change cannot be undone this way.
    public var unless: String?

    public init(_ method: String, arguments: [String: String], unless: String? = nil) {
        (self.method, self.arguments, self.unless) = (method, arguments, unless)
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["method": .string(method), "arguments": .object(arguments.mapValues { .string($0) })]
        if let unless { object["unless"] = .string(unless) }
        return .object(object)
    }

    /// The undoing call for a change that answered `result` to `arguments`, or nil when it cannot
    /// be undone this way (the `unless` member is there, or a value is missing).
    public func call(result: JSONValue, arguments given: [String: JSONValue]) -> (method: String, arguments: [String: JSONValue])? {
        func value(_ name: String) -> JSONValue? {
            let found = ShortAnswer.member(name, of: result) ?? given[name]
            return found == .null ? nil : found
        }
        if let unless, let present = value(unless), present != false { return nil }
        var filled: [String: JSONValue] = [:]
        for (param, member) in arguments {
            guard let found = value(member) else { return nil }
            filled[param] = found
        }
        return (method, filled)
    }
}
