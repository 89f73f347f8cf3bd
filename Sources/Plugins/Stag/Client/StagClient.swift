import Foundation
import NIOHTTP1
import PluginKit

/// One account's way to IS/STAG's `rest2` services, on the kit's `UpstreamClient`: the ticket
/// goes as `Cookie: WSCOOKIE=…` (never in a URL), JSON is asked for, and STAG's statuses get their
/// meanings: 401 needs a new login (the kit marks the account), 403 is a refused role, 500 is
/// STAG failing (served from the cache when a copy exists).
struct StagClient: Sendable {
    let account: String
    let base: String
    let language: String
    let reads: UpstreamClient
    /// Registration and unregistration are GETs that change state: never retried.
    let actions: UpstreamClient

    static let servicePath = "/ws/services/rest2/"

    init(
        account: String, base: String, ticket: String?, language: String, context: PluginContext,
        onReauthNeeded: @escaping @Sendable (String) async -> Void
    )
        throws(RPCError)
    {
        self.account = account
        self.base = base
        self.language = language
        var configuration = UpstreamClient.Configuration(
            baseURL: base, auth: ticket.map { .cookie("WSCOOKIE=\($0)") } ?? .none, timeout: context.httpTimeout,
            reauthCommand: "assistantctl stag.login account=\(account) …")
        reads = try UpstreamClient(
            plugin: "stag", account: account, configuration: configuration, http: context.http, clock: context.clock, onReauthNeeded: onReauthNeeded)
        configuration.retries = 0
        actions = try UpstreamClient(
            plugin: "stag", account: account, configuration: configuration, http: context.http, clock: context.clock, onReauthNeeded: onReauthNeeded)
    }

    /// `https://host`, `https://host/`, `https://host/ws` and `…/ws/` all name the same instance.
    static func normalizedBase(_ text: String) -> String {
        var base = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix("/ws") { base.removeLast(3) }
        return base
    }

    /// A read: JSON, with the operation's quirks left to the caller.
    func read(_ operation: String, _ query: [(String, String)] = []) async throws -> JSONValue {
        let response = try await reads.get(
            Self.servicePath + operation, query: query + [("lang", language), ("outputFormat", "JSON")], headers: ["Accept": "application/json"])
        try check(response, operation)
        do {
            guard let json = try response.decodedJSON() else { throw JSONParseError(offset: 0, reason: "an empty body") }
            return json
        } catch {
            throw StagError.unexpectedAnswer(
                operation, "not JSON (\(response.headers.first(name: "Content-Type") ?? "no type"): \(error))",
                server: URLComponents(string: base).map { "\($0.host ?? base)\($0.port.map { ":\($0)" } ?? "")" })
        }
    }

    /// The list `list` of an operation's answer, each row decoded as `Row` (a row that is not an
    /// object is left out); an answer without the list is STAG's fault, said as such.
    func rows<Row: Decodable>(_ operation: String, _ query: [(String, String)] = [], list: String, as type: Row.Type) async throws -> [Row] {
        guard let rows = try await read(operation, query)[list]?.arrayValue else { throw StagError.unexpectedAnswer(operation, "no \(list) list") }
        return JSONTreeDecoder.rows(rows, as: type)
    }

    /// A state-changing call that answers plain text (`OK` or STAG's refusal).
    func action(_ operation: String, _ query: [(String, String)]) async throws -> String {
        let response = try await actions.get(Self.servicePath + operation, query: query + [("lang", language)])
        try check(response, operation)
        return response.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func check(_ response: UpstreamResponse, _ operation: String) throws {
        switch response.status {
        case 200..<300: return
        case 403: throw StagError.roleRefused(account, Self.excerpt(response.text))
        case 500...:
            throw reads.unreachable("answered \(response.status) to \(operation): \(Self.excerpt(response.text))", status: response.status)
        default: throw StagError.badRequest(operation, response.status, Self.excerpt(response.text))
        }
    }

    static func excerpt(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        return flat.isEmpty ? "no text" : String(flat.prefix(200))
    }
}
