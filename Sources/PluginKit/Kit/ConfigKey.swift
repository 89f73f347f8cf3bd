/// A plugin's configuration option, declared once with its type and default, and read typed:
///
///     static let offlineAfter = ConfigKey<Int64>("offline_after_s", .integer(min: 10, max: 86_400), default: 300, help: "…")
///     context.config[OctoPrintConfig.offlineAfter]   // Int64, never nil
///
/// The manifest's `ConfigOption` comes from the key, so the default is written in one place.
public struct ConfigKey<Value: ConfigValue>: Sendable {
    public let key: String
    public let type: ParamType
    public let defaultValue: Value
    public let help: String

    public init(_ key: String, _ type: ParamType, default defaultValue: Value, help: String) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.help = help
    }

    public var option: ConfigOption { ConfigOption(key, type, default: defaultValue.json, help: help) }
}

/// Any `ConfigKey`, whatever its value type: what the option list is read from.
public protocol DeclaredConfigKey: Sendable {
    var option: ConfigOption { get }
}

extension ConfigKey: DeclaredConfigKey {}

/// A plugin's configuration keys, declared once as the stored properties of one type:
///
///     @dynamicMemberLookup
///     struct NotesConfig: PluginOptions {
///         let maxLength = ConfigKey<Int64>("max_length", .integer(min: 1, max: 10_000), default: 280, help: "longest note")
///     }
///
/// The manifest's option list is read from those properties, in their order (so no key is left
/// out of `help` or the docs), and the plugin reads a key as `NotesConfig.maxLength`.
public protocol PluginOptions: Sendable {
    init()
}

extension PluginOptions {
    /// Each declared key as the option the manifest lists.
    public static var declared: [ConfigOption] {
        // Swift has no reflection of static members, so the keys are a value's stored properties
        // and Mirror lists them, in declaration order.
        Mirror(reflecting: Self()).children.compactMap { ($0.value as? any DeclaredConfigKey)?.option }
    }

    public static subscript<Value>(dynamicMember key: KeyPath<Self, ConfigKey<Value>>) -> ConfigKey<Value> {
        Self()[keyPath: key]
    }
}

/// For a plugin without configuration.
public struct NoOptions: PluginOptions {
    public init() {}
}

/// A type a configuration value can be read as.
public protocol ConfigValue: Sendable {
    init?(json: JSONValue)
    var json: JSONValue { get }
}

extension Int64: ConfigValue {
    public init?(json: JSONValue) {
        guard let value = json.intValue else { return nil }
        self = value
    }
    public var json: JSONValue { .int(self) }
}

extension Double: ConfigValue {
    public init?(json: JSONValue) {
        guard let value = json.doubleValue else { return nil }
        self = value
    }
    public var json: JSONValue { .double(self) }
}

extension Bool: ConfigValue {
    public init?(json: JSONValue) {
        guard let value = json.boolValue else { return nil }
        self = value
    }
    public var json: JSONValue { .bool(self) }
}

extension String: ConfigValue {
    public init?(json: JSONValue) {
        guard let value = json.stringValue else { return nil }
        self = value
    }
    public var json: JSONValue { .string(self) }
}

extension Array: ConfigValue where Element: ConfigValue {
    public init?(json: JSONValue) {
        guard let items = json.arrayValue else { return nil }
        var values: [Element] = []
        for item in items {
            guard let value = Element(json: item) else { return nil }
            values.append(value)
        }
        self = values
    }
    public var json: JSONValue { .array(map(\.json)) }
}

extension PluginConfig {
    /// The configured value, or the key's default. The host checked configured values against
    /// the key's type at start-up, so the default stands in only when the key is absent.
    public subscript<Value: ConfigValue>(key: ConfigKey<Value>) -> Value {
        values[key.key].flatMap(Value.init(json:)) ?? key.defaultValue
    }
}

/// A table or any other value the plugin reads itself (a map of weekday → hours text).
extension JSONValue: ConfigValue {
    public init?(json: JSONValue) { self = json }
    public var json: JSONValue { self }
}
