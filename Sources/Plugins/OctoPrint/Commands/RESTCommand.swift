import AsyncHTTPClient
import Foundation
import NIOHTTP1
import PluginKit

/// Temperature maxima the plugin enforces (OctoPrint itself has none).
struct TemperatureLimits: Sendable {
    var tool: Double
    var bed: Double
    var chamber: Double
}

/// A command that is one OctoPrint REST call: parameters validated here, nothing sent on bad input.
struct RESTCommand: Sendable {
    var name: String
    var summary: String
    var params: [any ParamDeclaration]
    var method: HTTPMethod
    var path: @Sendable (Params) throws(RPCError) -> String
    var query: @Sendable (Params) -> [(String, String)] = { _ in [] }
    var body: (@Sendable (Params, TemperatureLimits) throws(RPCError) -> JSONValue?)? = nil
    var conflict: ConflictMeaning = .other
    var example: String? = nil
    /// What a 404 means for this command, when it is clearer than "not found".
    var onNotFound: (@Sendable (Params) -> OctoPrintError)? = nil
    /// The answer's schema where this plugin relies on its fields; else OctoPrint's answer, open.
    var result: JSONSchema? = nil
}

enum REST {
    /// A path segment or file path for a URL (each segment percent-encoded, '/' kept).
    static func encoded(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).map {
            $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? String($0)
        }.joined(separator: "/")
    }

    static func fixed(_ p: String) -> @Sendable (Params) throws(RPCError) -> String { { _ throws(RPCError) in p } }

    /// A required text parameter, trimmed and not empty (OctoPrint takes a blank name as "all").
    static func required(_ params: Params, _ key: RequiredParam<String>) throws(RPCError) -> String {
        let v = try params[key].trimmingCharacters(in: .whitespaces)
        guard !v.isEmpty else { throw RPCError.invalidParam(key.name, "is required") }
        return v
    }

    static func command(_ name: String, _ extra: [String: JSONValue] = [:]) -> JSONValue {
        .object(extra.merging(["command": .string(name)]) { $1 })
    }

    static func temperature(_ params: Params, _ key: RequiredParam<Double>, max: Double, what: String) throws(RPCError) -> Double {
        let name = key.name
        let t = try params[key]
        guard t >= 0 else { throw RPCError.invalidParam(name, "must not be negative, got \(t.formatted()) °C") }
        guard t <= max else {
            throw RPCError.invalidParam(
                name, "\(t.formatted()) °C is above the \(what) limit of \(max.formatted()) °C (plugins.octoprint.max_\(what)_temp)")
        }
        return t
    }

    static func filePathURL(_ p: Params) throws(RPCError) -> String {
        "/api/files/\(p[OctoPrintParams.location])/\(encoded(try required(p, OctoPrintParams.filePath)))"
    }
}

extension RESTCommand {
    /// What calling it does to the world, from what it is: a GET reads; any other method is
    /// destructive (it moves, heats, prints, deletes, replaces or reaches past the printer),
    /// except the writes named in `RESTCatalog.writes`, each with the reason it loses nothing.
    var effect: CommandEffect {
        if method == .GET { return .read }
        return RESTCatalog.writes[name] == nil ? .destructive : .write
    }

    /// Why an AI assistant is never offered it (`RESTCatalog.personOnly`), or nil.
    var personOnly: String? {
        RESTCatalog.personOnly.first { prefix, _ in name == prefix || name.hasPrefix(prefix + ".") }?.value
    }
}
