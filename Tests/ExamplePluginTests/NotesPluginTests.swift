import AssistantTesting
import ExamplePlugin
import Foundation
import HostCore
import Testing

/// CONTRIBUTING.md's example plugin, tested the way it tells a plugin author to test: the
/// real host on temporary directories (`TestHost`), a test clock for jobs, calls over the socket.
@Suite(.stopsTestHosts)
struct NotesPluginTests {
    @Test func commandsWorkThroughTheRealHost() async throws {
        let host = try await TestHost.started(plugins: [NotesPlugin()]) { $0.plugins["notes"] = ["max_length": 10] }
        let added = try await host.call("notes.add", ["text": "  filament "]).get()
        #expect(added["text"] == "filament")
        #expect(added["id"] == 1)
        let list = try await host.call("notes.list").get()
        #expect(list["notes"]?.arrayValue?.map { $0["text"] } == ["filament"])
        #expect(try await host.call("notes.delete", ["id": 1]).get() == ["deleted": 1])
        #expect(try await host.call("notes.list").get()["notes"] == [])
        await host.stop()
    }

    @Test func badInputIsRefusedNamingTheParameter() async throws {
        let host = try await TestHost.started(plugins: [NotesPlugin()]) { $0.plugins["notes"] = ["max_length": 10] }
        for (method, params, param, text) in [
            ("notes.add", ["text": "far too long a note"] as JSONValue, "text", "longer than 10 characters"),
            ("notes.add", ["text": "   "], "text", "must not be empty"),
            ("notes.add", [:], "text", "is required"),
            ("notes.delete", ["id": 0], "id", "at least 1"),
        ] {
            guard case .failure(let error) = try await host.call(method, params) else {
                Issue.record("\(method) \(params) was accepted")
                continue
            }
            #expect(error.code == -32602)
            #expect(error.data?["param"] == .string(param))
            #expect(error.message.contains(text), "\(error.message)")
        }
        guard case .failure(let missing) = try await host.call("notes.delete", ["id": 9]) else {
            Issue.record("deleted nothing")
            return
        }
        #expect(missing.code == -32010)
        #expect(try await host.call("notes.list").get()["notes"] == [], "nothing was written")
        await host.stop()
    }

    @Test func theDigestJobPostsANotice() async throws {
        let clock = TestClock(now: ISO8601.date("2026-03-01T10:00:00Z")!)
        let host = try await TestHost.started(plugins: [NotesPlugin()], clock: clock)
        _ = try await host.call("notes.add", ["text": "one"]).get()
        _ = try await host.call("notes.add", ["text": "two"]).get()
        _ = try await host.call("jobs.run", ["id": "notes.digest"]).get()
        let line = try await withDeadline(10, "the digest notice") { await host.stdout.next { $0.contains("notes.digest") } }
        #expect(line.contains("2 notes in the last day"))
        await host.stop()
    }
}

@Suite(.stopsTestHosts)
struct ExampleInContributingTests {
    /// CONTRIBUTING.md's "Writing a plugin" shows the example plugin verbatim; this keeps the two the same.
    @Test func theGuidesCopyIsTheCompiledFile() throws {
        let readme = try String(contentsOfFile: "\(Peers.packageRoot)/CONTRIBUTING.md", encoding: .utf8)
        let file = try String(contentsOfFile: "\(Peers.packageRoot)/Tests/ExamplePlugin/NotesPlugin.swift", encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- example-plugin:begin -->\n```swift\n"))
        let end = try #require(readme.range(of: "```\n<!-- example-plugin:end -->"))
        #expect(
            String(readme[begin.upperBound..<end.lowerBound]) == file, "copy Tests/ExamplePlugin/NotesPlugin.swift into CONTRIBUTING.md")
    }
}
