import Foundation
import PluginKit

/// An address a caller gives for the daemon to fetch from (a file to upload, a camera of a
/// printer's own): absolute http(s), at most 2 KB, with no user or password in it. The error
/// never repeats the address, which may hold a secret.
enum HTTPAddress {
    /// Query keys that carry a credential (a camera's `…?user=admin&password=…`).
    static let credentialKeys: Set<String> = ["user", "username", "password", "pass", "pwd", "token", "key", "apikey", "api_key", "auth", "secret"]

    /// `noCredentialsInQuery`: for an address that is kept and shown (a camera's), a credential
    /// in its query is refused too.
    static func checked(_ raw: String, param: String, noCredentialsInQuery: Bool = false) throws(RPCError) -> URL {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard text.utf8.count <= 2048, let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else { throw RPCError.invalidParam(param, "is not an http:// or https:// address") }
        let queryKeys =
            noCredentialsInQuery ? URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map { $0.name.lowercased() } ?? [] : []
        guard url.user == nil, url.password == nil, !queryKeys.contains(where: credentialKeys.contains) else {
            throw RPCError.invalidParam(param, "carries a user, password or token; an address must not carry credentials")
        }
        return url
    }
}
