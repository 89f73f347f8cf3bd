import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// KOS's paging of Atom collections through the kit's client (`UpstreamClient.atomEntries`),
/// against the loopback upstream and a hostile one.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct AtomPagingTests {
    static func client(_ base: String, clock: any HostClock = SystemClock()) throws -> UpstreamClient {
        try UpstreamClient(
            plugin: "kos", account: "main",
            configuration: .init(
                baseURL: base, auth: .none, caFile: nil, timeout: .seconds(10), maxResponseBytes: 1 << 20, retries: 0,
                retryDelay: .milliseconds(200), retryJitter: 0, reauthCommand: "assistantctl kos.login"),
            clock: clock, onReauthNeeded: { _ in })
    }

    /// KOSapi's paging: `rel="next"` relative to a slash-less `xml:base` keeps the version
    /// segment; a next page on another origin is never fetched.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "http.server")))
    func atomPagesAreFollowedWithinTheBaseOnly() async throws {
        let peer = try await HTTPUpstreamPeer()
        let client = try Self.client(peer.baseURL + "/api/3", clock: TestClock())
        let all = try await client.atomEntries("atom", query: [("limit", "2")])
        #expect(all.map(\.id) == ["0", "1", "2", "3", "4"], "three pages")
        #expect(all.map { $0.content?.first("code")?.trimmedText } == ["C0", "C1", "C2", "C3", "C4"])
        let three = try await client.atomEntries("atom", maxItems: 3)
        #expect(three.map(\.id) == ["0", "1", "2"])
        let refused = try #require(await rpcFailure { try await client.atomEntries("atom-elsewhere") })
        #expect(refused.code == -32004)
        #expect(refused.message.contains("not followed"))
    }

    @Test func aDeepAtomFeedIsAClearErrorNamingTheServer() async throws {
        try await HostileUpstream.with(.deepXML(depth: 100_000)) { server in
            let client = try AtomPagingTests.client(server.url + "/api/3")
            let error = try #require(await rpcFailure { try await client.atomEntries("/courses") })
            #expect(error.code == -32004)
            #expect(error.message == "Upstream answer unreadable: \(server.url)/courses nests XML elements deeper than the limit of 256")
            #expect(error.data?["url"] == .string(server.url))
        }
    }

    @Test func atomReadsWithinTheXMLLimits() throws {
        let deep = Data(HostileUpstream.nestedXML(depth: 100_000))
        #expect(AtomDocument(deep) == nil)
        let bad = Data("<d:multistatus xmlns:d=\"DAV:\"><d:g".utf8) + Data([0xFF, 0xFF]) + Data("etag/></d:multistatus>".utf8)
        #expect(throws: XMLNode.ParseFailure.notUTF8) { try AtomDocument(parsing: bad) }
        let accented = Data("<a:feed xmlns:a=\"http://www.w3.org/2005/Atom\"><a:title>Zimní semestr</a:title></a:feed>".utf8)
        #expect(try AtomDocument(parsing: accented).entries.isEmpty, "valid UTF-8 beyond ASCII is read")
    }
}
