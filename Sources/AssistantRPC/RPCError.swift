/// A JSON-RPC error object. The codes are part of the public API and documented in the README.
public struct RPCError: Error, Sendable, Hashable, Codable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    public init?(json: JSONValue) {
        guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else { return nil }
        self.init(code: Int(code), message: message, data: json["data"])
    }
}

/// Error codes. Protocol codes come from the JSON-RPC 2.0 specification; host conditions use
/// -32001…-32099; plugins own a block of 100 positive codes each.
public enum RPCErrorCode {
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603

    public static let shuttingDown = -32001
    public static let pluginNotReady = -32002
    public static let needsReauth = -32003
    public static let upstreamUnreachable = -32004
    public static let timeout = -32005
    public static let peerNotAllowed = -32006
    public static let requestTooLarge = -32007
    public static let vaultLocked = -32008
    public static let conflict = -32009
    public static let notFound = -32010
}

extension RPCError {
    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: RPCErrorCode.parseError, message: "Parse error: \(detail)")
    }
    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: RPCErrorCode.invalidRequest, message: "Invalid request: \(detail)")
    }
    /// -32601, naming the nearest method when one is a likely typo (`data.did_you_mean`).
    public static func methodNotFound(_ method: String, didYouMean nearest: String? = nil) -> RPCError {
        var data: [String: JSONValue] = ["method": .string(method), "hint": "run 'assistantctl help' for the list of methods"]
        data["did_you_mean"] = nearest.map(JSONValue.string)
        let guess = nearest.map { "; did you mean \($0)?" } ?? ""
        return RPCError(code: RPCErrorCode.methodNotFound, message: "Method not found: '\(method)'\(guess)", data: .object(data))
    }
    /// -32602 naming the parameter and what was wrong with it.
    public static func invalidParam(_ name: String, _ problem: String) -> RPCError {
        RPCError(
            code: RPCErrorCode.invalidParams, message: "Invalid params: '\(name)' \(problem)",
            data: ["param": .string(name), "problem": .string(problem)])
    }
    public static func invalidParams(_ detail: String) -> RPCError {
        RPCError(code: RPCErrorCode.invalidParams, message: "Invalid params: \(detail)")
    }
    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: RPCErrorCode.internalError, message: "Internal error: \(detail)")
    }
    public static func notFound(_ what: String, data: JSONValue? = nil) -> RPCError {
        RPCError(code: RPCErrorCode.notFound, message: "Not found: \(what)", data: data)
    }
}
