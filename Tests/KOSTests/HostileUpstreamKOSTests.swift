import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// KOSapi answering as a broken or hostile server would (the OAuth server stays the fake): each
/// read ends in a clear error naming the server or what was missing, and the daemon answers on.
@Suite(.stopsTestHosts, .serialized, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct HostileUpstreamKOSTests {
    static let behaviours: [HostileUpstream.Behaviour] = [
        .deepXML(depth: 100_000), .billionLaughs(), .externalEntity(path: "/etc/hostname"), .trickle(every: .milliseconds(300)),
        .endlessBody, .gzipBomb(inflatedBytes: 1 << 30), .resetMidBody, .truncated, .htmlError, .redirectLoop,
        .redirect(to: "http://192.0.2.1/api/3/semesters/current"),
        .answer(status: 200, contentType: "application/json", body: "{\"code\": \"B251\"}"),
        .answer(
            status: 200, contentType: "application/atom+xml", body: "<atom:entry xmlns:atom=\"http://www.w3.org/2005/Atom\"><atom:id>x</atom:id>"),
    ]

    static func setUp(_ bench: AuthTests.Bench, api: String) async throws {
        _ = try await bench.host.call(
            "kos.setup",
            [
                "client_id": "assistant-app", "client_secret": "app-secret-123", "auth_url": .string(bench.base), "api_url": .string(api),
            ]
        ).get()
    }

    @Test func everyBadAnswerIsAClearErrorAndTheDaemonAnswersOn() async throws {
        let bench = try await AuthTests.start { $0.http.timeoutSeconds = 2 }
        for behaviour in Self.behaviours {
            try await HostileUpstream.with(behaviour) { server in
                try await Self.setUp(bench, api: server.url + "/api/3")
                let outcome = try await bench.clock.whileAdvancing { try await bench.host.call("kos.semester", ["which": "current"]) }
                guard case .failure(let error) = outcome else {
                    Issue.record("\(behaviour) was accepted: \(outcome)")
                    return
                }
                if case .externalEntity = behaviour {
                    // Well-formed Atom whose only text was the entity: the file is not read, so no entry.
                    #expect(error.code == 1404)
                    #expect(error.message == "KOSapi's answer could not be used: semesters/current is a feed without an entry")
                } else {
                    #expect([-32004, -32005].contains(error.code), "\(behaviour): \(error.code) \(error.message)")
                    #expect(error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names KOSapi: \(error.message)")
                }
                #expect(!error.message.contains("OAuth"), "\(behaviour) does not blame the OAuth server: \(error.message)")
            }
            #expect(try await bench.call("kos.status")["set_up"] == true, "\(behaviour): the daemon still answers")
        }
        await bench.stop()
    }

    /// An entry without the fields a semester is made of is refused, not served as `code: ""`.
    @Test func aSemesterWithoutItsFieldsIsRefused() async throws {
        let bench = try await AuthTests.start()
        let entry = """
            <atom:entry xmlns:atom="http://www.w3.org/2005/Atom" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
            <atom:id>urn:cvut:kos:semester:B251</atom:id><atom:content xsi:type="semester"><code> </code><name>Zimní</name>
            <endDate>2026-02-15</endDate></atom:content></atom:entry>
            """
        try await HostileUpstream.with(.answer(status: 200, contentType: "application/atom+xml", body: entry)) { server in
            try await Self.setUp(bench, api: server.url + "/api/3")
            let error = try #require(await rpcFailure { try await bench.call("kos.semester") })
            #expect(error.code == 1404)
            #expect(error.message == "KOSapi's answer could not be used: semester current has no <code>, <startDate>")
        }
        await bench.stop()
    }
}
