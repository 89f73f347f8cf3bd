import AssistantClient
import AssistantTesting
import AsyncHTTPClient
import Foundation
import HostCore
import Hummingbird
import Logging
import NIOCore
import Tasks
import WebApp

// Issue 43's Today figure (release build, `swift run -c release web-bench`): the Today page of a
// seeded day served to a paired device, its time to first byte beside the same `today` call over
// the socket, alternating in one process; and the bytes the page and its assets weigh.

let host = try await TestHost.started(plugins: [TasksPlugin()]) {
    $0.web.enabled = true
    $0.web.port = 0
}
let today = DateOnly(Date(), in: host.host.configuration.timeZone)
for i in 0..<12 {
    _ = try await host.call("tasks.add", ["title": .string("Seeded task \(i)"), "due": .string("\(today) \(String(format: "%02d", 8 + i)):00")]).get()
}
_ = try await host.call("tasks.add", ["title": "Lecture", "kind": "event", "start": .string("\(today) 10:00"), "duration_min": 90]).get()
let pairing = try await host.host.webDevices.pair(name: "bench", role: .full)
guard case .success(let paired) = try await host.host.webDevices.redeem(pairing.token) else { fatalError("pairing failed") }
let cookie = "assistant_session=\(paired.session)"

let port = AsyncStream.makeStream(of: Int.self)
// The bench stops the server by cancelling it: the server's complaints about that are not figures.
var quiet = Logger(label: "web-bench")
quiet.logLevel = .critical
let app = try WebApp.application(host: host.host, logger: quiet) { channel in
    port.continuation.yield(channel.localAddress?.port ?? 0)
}
try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await app.runService() }
    var ports = port.stream.makeAsyncIterator()
    let listening = await ports.next() ?? 0
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let connection = try await host.connect()
    func page(_ path: String) async throws -> (ttfb: Double, bytes: Int) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(listening)\(path)")
        request.headers.add(name: "Cookie", value: cookie)
        let start = ContinuousClock.now
        let response = try await client.execute(request, timeout: .seconds(10))
        let ttfb = (ContinuousClock.now - start) / .milliseconds(1)
        let body = try await response.body.collect(upTo: 10 << 20)
        precondition(response.status == .ok, "\(path): \(response.status)")
        return (ttfb, body.readableBytes)
    }
    var web: [Double] = []
    var socket: [Double] = []
    for round in 0..<220 {
        let viaWeb = try await page("/").ttfb
        let start = ContinuousClock.now
        _ = try await connection.call("today")
        let viaSocket = (ContinuousClock.now - start) / .milliseconds(1)
        // The first rounds warm both paths up.
        if round >= 20 { (web, socket) = (web + [viaWeb], socket + [viaSocket]) }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let html = try await page("/").bytes
    let script = try await page("/assets/app.js").bytes
    let icon = try await page("/assets/icon.svg").bytes
    print(String(format: "today over the socket: median %.3f ms", median(socket)))
    print(
        String(
            format: "Today page, time to first byte: median %.3f ms (%.2f× the socket's today; the issue allows 3×)",
            median(web), median(web) / median(socket)))
    print(
        "Today with its assets: \(html + script + icon) bytes uncompressed (page \(html), app.js \(script), icon \(icon)); "
            + "the issue allows 100 KB compressed"
    )
    await connection.close()
    try await client.shutdown()
    group.cancelAll()
}
await host.stop()
