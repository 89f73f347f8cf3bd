import AssistantTesting
import Foundation
import HostCore
import Testing

/// The fuzz target's seed corpus (`Fuzz/corpus`, and any crash added to it once fixed) through
/// the same path the fuzzer drives: line framing, parser, dispatcher. A crash would stop the test
/// process; the replies are checked where the specification fixes them.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2))) struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus")

    static func errorCodes(_ replies: [Data]) -> [Int64?] {
        replies.map { try? JSONValue.decode($0)["error"]?["code"]?.intValue }
    }

    @Test func theCorpusReplaysAndTheSpecificationsExamplesGetTheirReplies() async throws {
        let harness = try await RPCFuzzHarness()
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(files.count >= 30)
        var replies: [String: [Data]] = [:]
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(file)))
            replies[file] = await harness.feed(bytes)
        }
        // JSON-RPC 2.0, section 7, as the specification gives the answers.
        #expect(Self.errorCodes(replies["spec-invalid-json"] ?? []) == [-32700])
        #expect(Self.errorCodes(replies["spec-invalid-request"] ?? []) == [-32600])
        #expect(Self.errorCodes(replies["spec-empty-array"] ?? []) == [-32600])
        #expect(replies["spec-notification"] == [], "notifications get no reply")
        #expect(replies["spec-batch-notifications"] == [], "an all-notification batch gets no reply at all")
        let oneInvalid = try JSONValue.decode(try #require(replies["spec-batch-one-invalid"]?.first))
        #expect(oneInvalid.arrayValue?.map { $0["error"]?["code"] } == [-32600])
        let invalid = try JSONValue.decode(try #require(replies["spec-batch-invalid"]?.first))
        #expect(invalid.arrayValue?.map { $0["error"]?["code"] } == [-32600, -32600, -32600])
        let batch = try JSONValue.decode(try #require(replies["spec-batch"]?.first))
        #expect(batch.arrayValue?.map { $0["id"] } == ["1", "2", .null, "5", "9"], "one reply per request, none for the notification")
        #expect(batch.arrayValue?.map { $0["error"]?["code"] } == [-32601, -32601, -32600, -32601, -32601])
        #expect(
            Self.errorCodes(replies["spec-batch-invalid-json"] ?? []) == [-32700, -32700, -32700, -32700],
            "the specification's batch is written over four lines here, none of them JSON on its own")
        // The daemon's own methods and the edge cases.
        #expect(try JSONValue.decode(try #require(replies["host-ping"]?.first))["result"] == "pong")
        #expect(try JSONValue.decode(try #require(replies["echo-say"]?.first))["result"] == "hi hi")
        #expect(Self.errorCodes(replies["deep-nesting"] ?? []) == [-32700], "too deep is a parse error, not a stack overflow")
        #expect(Self.errorCodes(replies["invalid-utf8"] ?? []) == [-32700])
        #expect(replies["long-line"] == [], "over the limit: -32007 and the connection closes, nothing dispatched")
        #expect(replies["no-newline"] == [], "no line ended")
        #expect(
            !(replies["echo-login-secret"]?.first.map { String(decoding: $0, as: UTF8.self) }?.contains("s3cr3t-token-value") ?? true),
            "a secret parameter never comes back")
        await harness.stop()
    }
}
