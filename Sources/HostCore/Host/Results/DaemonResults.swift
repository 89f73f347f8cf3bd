import Foundation

/// `time`: the daemon's clock and its zone.
struct TimeResult: CallResult, ResultObject {
    let now: Date
    let timeZone: String
    let utcOffset: Int

    static let members = ResultMembers<Self>(.instant("now", \.now), .field("time_zone", \.timeZone), .field("utc_offset_s", \.utcOffset))
}

/// `mcp.settings`: what `assistantctl mcp` offers an AI assistant.
struct MCPSettingsResult: CallResult, ResultObject {
    let tools: [String]
    let allowDestructive: Bool
    let confirmDestructive: Bool
    let filesDir: String

    static let members = ResultMembers<Self>(
        .field("tools", \.tools, "method names or prefixes ending in *; empty: all that may be offered"),
        .field("allow_destructive", \.allowDestructive), .field("confirm_destructive", \.confirmDestructive),
        .field("files_dir", \.filesDir, "where file paths may point when the client declares no roots"))
}

/// One key `config.toml` may hold (`config.keys`).
struct ConfigKeyRow: Sendable, ResultObject {
    let key: String
    let plugin: String
    let type: String
    let `default`: String
    let help: String

    static let members = ResultMembers<Self>(
        .field("key", \.key, "the dotted key, e.g. notify.mail.to or plugins.tasks.mail_to"),
        .field("plugin", \.plugin, "the plugin the key belongs to; host for the daemon's own"), .field("type", \.type),
        .field("default", \.default, "the default as TOML text, or how it is worked out"), .field("help", \.help))
}
