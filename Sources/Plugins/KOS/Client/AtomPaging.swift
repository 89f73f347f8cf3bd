import Foundation
import PluginKit

extension UpstreamClient {
    /// Every entry of an Atom collection (KOSapi): follows `rel="next"` until there is none or
    /// `maxItems` entries that `keep` accepts are read (a search filtered on our side pages on
    /// until it has enough). A next page outside the base URL is refused rather than fetched,
    /// since the credentials would go with it.
    func atomEntries(
        _ path: String, query: [(String, String)] = [], maxItems: Int = .max, where keep: (AtomDocument.Entry) -> Bool = { _ in true }
    ) async throws -> [AtomDocument.Entry] {
        var base = configuration.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        var entries: [AtomDocument.Entry] = []
        var nextPath = path
        var nextQuery = query
        for _ in 0..<10_000 {
            let response = try await send(.GET, nextPath, query: nextQuery, headers: ["Accept": "application/atom+xml"])
            guard (200..<300).contains(response.status) else {
                throw unreachable("answered \(response.status): \(response.text.prefix(200))", status: response.status)
            }
            let page: AtomDocument
            do { page = try AtomDocument(parsing: Data(response.body.readableBytesView)) } catch {
                throw unreadable(nextPath, error)
            }
            entries += page.entries.filter(keep)
            guard entries.count < maxItems, let next = page.next else { break }
            guard next.hasPrefix(base + "/") || next.hasPrefix(base + "?") else {
                throw unreachable("sent a next page outside \(origin); it was not followed")
            }
            nextPath = String(next.dropFirst(base.count))
            nextQuery = []
        }
        return Array(entries.prefix(maxItems))
    }
}
