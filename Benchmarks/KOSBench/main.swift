import AssistantClient
import AssistantTesting
import AsyncHTTPClient
import Foundation
import FoundationXML
import HostCore
import KOS
import NIOCore

// The KOS benchmark (issue 13), release build, run by scripts/bench-kos: `kos.timetable`,
// `kos.courses`, `kos.results` and a four-page `kos.people.search`, each fresh (the fake KOSapi
// running) and from the cache (the fake stopped), beside the fake's own time for the very
// requests the call made (read from the fake's request log and replayed directly with the same
// token); and the cost of reading Atom, per 1 000 entries, beside Foundation's bare XML parser.

let runs = 30

func post(_ url: String, _ body: JSONValue) async throws {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.body = .bytes(ByteBuffer(bytes: body.encodedBytes()))
    _ = try await HTTPClient.shared.execute(request, timeout: .seconds(30)).body.collect(upTo: 1 << 20)
}

func get(_ url: String, token: String? = nil) async throws -> ByteBuffer {
    var request = HTTPClientRequest(url: url)
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    return try await response.body.collect(upTo: 16 << 20)
}

func time(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return ms(clock.now - start)
}

// MARK: Atom parsing per 1 000 entries

/// A feed of 1 000 parallels shaped like the reference's §5.3 recording.
func parallelsFeed(_ count: Int) -> Data {
    var text = """
        <?xml version="1.0" encoding="UTF-8"?><atom:feed xmlns="http://kosapi.feld.cvut.cz/schema/3" xmlns:atom="http://www.w3.org/2005/Atom" \
        xmlns:osearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:xlink="http://www.w3.org/1999/xlink" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xml:base="https://kosapi.fit.cvut.cz/api/3" xml:lang="cs"><atom:id>x</atom:id>
        """
    for i in 0..<count {
        text += """
            <atom:entry><atom:title>Paralelka \(i)</atom:title><atom:id>urn:cvut:kos:parallel:\(349_736_000 + i)</atom:id>\
            <atom:updated>2013-10-02T15:26:39.0</atom:updated><atom:author><atom:name>kosiuc</atom:name></atom:author>\
            <atom:link rel="self" href="parallels/\(349_736_000 + i)/"/><atom:content atom:type="xml" xsi:type="parallel">\
            <capacity>22</capacity><capacityOverfill>DENIED</capacityOverfill><code>\(100 + i % 50)</code>\
            <course xlink:href="courses/BI-OPT/">Optimalizace</course><enrollment>ALLOWED</enrollment><occupied>21</occupied>\
            <parallelType>TUTORIAL</parallelType><semester xlink:href="semesters/B251/">Zimní 2025/2026</semester>\
            <teacher xlink:href="teachers/novakpet/">Mgr. Petr Novák Ph.D.</teacher><timetableSlot id="\(i)"><day>\(1 + i % 5)</day>\
            <duration>2</duration><firstHour>\(1 + i % 13)</firstHour><parity>ODD</parity><room xlink:href="rooms/TH:A-1442/">TH:A-1442</room>\
            </timetableSlot></atom:content></atom:entry>
            """
    }
    return Data((text + "<osearch:startIndex>0</osearch:startIndex><osearch:totalResults>\(count)</osearch:totalResults></atom:feed>").utf8)
}

final class NoOpDelegate: NSObject, XMLParserDelegate {}

let feed = parallelsFeed(1000)
var atomTimes: [Double] = []
var bareTimes: [Double] = []
for round in 0..<25 {
    // Alternating, so neither side always runs warm.
    let bare = await time {
        let parser = XMLParser(data: feed)
        parser.shouldProcessNamespaces = true
        let delegate = NoOpDelegate()
        parser.delegate = delegate
        precondition(parser.parse())
    }
    let atom = await time { precondition(AtomDocument(feed)?.entries.count == 1000) }
    if round >= 5 {
        bareTimes.append(bare)
        atomTimes.append(atom)
    }
}

// MARK: Calls through the daemon

let fake = try PeerProcess(Peers.python, [Peers.script("kos_fake.py")])
let port = try await fake.announcedPort("the fake KOSapi")
let base = "http://127.0.0.1:\(port)"

let host = try await TestHost.started(plugins: [KOSPlugin()])
_ = try await host.call(
    "kos.setup",
    [
        "client_id": "assistant-app", "client_secret": "app-secret-123", "auth_url": .string(base), "api_url": .string(base + "/api/3"),
    ]
).get()
let started = try await host.call("kos.login").get()
_ = try await Browser.open(started["login_url"]!.stringValue!)
let loggedIn = try await host.call("kos.login.wait").get()
precondition(loggedIn["logged_in"] == true)
// Each login's tokens are its account's secrets (`kos/<username>/access_token`).
guard let username = loggedIn["username"]?.stringValue else { fatalError("kos.login.wait named no username: \(loggedIn)") }

func requestLog() async throws -> [JSONValue] {
    try JSONValue.decode(bytes: try await get(base + "/_admin/requests").readableBytesView).arrayValue ?? []
}

let queries: [(String, JSONValue)] = [
    ("kos.timetable", [:]), ("kos.courses", [:]), ("kos.results", [:]), ("kos.people.search", ["q": "novak", "limit": 40]),
]

let connection = try await host.connect()
var fresh: [String: [Double]] = [:]
var floor: [String: [Double]] = [:]
var pages: [String: Int] = [:]
for round in 0..<(runs + 3) {
    for (method, params) in queries {
        let seen = try await requestLog().count
        let through = try await time { _ = try await connection.call(method, params: params) }
        let made = try await requestLog().dropFirst(seen).filter { ($0["path"]?.stringValue ?? "").hasPrefix("/api/3/") }
        // The fake's own time for the same requests, one after the other (as the plugin sends them).
        let token = try await host.host.vault.get("kos/\(username)/access_token")!
        let direct = try await time {
            for request in made {
                let query = request["query"]?.stringValue ?? ""
                _ = try await get(base + request["path"]!.stringValue! + (query.isEmpty ? "" : "?" + query), token: token)
            }
        }
        if round >= 3 {
            fresh[method, default: []].append(through)
            floor[method, default: []].append(direct)
            pages[method] = made.count
        }
    }
}

fake.stop()
var cached: [String: [Double]] = [:]
for round in 0..<(5 + 2) {
    for (method, params) in queries {
        var stale = false
        let through = try await time { stale = try await connection.call(method, params: params)["stale"] == true }
        precondition(stale, "\(method) was not served from the cache")
        if round >= 2 { cached[method, default: []].append(through) }
    }
}

print("| call | KOSapi requests | fake KOSapi directly (the same requests) | fresh (median / p90) | ratio | fake stopped: from the cache (median) |")
print("|---|---|---|---|---|---|")
for (method, params) in queries {
    let f = median(fresh[method]!)
    let d = median(floor[method]!)
    let name = method == "kos.people.search" ? "`kos.people.search` \(params.encodedString())" : "`\(method)`"
    print(
        String(
            format: "| %@ | %d | %.2f ms | %.2f / %.2f ms | %.2f× | %.1f ms |", name, pages[method] ?? 0, d, f, p90(fresh[method]!), f / d,
            median(cached[method]!)))
}
let atom = median(atomTimes)
let bare = median(bareTimes)
print(
    String(
        format: "\nAtom per 1 000 parallel entries (%d KB): AtomDocument %.2f ms, Foundation's XMLParser alone (no-op delegate) %.2f ms, ratio "
            + "%.2f×",
        feed.count / 1024, atom, bare, atom / bare))
await connection.close()
await host.stop()
