import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// People search against a fake whose RSQL matching ignores case but not accents: "novak" finds
/// "Novák" only because the plugin widens its pattern and filters here; paging runs over more
/// than two pages; apostrophes and spaces survive the RSQL quoting; a division's teachers.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct PeopleTests {
    static func publicOnly() async throws -> AuthTests.Bench {
        let bench = try await AuthTests.start()
        try await bench.setUp()
        return bench
    }

    static func queries(_ bench: AuthTests.Bench, _ path: String) async throws -> [String] {
        try await bench.requests().filter { $0["path"] == .string(path) }.compactMap { $0["query"]?.stringValue?.removingPercentEncoding }
    }

    @Test func accentsAreOptionalAndEveryPageIsRead() async throws {
        let bench = try await Self.publicOnly()
        let found = try await bench.call("kos.people.search", ["q": "novak"])
        let people = try #require(found["people"]?.arrayValue)
        // novakjan, novakpet and novak000…039 (Novák, Nováková, Novak).
        #expect(people.count == 42)
        #expect(Set(people.compactMap { $0["name"]?.stringValue?.split(separator: " ").last.map(String.init) }) == ["Novák", "Nováková", "Novak"])
        let pages = try await Self.queries(bench, "/api/3/people")
        #expect(pages.count == 5, "42 people in pages of ten: \(pages)")
        #expect(pages.first?.contains("lastName=='*__v_k*',firstName=='*__v_k*',username=='*__v_k*'") == true, "the widened pattern: \(pages)")
        let petr = try #require(people.first { $0["username"] == "novakpet" })
        #expect(
            petr == [
                "username": "novakpet", "name": "Petr Novák", "titles": ["before": "Mgr.", "after": "Ph.D."], "email": "petr.novak@fit.cvut.cz",
                "phone": "+420 224 359 811", "division": "18102", "roles": ["teacher"],
            ])
        #expect(people.first { $0["username"] == "novakjan" }?["email"] == .null, "a student's e-mail is not in a person record")
        #expect(people.first { $0["username"] == "novakjan" }?["phone"] == .null)
        #expect(try await Self.queries(bench, "/api/3/teachers").count == 1, "one /teachers query for every teacher found")

        let five = try await bench.call("kos.people.search", ["q": "Novák", "limit": 5])
        #expect(five["people"]?.arrayValue?.count == 5)
        #expect(try await Self.queries(bench, "/api/3/people").count == 6, "a limit of five reads one page of five")
        await bench.stop()
    }

    @Test func namesWithAccentsApostrophesAndSpaces() async throws {
        let bench = try await Self.publicOnly()
        for q in ["dvořák", "DVORAK", "Tomas Dvorak", "dvorakto"] {
            let people = try await bench.call("kos.people.search", ["q": .string(q)])["people"]?.arrayValue ?? []
            #expect(people.map { $0["username"] } == ["dvorakto"], "\(q)")
        }
        let obrien = try await bench.call("kos.people.search", ["q": "O'Brien"])["people"]?.arrayValue ?? []
        #expect(obrien.map { $0["username"] } == ["obriesea"])
        #expect(obrien.first?["roles"] == ["student", "teacher"])
        #expect(
            try await Self.queries(bench, "/api/3/people").last?.contains("lastName==\"*_'b____*\"") == true, "the apostrophe inside double quotes")
        let berg = try await bench.call("kos.people.search", ["q": "van der berg"])["people"]?.arrayValue ?? []
        #expect(berg.map { $0["name"] } == ["Martijn van der Berg"])
        #expect(try await bench.call("kos.people.search", ["q": "zizkova"])["people"]?.arrayValue?.first?["name"] == "Žofie Žížková")
        #expect(try await bench.call("kos.people.search", ["q": "nobody"])["people"] == [])
        await bench.stop()
    }

    @Test func aDivisionsTeachersInCzechOrder() async throws {
        let bench = try await Self.publicOnly()
        let teachers = try await bench.call("kos.people.search", ["division": "18102"])["people"]?.arrayValue ?? []
        #expect(
            teachers.map { $0["username"] } == ["adamekja", "cernyj", "dvorakto", "novakpet", "zizkova"],
            "by surname (Jan Pavel Adámek first, whatever his two first names), Č after C, Ž last")
        #expect(teachers.allSatisfy { $0["roles"] == ["teacher"] && $0["division"] == "18102" && $0["email"] != .null })
        let narrowed = try await bench.call("kos.people.search", ["division": "18102", "q": "novak"])["people"]?.arrayValue ?? []
        #expect(narrowed.map { $0["username"] } == ["novakpet"])
        await bench.stop()
    }

    @Test func badSearchesSendNothing() async throws {
        let bench = try await Self.publicOnly()
        let before = try await bench.requests().count
        for (params, param) in [
            ([:] as JSONValue, "q"), (["q": "a"], "q"), (["q": "**"], "q"), (["q": "   "], "q"), (["division": "18 102"], "division"),
            (["division": ""], "division"), (["q": "novak", "limit": 0], "limit"), (["q": "novak", "limit": 1001], "limit"),
            (["q": "novak", "limit": "many"], "limit"), (["q": 42], "q"),
        ] {
            let error = try await bench.failure("kos.people.search", params)
            #expect(error?.code == -32602, "\(params)")
            #expect(error?.data?["param"] == .string(param), "\(params): \(error?.message ?? "")")
        }
        #expect(try await bench.requests().count == before, "nothing was sent")
        await bench.stop()
    }
}
