import Foundation

/// A parameter as `help {method}` describes it; what the CLI needs to prepare arguments.
public struct ParamInfo: Sendable, Equatable {
    public var name: String
    public var type: String
    public var required: Bool
    public var itemType: String?

    public init(name: String, type: String, required: Bool, itemType: String? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.itemType = itemType
    }

    public static func list(fromHelp help: JSONValue) -> [ParamInfo] {
        (help["params"]?.arrayValue ?? []).compactMap { p in
            guard let name = p["name"]?.stringValue, let type = p["type"]?.stringValue else { return nil }
            return ParamInfo(name: name, type: type, required: p["required"]?.boolValue ?? false, itemType: p["items"]?.stringValue)
        }
    }
}

public struct UsageError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Turns `key=value` (or positional) words into JSON-RPC params, following lightning-cli's
/// literal rule: numbers, true/false/null and values that start and end with {} [] or "" pass as
/// JSON; anything else is a string. Parameters the method declares as strings stay strings
/// (so `name=007` is not a number), paths are made absolute, secrets are refused.
public enum CallArguments {
    public static func build(_ words: [String], params: [ParamInfo]?, workingDirectory: String) throws -> JSONValue? {
        guard !words.isEmpty else { return nil }
        let keyword = words.contains { $0.contains("=") }
        let byName = Dictionary((params ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        if keyword {
            var object: [String: JSONValue] = [:]
            for word in words {
                guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
                    throw UsageError("'\(word)' is not key=value; give every argument as key=value, or none")
                }
                let key = String(word[..<eq])
                let raw = String(word[word.index(after: eq)...])
                guard object[key] == nil else { throw UsageError("'\(key)' is given twice") }
                object[key] = try convert(raw, info: byName[key], workingDirectory: workingDirectory)
            }
            return .object(object)
        }
        var items: [JSONValue] = []
        for (index, word) in words.enumerated() {
            let info = params.flatMap { index < $0.count ? $0[index] : nil }
            items.append(try convert(word, info: info, workingDirectory: workingDirectory))
        }
        return .array(items)
    }

    static let stringTypes: Set<String> = ["string", "enum", "date", "datetime", "path", "secret"]

    public static func convert(_ raw: String, info: ParamInfo?, workingDirectory: String) throws -> JSONValue {
        if let info {
            if info.type == "secret" {
                throw UsageError(
                    "refusing to take '\(info.name)' from the command line, where other users and your shell history can see it; "
                        + "leave it out and type it at the prompt, or pipe it on standard input")
            }
            if info.type == "path" { return .string(absolute(unquote(raw), workingDirectory)) }
            if info.type == "array", info.itemType == "path", let list = literal(raw)?.arrayValue {
                return .array(list.map { $0.stringValue.map { .string(absolute($0, workingDirectory)) } ?? $0 })
            }
            if info.type == "array", info.itemType == "path" { return .array([.string(absolute(raw, workingDirectory))]) }
            // `tags=exam,math`: a list of words without JSON's brackets and quotes (the JSON form works too).
            if info.type == "array", info.itemType == "string" || info.itemType == "enum", literal(raw) == nil {
                return .array(raw.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 != "" })
            }
            if stringTypes.contains(info.type) { return .string(unquote(raw)) }
            // Whole numbers are minutes; anything else (1:30, 1.5) is hours for the daemon to read.
            if info.type == "duration" {
                if raw.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let minutes = Int64(raw) { return .int(minutes) }
                return .string(unquote(raw))
            }
        }
        return literal(raw) ?? .string(raw)
    }

    /// The lightning-cli literal rule.
    public static func literal(_ raw: String) -> JSONValue? {
        let isNumber = raw.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
        let wrapped =
            (raw.hasPrefix("{") && raw.hasSuffix("}")) || (raw.hasPrefix("[") && raw.hasSuffix("]"))
            || (raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\""))
        guard isNumber || wrapped || ["true", "false", "null"].contains(raw) else { return nil }
        return try? JSONValue.decode(raw)
    }

    static func unquote(_ raw: String) -> String {
        if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\""), let s = (try? JSONValue.decode(raw))?.stringValue { return s }
        return raw
    }

    static func absolute(_ path: String, _ cwd: String) -> String {
        if path.hasPrefix("/") { return path }
        if path == "~" || path.hasPrefix("~/") {
            return (NSString(string: path).expandingTildeInPath as NSString).standardizingPath
        }
        return ((cwd as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }
}
