import AssistantTesting
import AsyncHTTPClient
import Foundation
import HostCore
import NIOCore
import NIOHTTP1

@testable import Stag

/// The fake IS/STAG server (`Tests/peers/stag_fake.py`) and its admin calls.
final class StagFake: Sendable {
    let process: PeerProcess
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    private init(process: PeerProcess, port: Int) {
        self.process = process
        self.port = port
    }

    static func start() async throws -> StagFake {
        let process = try PeerProcess(Peers.python, [Peers.script("stag_fake.py")])
        let port = try await process.announcedPort("the fake STAG")
        return StagFake(process: process, port: port)
    }

    func stop() { process.stop() }

    /// `Fixtures/state.json`: the reference-shaped timetable, terms, grades and subjects.
    static let fixture: JSONValue = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/state.json").path
        return try! JSONValue.decode(FileManager.default.contents(atPath: path)!)
    }()

    func loadFixture() async throws { try await admin("state", Self.fixture) }

    @discardableResult
    func admin(_ path: String, _ body: JSONValue = [:]) async throws -> JSONValue {
        var request = HTTPClientRequest(url: base + "/_admin/" + path)
        request.method = .POST
        request.body = .bytes(ByteBuffer(bytes: body.encodedBytes()))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw StagFakeError(description: "admin \(path): \(response.status) \(String(buffer: bytes))") }
        return try JSONValue.decode(bytes: bytes.readableBytesView)
    }

    /// The rest2 requests the fake has seen.
    func requests() async throws -> [JSONValue] {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/_admin/requests"), timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 8 << 20)
        return try JSONValue.decode(bytes: bytes.readableBytesView).arrayValue ?? []
    }

}

struct StagFakeError: Error, CustomStringConvertible {
    var description: String
}

/// A daemon with the Stag plugin on the test clock, and the fake.
struct StagBench {
    let host: TestHost
    let clock: TestClock
    let fake: StagFake

    static func start(at now: String = "2026-11-24T08:00:00Z", configure: @escaping (inout HostConfiguration) -> Void = { _ in })
        async throws -> StagBench
    {
        let fake = try await StagFake.start()
        let clock = TestClock(now: ISO8601.date(now)!)
        let host = try await TestHost.started(plugins: [StagPlugin()], clock: clock) {
            $0.timeZone = TimeZone(identifier: "Europe/Prague")!
            // Nothing a test starts talks beyond this machine: the canteen is the fake's too.
            $0.plugins["stag"] = ["canteen_url": .string(fake.base + "/rest/canteen")]
            configure(&$0)
        }
        return StagBench(host: host, clock: clock, fake: fake)
    }

    func stop() async {
        await host.stop()
        fake.stop()
    }

    /// Logs `user` in through the browser flow and waits until the account is saved.
    @discardableResult
    func login(user: String = "student", account: String = "school") async throws -> JSONValue {
        try await fake.admin("login", ["user": .string(user), "mode": "normal"])
        let started = try await host.call("stag.login", ["base_url": .string(fake.base), "account": .string(account)]).get()
        let page = try await Browser.open(try require(started["login_url"]?.stringValue, "login_url"))
        guard page.status == 200 else { throw StagFakeError(description: "capture page answered \(page.status)") }
        let done = try await host.call("stag.login.wait", ["account": .string(account), "timeout_s": 20]).get()
        guard done["state"] == "logged_in" else { throw StagFakeError(description: "login did not finish: \(done)") }
        return done
    }
}

func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw StagFakeError(description: "\(what) is missing") }
    return value
}
