import AssistantTesting
import Foundation
import HostCore
import NIOConcurrencyHelpers
import Testing

@testable import OctoPrint

/// A "printer" answering as a broken or hostile server would: adding it is refused with a clear
/// error naming it, nothing is saved, and the daemon answers on.
@Suite(.stopsTestHosts, .serialized, .timeLimit(.minutes(3))) struct HostileUpstreamOctoPrintTests {
    @Test func aPrinterAnsweringBadlyIsRefusedAndNothingIsSaved() async throws {
        let host = try await TestHost.started(plugins: [OctoPrintPlugin()]) { $0.http.timeoutSeconds = 2 }
        let behaviours =
            HostileUpstream.everyJSONMisbehaviour(redirectTarget: "http://192.0.2.1/api/version")
            + [.answer(status: 200, contentType: "application/json", body: "{\"api\": 1}")]
        for behaviour in behaviours {
            try await HostileUpstream.with(behaviour) { server in
                let outcome = try await host.call(
                    "octoprint.printers.add", ["name": "mk3", "url": .string(server.url), "api_key": "0123456789ABCDEF"])
                guard case .failure(let error) = outcome else {
                    Issue.record("\(behaviour) was accepted: \(outcome)")
                    return
                }
                #expect(
                    error.message.contains("127.0.0.1:\(server.port)"), "\(behaviour) names the printer's address: \(error.code) \(error.message)")
                #expect(!error.message.contains("0123456789ABCDEF"))
            }
            #expect(try await host.call("octoprint.printers.list").get()["printers"] == [], "\(behaviour): nothing saved")
        }
        await host.stop()
    }
}

/// The push socket against a websocket server that misbehaves: it ends, with a clear error, at the
/// handshake limit or the message limit, and a message no parser can read is skipped.
@Suite(.timeLimit(.minutes(1))) struct HostilePushSocketTests {
    static func printer(_ server: HostileWebSocket) -> Printer {
        Printer(name: "mk3", url: server.url, caFile: nil, basicUser: nil, isDefault: true)
    }

    static func run(_ server: HostileWebSocket, received: NIOLockedValueBox<[JSONValue]> = NIOLockedValueBox([])) async throws {
        try await PushSocket.run(
            printer: printer(server), basicPassword: nil, user: "u", session: "s", handshakeTimeout: .seconds(1), onOpen: {},
            onMessage: { message in received.withLockedValue { $0.append(message) } })
    }

    @Test func aServerThatNeverAnswersTheUpgradeIsLeftAtTheHandshakeLimit() async throws {
        try await HostileWebSocket.with(.silent) { server in
            let error = await #expect(throws: OctoPrintError.self) { try await Self.run(server) }
            guard case .unreachable(_, let url, let reason)? = error else { return }
            #expect(reason == "its push socket did not open within 1 s")
            #expect(url == server.url)
        }
    }

    @Test func aMessageThatNeverEndsIsCutAtItsLimit() async throws {
        try await HostileWebSocket.with(.endlessMessage) { server in
            let error = await #expect(throws: OctoPrintError.self) { try await Self.run(server) }
            guard case .unreachable(_, _, let reason)? = error else { return }
            #expect(reason == "its push socket sent a message longer than the limit of \(PushSocket.maxMessage) bytes")
        }
    }

    @Test func aMessageNestedPastTheParsersLimitIsSkipped() async throws {
        try await HostileWebSocket.with(.deepJSON(depth: 100_000)) { server in
            let received = NIOLockedValueBox<[JSONValue]>([])
            try await Self.run(server, received: received)
            #expect(received.withLockedValue { $0 } == [["ok": 1]], "only the readable message arrives, and the socket ends with the server's close")
        }
    }
}
