import PluginKit

/// The Stag plugin's own errors (block 1300–1399, listed in the README): one case per code, thrown
/// as is and handled by case.
enum StagError: PluginErrorCase {
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
    case refused(String, term: Int64, reason: String)
    case loginCancelled
    case noRole(String, String)
    case roleRefused(String, String)
    case badRequest(String, Int, String)
    /// `server`: the instance's host (and port), named in the message when known.
    case unexpectedAnswer(String, String, server: String? = nil)
    case notWatched(Int64)
    case file(String, String)
    case canteen(String)

    var code: Int {
        switch self {
        case .refused: 1301
        case .loginCancelled: 1302
        case .noRole: 1303
        case .roleRefused: 1304
        case .badRequest: 1305
        case .unexpectedAnswer: 1306
        case .notWatched: 1307
        case .file: 1308
        case .canteen: 1309
        }
    }

    var message: String {
        switch self {
        case .refused(_, _, let reason): reason
        case .loginCancelled: "The login was cancelled (STAG sent an anonymous or empty ticket); log in again"
        case .noRole(let account, let role): "Account '\(account)' has no \(role) role in STAG"
        case .roleRefused(let account, let detail): "STAG refused the role for account '\(account)' (403): \(detail)"
        case .badRequest(let operation, let status, let detail): "STAG could not answer \(operation) (\(status)): \(detail)"
        case .unexpectedAnswer(let operation, let detail, let server):
            "STAG's answer to \(operation)\(server.map { " from \($0)" } ?? "") could not be read: \(detail)"
        case .notWatched(let term): "Term \(term) is not watched"
        case .file(let path, let problem): "Cannot write '\(path)': \(problem)"
        case .canteen(let detail): "The canteen service could not be read: \(detail)"
        }
    }

    var data: JSONValue? {
        switch self {
        case .refused(let action, let term, let reason): ["term_id": .int(term), "action": .string(action), "reason": .string(reason)]
        case .loginCancelled, .canteen: nil
        case .noRole(let account, let role): ["account": .string(account), "role": .string(role)]
        case .roleRefused(let account, _): ["account": .string(account)]
        case .badRequest(let operation, let status, _): ["operation": .string(operation), "status": .int(Int64(status))]
        case .unexpectedAnswer(let operation, _, let server):
            server.map { ["operation": .string(operation), "server": .string($0)] } ?? ["operation": .string(operation)]
        case .notWatched(let term): ["term_id": .int(term)]
        case .file(let path, _): ["path": .string(path)]
        }
    }

    /// Not a Stag code: the host's "not found" (-32010).
    static func termNotFound(_ term: Int64) -> RPCError {
        RPCError.notFound("exam term \(term)", data: ["term_id": .int(term)])
    }
}
