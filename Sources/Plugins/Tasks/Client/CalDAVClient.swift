import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PluginKit

/// A calendar collection on a CalDAV server.
struct RemoteCalendar: Sendable, Equatable {
    var href: String
    var name: String
    var components: [String]
    var syncToken: String?
}

/// CalDAV (RFC 4791) and WebDAV sync (RFC 6578) over the kit's upstream client (Basic auth in a
/// header, 401 → the account needs re-auth, timeouts and retries on the host clock).
struct CalDAVClient: Sendable {
    let upstream: UpstreamClient
    let account: String

    enum SyncFailure: Error { case tokenRefused }

    init(
        account: String, url: URL, username: String, password: String, clock: any HostClock, timeout: Duration,
        onReauthNeeded: @escaping @Sendable (String) async -> Void = { _ in }
    ) throws(RPCError) {
        var origin = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        origin.path = ""
        origin.query = nil
        origin.fragment = nil
        self.account = account
        upstream = try UpstreamClient(
            plugin: "tasks", account: account,
            configuration: .init(
                baseURL: origin.string ?? url.absoluteString, auth: .basic(user: username, password: password),
                timeout: timeout, maxResponseBytes: 128 << 20, plainHTTP: .loopbackOnly,
                reauthCommand: "assistantctl tasks.caldav.add name=\(account) url=… username=… password=…"),
            clock: clock, onReauthNeeded: onReauthNeeded)
    }

    private func dav(_ method: String, _ path: String, depth: String?, body: String?, extra: HTTPHeaders = [:]) async throws -> UpstreamResponse {
        var headers = extra
        if let depth { headers.add(name: "Depth", value: depth) }
        if body != nil { headers.add(name: "Content-Type", value: "application/xml; charset=utf-8") }
        return try await upstream.send(HTTPMethod(rawValue: method), path, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    private func multistatus(_ response: UpstreamResponse, _ what: String) throws -> (responses: [DAVResponse], syncToken: String?) {
        guard response.status == 207 else { throw TasksError.calendarProblem(account, "\(what): \(upstream.origin) answered \(response.status)") }
        do {
            return DAVResponse.multistatus(try DAVElement.parse(Data(response.body.readableBytesView), limits: .default))
        } catch {
            throw TasksError.calendarProblem(account, "\(what): the answer of \(upstream.origin) \(error)")
        }
    }

    /// Path part of an href or URL.
    static func path(_ href: String) -> String {
        if href.hasPrefix("/") { return href }
        return URL(string: href).map { $0.path.isEmpty ? "/" : $0.path + (href.hasSuffix("/") && !$0.path.hasSuffix("/") ? "/" : "") } ?? href
    }

    /// Discovery (RFC 6764, RFC 4791 §6): the given URL if it is a calendar, else
    /// `/.well-known/caldav` or the URL → current-user-principal → calendar-home-set → its calendars.
    func calendars(startingAt url: URL) async throws -> [RemoteCalendar] {
        let start = url.path.isEmpty || url.path == "/" ? "/.well-known/caldav" : Self.path(url.absoluteString)
        var here = start
        var response = try await dav("PROPFIND", here, depth: "0", body: DAVBody.discovery)
        for _ in 0..<3 where [301, 302, 307, 308].contains(response.status) {
            guard let location = response.headers.first(name: "Location") else { break }
            here = Self.path(location)
            response = try await dav("PROPFIND", here, depth: "0", body: DAVBody.discovery)
        }
        if response.status == 404 && start == "/.well-known/caldav" {
            here = "/"
            response = try await dav("PROPFIND", here, depth: "0", body: DAVBody.discovery)
        }
        let first = try multistatus(response, "PROPFIND \(here)").responses.first
        if let first, first.property("resourcetype")?.first("calendar", DAVElement.caldav) != nil {
            return [Self.calendar(first)].compactMap { $0 }
        }
        var home = first?.property("calendar-home-set", DAVElement.caldav)?.first("href", DAVElement.dav)?.trimmedText
        if home == nil, let principal = first?.property("current-user-principal")?.first("href", DAVElement.dav)?.trimmedText {
            let p = try multistatus(try await dav("PROPFIND", Self.path(principal), depth: "0", body: DAVBody.discovery), "PROPFIND principal")
            home = p.responses.first?.property("calendar-home-set", DAVElement.caldav)?.first("href", DAVElement.dav)?.trimmedText
        }
        guard let home else { throw TasksError.calendarProblem(account, "no calendar-home-set found at \(upstream.origin)\(here)") }
        let listing = try multistatus(try await dav("PROPFIND", Self.path(home), depth: "1", body: DAVBody.discovery), "PROPFIND calendar home")
        return listing.responses.compactMap(Self.calendar)
    }

    private static func calendar(_ r: DAVResponse) -> RemoteCalendar? {
        guard r.property("resourcetype")?.first("calendar", DAVElement.caldav) != nil else { return nil }
        var components =
            r.property("supported-calendar-component-set", DAVElement.caldav)?.children("comp", DAVElement.caldav)
            .compactMap { $0.attributes["name"]?.uppercased() } ?? []
        if components.isEmpty { components = ["VEVENT", "VTODO"] }
        let name = r.text("displayname").flatMap { $0.isEmpty ? nil : $0 } ?? r.href
        return RemoteCalendar(href: path(r.href), name: name, components: components, syncToken: r.text("sync-token"))
    }

    /// RFC 6578 sync-collection: changed (href, etag) and deleted hrefs since `token`.
    func changes(in calendar: String, since token: String?) async throws -> (changed: [(String, String)], deleted: [String], token: String?) {
        let response = try await dav("REPORT", calendar, depth: "0", body: DAVBody.syncCollection(token: token))
        // An expired or unknown token: 403 with valid-sync-token (RFC 6578); some servers say 409, 410 or 500.
        if [400, 403, 409, 410, 412, 500, 501, 507].contains(response.status) && token != nil { throw SyncFailure.tokenRefused }
        let result = try multistatus(response, "sync-collection")
        var changed: [(String, String)] = []
        var deleted: [String] = []
        for r in result.responses where Self.path(r.href) != calendar {
            if r.status == 404 {
                deleted.append(Self.path(r.href))
                continue
            }
            if let etag = r.text("getetag") { changed.append((Self.path(r.href), etag)) }
        }
        return (changed, deleted, result.syncToken)
    }

    /// Every object's etag (the full comparison when there is no usable token).
    func etags(in calendar: String) async throws -> [String: String] {
        let result = try multistatus(try await dav("PROPFIND", calendar, depth: "1", body: DAVBody.etags), "PROPFIND etags")
        var etags: [String: String] = [:]
        for r in result.responses where Self.path(r.href) != calendar && r.property("resourcetype")?.first("collection", DAVElement.dav) == nil {
            if let etag = r.text("getetag") { etags[Self.path(r.href)] = etag }
        }
        return etags
    }

    func syncToken(of calendar: String) async throws -> String? {
        try multistatus(try await dav("PROPFIND", calendar, depth: "0", body: DAVBody.discovery), "PROPFIND").responses.first?.text("sync-token")
    }

    /// calendar-multiget: (href, etag, iCalendar text), in batches.
    func objects(in calendar: String, hrefs: [String]) async throws -> [(href: String, etag: String?, text: String)] {
        var result: [(String, String?, String)] = []
        var start = 0
        while start < hrefs.count {
            let batch = Array(hrefs[start..<min(start + 200, hrefs.count)])
            start += batch.count
            let answer = try multistatus(try await dav("REPORT", calendar, depth: "1", body: DAVBody.multiget(batch)), "calendar-multiget")
            for r in answer.responses {
                guard let data = r.text("calendar-data", DAVElement.caldav) else { continue }
                result.append((Self.path(r.href), r.text("getetag"), data))
            }
        }
        return result
    }

    enum WriteOutcome: Sendable {
        case written(etag: String?)
        case conflict
    }

    /// PUT with `If-None-Match: *` (create) or `If-Match` (update); 412 is a conflict to merge.
    func put(_ href: String, ics: String, ifMatch etag: String?) async throws -> WriteOutcome {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/calendar; charset=utf-8")
        if let etag { headers.add(name: "If-Match", value: etag) } else { headers.add(name: "If-None-Match", value: "*") }
        let response = try await upstream.send(.PUT, href, headers: headers, body: ByteBuffer(string: ics))
        switch response.status {
        case 200..<300: return .written(etag: response.headers.first(name: "ETag"))
        case 412: return .conflict
        default:
            throw TasksError.calendarProblem(account, "PUT \(href): the server answered \(response.status) \(response.text.prefix(200))")
        }
    }

    func delete(_ href: String, ifMatch etag: String?) async throws -> WriteOutcome {
        var headers = HTTPHeaders()
        if let etag { headers.add(name: "If-Match", value: etag) }
        let response = try await upstream.send(.DELETE, href, headers: headers)
        switch response.status {
        case 200..<300, 404, 410: return .written(etag: nil)
        case 412: return .conflict
        default: throw TasksError.calendarProblem(account, "DELETE \(href): the server answered \(response.status)")
        }
    }

    func get(_ href: String) async throws -> (etag: String?, text: String)? {
        let response = try await upstream.send(.GET, href)
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else { throw TasksError.calendarProblem(account, "GET \(href): \(response.status)") }
        return (response.headers.first(name: "ETag"), response.text)
    }

    func etag(of href: String) async throws -> String? {
        let result = try multistatus(try await dav("PROPFIND", href, depth: "0", body: DAVBody.etags), "PROPFIND etag")
        return result.responses.first?.text("getetag")
    }
}
