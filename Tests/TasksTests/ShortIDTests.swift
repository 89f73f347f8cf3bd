import AssistantTesting
import Foundation
import HostCore
import Testing

/// A task is named by its whole id or by a unique start of it (at least 4 characters), in every
/// `id` parameter and in `parent`; a start shared by more than one task names them.
@Suite(.stopsTestHosts)
struct ShortIDTests {
    func failure(_ result: Result<JSONValue, RPCError>) -> RPCError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VTODO\r
        UID:abcd1111-0000-4000-8000-000000000001\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Buy filament\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:abcd2222-0000-4000-8000-000000000002\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Print the bracket\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test func aUniqueStartNamesTheTaskAndASharedOneNamesTheCandidates() async throws {
        let (host, _) = try await TaskCommandTests.host()
        let directory = TemporaryDirectory()
        let path = directory.write("two.ics", Self.calendar)
        #expect(try await host.call("tasks.import.ics", ["path": .string(path)]).get()["added"] == 2)

        #expect(try await host.call("tasks.get", ["id": "abcd1"]).get()["title"] == "Buy filament")
        #expect(try await host.call("tasks.update", ["id": "abcd2", "priority": 1]).get()["priority"] == 1)
        #expect(try await host.call("tasks.complete", ["id": "abcd1111"]).get()["status"] == "completed")
        let child = try await host.call("tasks.add", ["title": "Level the bed", "parent": "abcd2"]).get()
        #expect(child["parent"] == "abcd2222-0000-4000-8000-000000000002")
        #expect(try await host.call("tasks.list", ["parent": "abcd2"]).get()["tasks"]?.arrayValue?.map { $0["title"] } == ["Level the bed"])

        // Shared by both: a -32602 naming the parameter and both tasks.
        let shared = try #require(failure(try await host.call("tasks.get", ["id": "abcd"])))
        #expect(shared.code == -32602)
        #expect(shared.data?["param"] == "id")
        #expect(shared.data?["candidates"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Buy filament", "Print the bracket"])
        #expect(shared.message.contains("abcd1111-0000-4000-8000-000000000001 (Buy filament)"))
        let sharedParent = try #require(failure(try await host.call("tasks.add", ["title": "x", "parent": "abcd"])))
        #expect(sharedParent.data?["param"] == "parent")
        // Too short, or no task's start: not found, as before.
        #expect(failure(try await host.call("tasks.get", ["id": "abc"]))?.code == -32010)
        #expect(failure(try await host.call("tasks.get", ["id": "ffff"]))?.code == -32010)
        #expect(failure(try await host.call("tasks.delete", ["id": "ffff"]))?.code == -32010)
        // A deleted task is found by its start too, to restore it.
        _ = try await host.call("tasks.delete", ["id": "abcd1"]).get()
        #expect(try await host.call("tasks.restore", ["id": "abcd1"]).get()["title"] == "Buy filament")
        await host.stop()
    }
}
