/// A parameter declared once, with its JSON type, constraints, help and default, and read typed:
///
///     static let termID = Param<Int64>.required("term_id", .integer(min: 1), help: "the term")
///     static let account = Param<String>("account", help: "which account")
///     … params: [StagParams.termID, StagParams.account] …
///     let term = try p[StagParams.termID]      // Int64, validated
///     let account = p[StagParams.account]      // String?
///
/// The manifest's parameter list is built from the keys, so the name, the type and the help are
/// written in one place and no handler reads a parameter by a string literal.
public struct Param<Value: ParamValue>: ParamDeclaration {
    public let spec: ParamSpec

    /// An optional parameter (absent: its default, else nil).
    public init(_ name: String, _ type: ParamType = Value.paramType, default defaultValue: Value? = nil, help: String) {
        spec = ParamSpec(name, type, default: defaultValue?.paramJSON, help: help)
    }

    /// A required parameter: read through `Params[_:]` as a non-optional value.
    public static func required(_ name: String, _ type: ParamType = Value.paramType, help: String) -> RequiredParam<Value> {
        RequiredParam(ParamSpec(name, type, required: true, help: help))
    }

    public var name: String { spec.name }

    /// The same parameter where a command needs it (`dep` is optional to change a flight,
    /// required to log one).
    public var required: RequiredParam<Value> {
        var required = spec
        required.required = true
        required.defaultValue = nil
        return RequiredParam(required)
    }
}

/// A required parameter (see `Param.required`).
public struct RequiredParam<Value: ParamValue>: ParamDeclaration {
    public let spec: ParamSpec
    init(_ spec: ParamSpec) { self.spec = spec }
    public var name: String { spec.name }
}

/// What a command's parameter list is made of: typed keys, or a plain `ParamSpec`.
public protocol ParamDeclaration: Sendable {
    var spec: ParamSpec { get }
}

extension ParamSpec: ParamDeclaration {
    public var spec: ParamSpec { self }
}

/// A Swift type a parameter's JSON value is read as.
public protocol ParamValue: Sendable {
    static var paramType: ParamType { get }
    init?(param: JSONValue)
    var paramJSON: JSONValue { get }
}

extension String: ParamValue {
    public static var paramType: ParamType { .string }
    public init?(param: JSONValue) {
        guard let value = param.stringValue else { return nil }
        self = value
    }
    public var paramJSON: JSONValue { .string(self) }
}

extension Int64: ParamValue {
    public static var paramType: ParamType { .integer() }
    public init?(param: JSONValue) {
        guard let value = param.intValue else { return nil }
        self = value
    }
    public var paramJSON: JSONValue { .int(self) }
}

extension Double: ParamValue {
    public static var paramType: ParamType { .number() }
    public init?(param: JSONValue) {
        guard let value = param.doubleValue else { return nil }
        self = value
    }
    public var paramJSON: JSONValue { .double(self) }
}

extension Bool: ParamValue {
    public static var paramType: ParamType { .boolean }
    public init?(param: JSONValue) {
        guard let value = param.boolValue else { return nil }
        self = value
    }
    public var paramJSON: JSONValue { .bool(self) }
}

extension DateOnly: ParamValue {
    public static var paramType: ParamType { .date }
    public init?(param: JSONValue) {
        guard let text = param.stringValue, let day = DateOnly(text) else { return nil }
        self = day
    }
    public var paramJSON: JSONValue { .string(description) }
}

/// Any JSON value, for a parameter that takes more than one form (`priority`: 1 or "high"); the
/// handler reads it.
extension JSONValue: ParamValue {
    public static var paramType: ParamType { .any }
    public init?(param: JSONValue) { self = param }
    public var paramJSON: JSONValue { self }
}

extension Array: ParamValue where Element: ParamValue {
    public static var paramType: ParamType { .array(of: Element.paramType) }
    public init?(param: JSONValue) {
        guard let items = param.arrayValue else { return nil }
        var values: [Element] = []
        for item in items {
            guard let value = Element(param: item) else { return nil }
            values.append(value)
        }
        self = values
    }
    public var paramJSON: JSONValue { .array(map(\.paramJSON)) }
}

extension Params {
    /// An optional parameter: its value, its default, or nil. A value that does not read as the
    /// key's type (the validator has checked it) is nil, never a crash.
    public subscript<Value>(_ key: Param<Value>) -> Value? {
        self[key.name].flatMap(Value.init(param:))
    }

    /// A required parameter. The validator has checked it; this never trusts that, and a
    /// missing or mistyped value is the same -32602 naming it.
    public subscript<Value>(_ key: RequiredParam<Value>) -> Value {
        get throws(RPCError) {
            guard let value = self[key.name] else { throw RPCError.invalidParam(key.name, "is required (\(key.spec.help))") }
            guard let typed = Value(param: value) else {
                throw RPCError.invalidParam(key.name, "must be \(key.spec.type.name), got \(value.typeName)")
            }
            return typed
        }
    }
}

extension ParamDeclaration {
    /// -32602 naming this parameter: `throw StagParams.termID.invalid("is not among your exam terms")`.
    public func invalid(_ message: String) -> RPCError { RPCError.invalidParam(spec.name, message) }
}

/// An optional parameter with a declared default, read non-optional: the value given, else the
/// default, written once here (help, `rpc.discover` and the reader all take it from the key).
///
///     static let dryRun = Param<Bool>.defaulted("dry_run", default: true, help: "only list who would get it")
///     let dryRun = params[StagParams.dryRun]   // Bool
public struct DefaultedParam<Value: ParamValue>: ParamDeclaration {
    public let spec: ParamSpec
    public let defaultValue: Value
    public var name: String { spec.name }
}

extension Param {
    public static func defaulted(_ name: String, _ type: ParamType = Value.paramType, default defaultValue: Value, help: String)
        -> DefaultedParam<Value>
    {
        DefaultedParam(spec: ParamSpec(name, type, default: defaultValue.paramJSON, help: help), defaultValue: defaultValue)
    }
}

extension Params {
    /// A parameter with a declared default: its value, else that default.
    public subscript<Value>(_ key: DefaultedParam<Value>) -> Value {
        self[key.name].flatMap(Value.init(param:)) ?? key.defaultValue
    }
}
