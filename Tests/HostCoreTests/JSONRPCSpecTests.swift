import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

/// The JSON-RPC 2.0 specification's own examples (jsonrpc.org/specification §7), adapted to
/// `ping` and `help`, sent over the real socket as raw lines.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct JSONRPCSpecTests {
    /// Sends one line over the socket and reads its reply. `answered: false` is the
    /// specification's "no reply" (a notification, a batch of notifications): then a marker
    /// request's reply must be the only line that comes.
    func reply(_ host: TestHost, _ line: String, answered: Bool = true) async throws -> JSONValue? {
        let client = try await RawLineClient(socketPath: host.socketPath)
        try await client.send(line: line)
        guard answered else {
            try await client.send(line: #"{"jsonrpc":"2.0","id":"marker","method":"ping"}"#)
            let only = try JSONValue.decode(try #require(try await client.readLine()))
            #expect(only["id"] == "marker", "a notification got a reply: \(only)")
            await client.close()
            return nil
        }
        let reply = try JSONValue.decode(try #require(try await client.readLine()))
        await client.close()
        return reply
    }

    @Test func positionalAndNamedParameters() async throws {
        let host = try await TestHost.started()
        let positional = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"help","params":["ping"],"id":1}"#))
        #expect(positional["id"] == 1)
        #expect(positional["result"]?["name"] == "ping")
        #expect(positional["error"] == nil)
        let named = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"help","params":{"method":"ping"},"id":2}"#))
        #expect(named["result"]?["name"] == "ping")
        #expect(named["id"] == 2)
        let stringID = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"ping","id":"abc"}"#))
        #expect(stringID == ["jsonrpc": "2.0", "id": "abc", "result": "pong"])
        let nullID = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"ping","id":null}"#))
        #expect(nullID == ["jsonrpc": "2.0", "id": .null, "result": "pong"])
        await host.stop()
    }

    @Test func notificationsGetNoReply() async throws {
        let host = try await TestHost.started()
        _ = try await reply(host, #"{"jsonrpc":"2.0","method":"ping"}"#, answered: false)
        _ = try await reply(host, #"{"jsonrpc":"2.0","method":"no.such.method"}"#, answered: false)
        _ = try await reply(host, #"{"jsonrpc":"2.0","method":"help","params":{"bogus":1}}"#, answered: false)
        await host.stop()
    }

    @Test func methodNotFound() async throws {
        let host = try await TestHost.started()
        let r = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"foobar","id":"1"}"#))
        #expect(r["error"]?["code"] == -32601)
        #expect(r["id"] == "1")
        #expect(r["result"] == nil)
        await host.stop()
    }

    @Test func parseErrorsAndInvalidRequests() async throws {
        let host = try await TestHost.started()
        let parse = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"foobar, "params":"bar", "baz]"#))
        #expect(parse == ["jsonrpc": "2.0", "id": .null, "error": ["code": -32700, "message": parse["error"]!["message"]!]])
        let invalid = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#))
        #expect(invalid["error"]?["code"] == -32600)
        #expect(invalid["id"] == .null)
        let noVersion = try #require(try await reply(host, #"{"method":"ping","id":5}"#))
        #expect(noVersion["error"]?["code"] == -32600)
        #expect(noVersion["id"] == 5)
        let wrongVersion = try #require(try await reply(host, #"{"jsonrpc":"1.0","method":"ping","id":6}"#))
        #expect(wrongVersion["error"]?["code"] == -32600)
        let objectID = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"ping","id":{"a":1}}"#))
        #expect(objectID["error"]?["code"] == -32600)
        #expect(objectID["id"] == .null)
        let scalarParams = try #require(try await reply(host, #"{"jsonrpc":"2.0","method":"ping","params":3,"id":7}"#))
        #expect(scalarParams["error"]?["code"] == -32600)
        await host.stop()
    }

    @Test func batches() async throws {
        let host = try await TestHost.started()
        let badJSON = try #require(try await reply(host, #"[{"jsonrpc":"2.0","method":"ping","id":"1"},{"jsonrpc":"2.0","method""#))
        #expect(badJSON["error"]?["code"] == -32700)
        let empty = try #require(try await reply(host, "[]"))
        #expect(empty["error"]?["code"] == -32600)
        #expect(empty.arrayValue == nil)
        let one = try #require(try await reply(host, "[1]")?.arrayValue)
        #expect(one.count == 1)
        #expect(one[0]["error"]?["code"] == -32600)
        let three = try #require(try await reply(host, "[1,2,3]")?.arrayValue)
        #expect(three.count == 3)
        #expect(three.allSatisfy { $0["error"]?["code"] == -32600 && $0["id"] == .null })

        let mixed = try #require(
            try await reply(
                host,
                #"[{"jsonrpc":"2.0","method":"ping","id":"1"},{"jsonrpc":"2.0","method":"help","params":["ping"]},{"jsonrpc":"2.0","method":"help",""#
                    + #"params":["nope"],"id":"2"},{"foo":"boo"},{"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"},{"jsonrpc""#
                    + #":"2.0","method":"ping","id":"9"}]"#
            )?.arrayValue)
        #expect(mixed.count == 5)
        let byID = Dictionary(mixed.compactMap { r in r["id"]?.stringValue.map { ($0, r) } }, uniquingKeysWith: { a, _ in a })
        #expect(byID["1"]?["result"] == "pong")
        #expect(byID["2"]?["error"]?["code"] == -32602)
        #expect(byID["5"]?["error"]?["code"] == -32601)
        #expect(byID["9"]?["result"] == "pong")
        #expect(mixed.contains { $0["id"] == .null && $0["error"]?["code"] == -32600 })

        _ = try await reply(host, #"[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"ping"}]"#, answered: false)
        await host.stop()
    }

    @Test func everyReplyHasExactlyOneOfResultOrError() async throws {
        let host = try await TestHost.started()
        for line in [
            #"{"jsonrpc":"2.0","method":"ping","id":1}"#, #"{"jsonrpc":"2.0","method":"x","id":2}"#, "nonsense",
            #"{"jsonrpc":"2.0","method":"jobs.run","params":{},"id":3}"#,
        ] {
            let r = try #require(try await reply(host, line))
            #expect((r["result"] == nil) != (r["error"] == nil), "\(line)")
            #expect(r["jsonrpc"] == "2.0")
        }
        await host.stop()
    }
}
