import HostCore

/// The Stag plugin's own error codes (block 1300–1399, listed in the README).
enum StagError {
    /// Every code this plugin sends, in its block (checked when the plugin registers).
    static let block = ErrorBlock(
        1300...1399,
        codes: [
            1301: "STAG refused a registration or an unregistration (its words in data.reason)",
            1302: "the login was cancelled",
            1303: "the account has no such role in STAG",
            1304: "STAG refused the role (403)",
            1305: "STAG could not answer the request",
            1306: "STAG's answer could not be read",
            1307: "the term is not watched",
            1308: "a file could not be written",
            1309: "the canteen service could not be read",
        ])

    /// STAG refused a registration or an unregistration (its own words in `data.reason`).
    static func refused(_ action: String, term: Int64, reason: String) -> RPCError {
        RPCError(code: 1301, message: reason, data: ["term_id": .int(term), "action": .string(action), "reason": .string(reason)])
    }
    static func loginCancelled() -> RPCError {
        RPCError(code: 1302, message: "The login was cancelled (STAG sent an anonymous or empty ticket); log in again")
    }
    static func noRole(_ account: String, _ role: String) -> RPCError {
        RPCError(code: 1303, message: "Account '\(account)' has no \(role) role in STAG", data: ["account": .string(account), "role": .string(role)])
    }
    static func roleRefused(_ account: String, _ detail: String) -> RPCError {
        RPCError(code: 1304, message: "STAG refused the role for account '\(account)' (403): \(detail)", data: ["account": .string(account)])
    }
    static func badRequest(_ operation: String, _ status: Int, _ detail: String) -> RPCError {
        RPCError(
            code: 1305, message: "STAG could not answer \(operation) (\(status)): \(detail)",
            data: ["operation": .string(operation), "status": .int(Int64(status))])
    }
    /// `server`: the instance's host (and port), named in the message when known.
    static func unexpectedAnswer(_ operation: String, _ detail: String, server: String? = nil) -> RPCError {
        var data: [String: JSONValue] = ["operation": .string(operation)]
        data["server"] = server.map(JSONValue.string)
        return RPCError(
            code: 1306, message: "STAG's answer to \(operation)\(server.map { " from \($0)" } ?? "") could not be read: \(detail)",
            data: .object(data))
    }
    static func termNotFound(_ term: Int64) -> RPCError {
        RPCError.notFound("exam term \(term)", data: ["term_id": .int(term)])
    }
    static func notWatched(_ term: Int64) -> RPCError {
        RPCError(code: 1307, message: "Term \(term) is not watched", data: ["term_id": .int(term)])
    }
    static func file(_ path: String, _ problem: String) -> RPCError {
        RPCError(code: 1308, message: "Cannot write '\(path)': \(problem)", data: ["path": .string(path)])
    }
    static func canteen(_ detail: String) -> RPCError {
        RPCError(code: 1309, message: "The canteen service could not be read: \(detail)")
    }
}
