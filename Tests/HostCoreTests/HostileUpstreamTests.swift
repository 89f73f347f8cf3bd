import AssistantTesting
import Foundation
import HostCore
import Testing

/// The kit's client and parsers against a server that answers the way a broken or hostile one
/// would (`HostileUpstream`): each ends in a clear -32004 or -32005 naming the server, in bounded
/// time and memory, never a crash.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HostileUpstreamTests {
    static func failure(_ body: () async throws -> Any) async -> RPCError? {
        await UpstreamClientTests.failure(body)
    }

    @Test func xmlNestedBeyondTheLimitIsRefusedWithoutBuildingTheTree() throws {
        // 100 000 levels crashed the daemon when the tree was freed (a recursive deinit).
        let deep = Data(HostileUpstream.nestedXML(depth: 100_000))
        #expect(throws: XMLNode.ParseFailure.tooDeep(limit: 256)) { try XMLNode.parse(deep, limits: .default) }
        #expect(XMLNode.parse(deep) == nil)
        // The limit is on depth, not on size: exactly at it is read.
        let atLimit = try XMLNode.parse(Data(HostileUpstream.nestedXML(depth: 256)), limits: .default)
        var depth = 1
        var node = atLimit
        while let child = node.children.first {
            depth += 1
            node = child
        }
        #expect(depth == 256)
        #expect(throws: XMLNode.ParseFailure.tooDeep(limit: 256)) { try XMLNode.parse(Data(HostileUpstream.nestedXML(depth: 257)), limits: .default) }
        let wide = Data(("<r>" + String(repeating: "<e/>", count: 2_000) + "</r>").utf8)
        #expect(throws: XMLNode.ParseFailure.tooManyElements(limit: 1_000)) { try XMLNode.parse(wide, limits: .init(maxElements: 1_000)) }
        #expect(try XMLNode.parse(wide, limits: .default).children.count == 2_000)
    }

    /// Found by `scripts/fuzz parsers`: Foundation's parser trapped (killing the daemon) on an
    /// element name holding bytes that are not UTF-8.
    @Test func xmlThatIsNotUTF8IsRefusedBeforeTheParser() throws {
        let bad = Data("<d:multistatus xmlns:d=\"DAV:\"><d:g".utf8) + Data([0xFF, 0xFF]) + Data("etag/></d:multistatus>".utf8)
        #expect(throws: XMLNode.ParseFailure.notUTF8) { try XMLNode.parse(bad, limits: .default) }
        // Also found by the fuzzer: a processing instruction without data crashed the parser.
        for text in ["<?xml version=\"1.0\"?><a><?x?></a>", "<?x?><a/>", "<a><!-- <?x?> --></a>"] {
            #expect(throws: XMLNode.ParseFailure.processingInstruction) { try XMLNode.parse(Data(text.utf8), limits: .default) }
        }
        #expect(try XMLNode.parse(Data("\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<a/>".utf8), limits: .default).name == "a")
        let accented = Data("<a:feed xmlns:a=\"http://www.w3.org/2005/Atom\"><a:title>Zimní semestr</a:title></a:feed>".utf8)
        #expect(try XMLNode.parse(accented, limits: .default).children.first?.text == "Zimní semestr", "valid UTF-8 beyond ASCII is read")
    }

    @Test func entitiesAreNeitherExpandedWithoutBoundNorLoadedFromFiles() throws {
        // libxml2 refuses the amplification outright: the document is not read at all.
        let laughs = Data(HostileUpstream.billionLaughsXML.utf8)
        #expect(throws: XMLNode.ParseFailure.malformed) { try XMLNode.parse(laughs, limits: .default) }
        // An external entity is parsed as a reference and never loaded: the title stays empty.
        let secret = TemporaryDirectory().write("secret.txt", "TOP-SECRET-42")
        let root = try XMLNode.parse(Data(HostileUpstream.externalEntityXML(path: secret).utf8), limits: .default)
        #expect(root.children.map(\.name) == ["title"])
        #expect(root.children.first?.text == "", "an external entity was loaded")
    }

    @Test func deepOrMalformedJSONIsAClearError() async throws {
        try await HostileUpstream.with(.deepJSON(depth: 100_000)) { server in
            let client = try UpstreamClientTests.client(server.url)
            let error = try #require(await Self.failure { try await client.json(.GET, "/data?x=secret") })
            #expect(error.code == -32004)
            #expect(
                error.message == "Upstream answer unreadable: \(server.url)/data is not JSON that can be read: nesting deeper than 512 at byte 512")
        }
        try await HostileUpstream.with(.answer(status: 200, contentType: "application/json", body: "{\"a\": [1, 2")) { server in
            let error = try #require(await Self.failure { try await UpstreamClientTests.client(server.url).json(.GET, "/data") })
            #expect(error.code == -32004)
            #expect(error.message.hasPrefix("Upstream answer unreadable: \(server.url)/data is not JSON that can be read:"), "\(error.message)")
        }
        try await HostileUpstream.with(.htmlError) { server in
            let error = try #require(await Self.failure { try await UpstreamClientTests.client(server.url).json(.GET, "/data") })
            #expect(error.code == -32004)
            #expect(error.data?["status"] == 500)
        }
    }

    /// `http.timeout_s` covers the whole answer: a body trickled a byte a second ends at the
    /// limit instead of holding the call for its whole command limit.
    @Test func aTrickledBodyEndsAtTheRequestsDeadline() async throws {
        try await HostileUpstream.with(.trickle(every: .milliseconds(200))) { server in
            // Retries allowed, yet a request that ran out of time is sent once: a person waits
            // its timeout, not three.
            let client = try UpstreamClientTests.client(server.url, timeout: .seconds(1), retries: 2)
            let error = try #require(await Self.failure { try await client.get("/slow") })
            #expect(error.code == -32005)
            #expect(error.message == "\(server.url) did not answer within 1 s (1 attempt)")
            #expect(server.requestCount == 1)
        }
    }

    @Test func endlessHugeResetAndTruncatedBodiesAreBounded() async throws {
        for behaviour: HostileUpstream.Behaviour in [.endlessBody, .hugeBody(bytes: 1 << 30)] {
            try await HostileUpstream.with(behaviour) { server in
                let client = try UpstreamClientTests.client(server.url, maxBytes: 1 << 20)
                let error = try #require(await Self.failure { try await client.get("/big") })
                #expect(error.code == -32004)
                #expect(error.message == "Upstream unreachable: \(server.url) answered more than 1048576 bytes")
            }
        }
        for behaviour: HostileUpstream.Behaviour in [.resetMidBody, .truncated] {
            try await HostileUpstream.with(behaviour) { server in
                let error = try #require(await Self.failure { try await UpstreamClientTests.client(server.url).get("/x") })
                #expect(error.code == -32004, "\(behaviour): \(error.message)")
                #expect(error.message.hasPrefix("Upstream unreachable: \(server.url) "), "\(behaviour): \(error.message)")
            }
        }
    }

    /// A gzip body inflates only up to a ratio of what came (AsyncHTTPClient's limit), and
    /// never past the answer's size limit.
    @Test func aGzipBombStopsAtTheInflationLimit() async throws {
        try await HostileUpstream.with(.gzipBomb(inflatedBytes: 1 << 30)) { server in
            let client = try UpstreamClientTests.client(server.url, maxBytes: 64 << 20)
            let error = try #require(await Self.failure { try await client.get("/feed") })
            #expect(error.code == -32004)
            #expect(error.message == "Upstream unreachable: \(server.url) answered a compressed body that inflates more than 25 times its size")
        }
    }

    /// Redirects are followed within the account's origin only, and a refused one names where
    /// it led (the origin, never a path), not the server that sent it.
    @Test func redirectsLeadNowhereElse() async throws {
        try await HostileUpstream.with(.redirectLoop) { server in
            let error = try #require(await Self.failure { try await UpstreamClientTests.client(server.url).get("/start") })
            #expect(
                error.message
                    == "Upstream unreachable: \(server.url) redirected more than 5 times (a redirect loop?); the last redirect was not followed")
            #expect(server.requestLines == ["GET /start"] + Array(repeating: "GET /again", count: 5))
        }
        try await HostileUpstream.with(.redirect(to: "file:///etc/passwd")) { server in
            let error = try #require(await Self.failure { try await UpstreamClientTests.client(server.url).get("/start") })
            #expect(error.message.contains("redirected to a file: address, which is not followed"), "\(error.message)")
        }
        // 192.0.2.1 (TEST-NET-1) is never contacted: the redirect is refused before any connection.
        try await HostileUpstream.with(.redirect(to: "http://192.0.2.1:8443/steal?token=x")) { server in
            let error = try #require(await Self.failure { try await UpstreamClientTests.client(server.url).get("/start") })
            #expect(
                error.message
                    == "Upstream unreachable: \(server.url) redirected to http://192.0.2.1:8443, which is not followed: only redirects within "
                    + "\(server.url) are (set the address to where it now is)"
            )
            #expect(!error.message.contains("token"))
        }
    }
}
