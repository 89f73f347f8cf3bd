import Foundation

/// XDG base directories and the daemon's default file locations.
public enum Paths {
    static func home(_ env: [String: String]) -> String {
        env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    static func xdg(_ env: [String: String], _ variable: String, fallback: String) -> String {
        if let value = env[variable], value.hasPrefix("/") { return value }
        return (home(env) as NSString).appendingPathComponent(fallback)
    }

    public static func configFile(environment env: [String: String]) -> String {
        if let explicit = env["ASSISTANT_CONFIG"], !explicit.isEmpty { return explicit }
        return (xdg(env, "XDG_CONFIG_HOME", fallback: ".config") as NSString).appendingPathComponent("assistant/config.toml")
    }

    public static func dataDirectory(explicit: String?, environment env: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnv = env["ASSISTANT_DATA_DIR"], !fromEnv.isEmpty { return fromEnv }
        return (xdg(env, "XDG_DATA_HOME", fallback: ".local/share") as NSString).appendingPathComponent("assistant")
    }

    public static func vaultKeyFile(environment env: [String: String]) -> String {
        (xdg(env, "XDG_CONFIG_HOME", fallback: ".config") as NSString).appendingPathComponent("assistant/vault.key")
    }

    /// `--socket` > `ASSISTANT_SOCKET` > config > `$XDG_RUNTIME_DIR/assistant/assistantd.sock` > `/tmp/assistant-$UID/…`.
    public static func socket(explicit: String?, configured: String?, environment env: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnv = env["ASSISTANT_SOCKET"], !fromEnv.isEmpty { return fromEnv }
        if let configured, !configured.isEmpty { return configured }
        if let runtime = env["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime as NSString).appendingPathComponent("assistant/assistantd.sock")
        }
        return "/tmp/assistant-\(getuid())/assistantd.sock"
    }

    /// `sun_path` holds 108 bytes on Linux (104 on macOS), including the terminating NUL.
    public static let maxSocketPathBytes: Int = {
        #if os(Linux)
            return 107
        #else
            return 103
        #endif
    }()
}
