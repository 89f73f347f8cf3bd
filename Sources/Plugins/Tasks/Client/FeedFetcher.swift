import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PluginKit

/// A read-only ICS subscription: `https`, `http` or `file`, fetched with ETag and If-Modified-Since.
struct FeedFetcher {
    enum Outcome: Sendable {
        case unchanged
        case changed(text: String, etag: String?, lastModified: String?)
    }

    /// Checks a feed address a person gave. The query often carries a private token, so the URL
    /// itself is a secret (kept in the vault) and shown only as `displayURL`.
    static func check(_ text: String, param: String = "url") throws(RPCError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw RPCError.invalidParam(param, "is not an address (https://…, http://… or file:///…)")
        }
        switch scheme {
        case "https", "http":
            guard let host = url.host, !host.isEmpty else { throw RPCError.invalidParam(param, "has no host") }
            guard url.user == nil, url.password == nil else {
                throw RPCError.invalidParam(param, "must not carry a user or password; give username and password instead")
            }
        case "file":
            guard !url.path.isEmpty else { throw RPCError.invalidParam(param, "has no path") }
        case "webcal", "webcals":
            throw RPCError.invalidParam(param, "use https:// instead of \(scheme):// (the same address)")
        default:
            throw RPCError.invalidParam(param, "must start with https://, http:// or file://")
        }
        return url
    }

    static func displayURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(hidden)" }
        let hadQuery = components.query != nil
        components.query = nil
        components.fragment = nil
        return (components.string ?? "(hidden)") + (hadQuery ? "?…" : "")
    }

    let name: String
    let url: URL
    let username: String?
    let password: String?
    let clock: any HostClock
    /// `http.timeout_s` (the plugin context's): the whole answer, body included.
    let timeout: Duration

    func fetch(etag: String?, lastModified: String?) async throws -> Outcome {
        if url.isFileURL {
            let path = url.path
            return try await runBlocking {
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                let stamp = (attributes?[.modificationDate] as? Date).map { String($0.timeIntervalSince1970) }
                let size = (attributes?[.size] as? NSNumber)?.stringValue ?? ""
                let version = "\(stamp ?? "")/\(size)"
                if version == lastModified { return .unchanged }
                let data: Data
                do throws(SafeFile.Failure) { data = try SafeFile.read(path, limit: SafeFile.Limit.importFile) } catch {
                    throw TasksError.feedUnreadable(name, error.description)
                }
                guard let text = String(data: data, encoding: .utf8) else { throw TasksError.feedUnreadable(name, "the file is not UTF-8 text") }
                return .changed(text: text, etag: nil, lastModified: version)
            }
        }
        var origin = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let pathAndQuery = (origin.percentEncodedPath.isEmpty ? "/" : origin.percentEncodedPath) + (origin.percentEncodedQuery.map { "?" + $0 } ?? "")
        origin.path = ""
        origin.query = nil
        origin.fragment = nil
        let auth: UpstreamAuth = username.map { .basic(user: $0, password: password ?? "") } ?? .none
        let client = try UpstreamClient(
            plugin: "tasks", account: "feed:\(name)",
            configuration: .init(baseURL: origin.string ?? "", auth: auth, timeout: timeout, maxResponseBytes: 64 << 20, plainHTTP: .allowed),
            clock: clock)
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "text/calendar, */*;q=0.5")
        // Office 365 and some others refuse clients that do not look like a browser or calendar app.
        headers.add(name: "User-Agent", value: "assistantd-tasks/1.0 (calendar subscription)")
        if let etag { headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { headers.add(name: "If-Modified-Since", value: lastModified) }
        let response: UpstreamResponse
        do {
            response = try await client.send(.GET, pathAndQuery, headers: headers)
        } catch let error as RPCError where error.code == RPCErrorCode.needsReauth {
            throw TasksError.feedUnreadable(name, "the server refused the username or password (401)")
        }
        switch response.status {
        case 304: return .unchanged
        case 200..<300:
            return .changed(
                text: response.text, etag: response.headers.first(name: "ETag"),
                lastModified: response.headers.first(name: "Last-Modified"))
        default:
            throw TasksError.feedUnreadable(name, "the server answered \(response.status)")
        }
    }
}
