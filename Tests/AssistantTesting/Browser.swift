import AsyncHTTPClient
import Foundation
import NIOCore

/// A browser on this machine, for login flows: opens an address and follows the login page's
/// redirects to the loopback capture, or reads one redirect without following it (the address a
/// person would paste).
public enum Browser {
    /// Opens `url`, following redirects; the last page's status and text. `headers` go with the
    /// request (a cookie).
    public static func open(_ url: String, headers: [(String, String)] = []) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }

    /// The `Location` of the first answer, not followed.
    public static func redirectLocation(_ url: String) async throws -> String? {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            return response.headers.first(name: "Location")
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
