import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// Course search without accents, a course's parallels with their seats, a teacher's timetable
/// and a room, against the fake KOSapi (public data); unknown ones are -32010 and bad input
/// reaches KOSapi never.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct CourseSearchTests {
    @Test func coursesByWordsOrCodeWithoutAccents() async throws {
        let bench = try await TokenTests.loggedIn()
        let found = try await bench.call("kos.courses.search", ["query": "programovani"])
        #expect(
            found["courses"] == [
                ["code": "BI-PA1", "name": "Programování a algoritmizace 1", "credits": 7, "completion": "credit_exam", "season": nil],
                ["code": "BI-PA2", "name": "Programování a algoritmizace 2", "credits": 7, "completion": "credit_exam", "season": nil],
            ])
        // Every word must match, in the name or the code.
        #expect(try await bench.call("kos.courses.search", ["query": "Zaklady analyzy"])["courses"]?.arrayValue?.map { $0["code"] } == ["BI-ZMA"])
        #expect(try await bench.call("kos.courses.search", ["query": "bi-opt"])["courses"]?.arrayValue?.map { $0["code"] } == ["BI-OPT"])
        #expect(try await bench.call("kos.courses.search", ["query": "kvantova fyzika"])["courses"] == [])
        // KOSapi got a pattern every accented form matches, not the bare word.
        let sent = try await bench.requests().last { ($0["path"]?.stringValue ?? "").hasSuffix("/courses") }
        // k v a n t o v a: a, n, t and o have accented forms in Czech (á, ň, ť, ó), k and v do not.
        #expect(sent?["query"]?.stringValue?.contains("(name%3D%3D'*kv____v_*',code%3D%3D'*kv____v_*')") == true, "\(sent ?? .null)")
        await bench.stop()
    }

    @Test func aCoursesParallelsWithTheirSeatsAndSlots() async throws {
        let bench = try await TokenTests.loggedIn()
        let opt = try await bench.call("kos.course.parallels", ["code": "bi-opt"])
        let parallels = opt["parallels"]?.arrayValue ?? []
        #expect(parallels.map { $0["parallel"] } == ["105", "1"])
        // Hours 5–6 of FIT's grid: 11:00–12:30 (reference §10).
        #expect(
            parallels.first == [
                "parallel": "105", "kind": "tutorial", "teachers": ["Mgr. Petr Novák Ph.D."], "capacity": 22, "occupied": 21, "free": 1,
                "slots": [["day": 5, "start": "11:00", "end": "12:30", "parity": "odd", "room": "TH:A-1442", "weeks": nil]],
            ])
        #expect(parallels.last?["free"] == 30)
        #expect(parallels.last?["slots"]?.arrayValue?.map { $0["start"] } == ["12:45", "09:15"], "Tuesday's before Friday's")
        guard case .failure(let unknown) = try await bench.host.call("kos.course.parallels", ["code": "BI-XYZ"]) else {
            Issue.record("an unknown course answered")
            return
        }
        #expect(unknown.code == -32010)
        await bench.stop()
    }

    @Test func aTeachersTimetableAndARoom() async throws {
        let bench = try await TokenTests.loggedIn()
        let timetable = try await bench.call("kos.teacher.timetable", ["username": "novakpet"])
        #expect(
            timetable["slots"] == [
                ["day": 5, "start": "11:00", "end": "12:30", "parity": "odd", "title": "BI-OPT cvičení 105", "weeks": nil],
                ["day": 2, "start": "16:15", "end": "17:45", "parity": "both", "title": "Konzultace", "weeks": nil],
            ])
        guard case .failure(let nobody) = try await bench.host.call("kos.teacher.timetable", ["username": "nobodyxy"]) else {
            Issue.record("an unknown teacher answered")
            return
        }
        #expect(nobody.code == -32010)
        let room = try await bench.call("kos.room", ["code": "th:a-1442"])
        #expect(room["name"] == "Učebna A-1442")
        #expect(room["locality"] == "Dejvice")
        #expect(room["type"] == "classroom")
        #expect(room["capacity"] == ["lecture": 48, "exam": 24])
        guard case .failure(let noRoom) = try await bench.host.call("kos.room", ["code": "TH:Z-0000"]) else {
            Issue.record("an unknown room answered")
            return
        }
        #expect(noRoom.code == -32010)
        await bench.stop()
    }

    @Test func badInputReachesKOSapiNever() async throws {
        let bench = try await TokenTests.loggedIn()
        let before = try await bench.requests().count
        let cases: [(String, JSONValue, String)] = [
            ("kos.courses.search", [:], "query"), ("kos.courses.search", ["query": "a"], "query"), ("kos.courses.search", ["query": "**"], "query"),
            ("kos.courses.search", ["query": "opt", "limit": 0], "limit"), ("kos.courses.search", ["query": "opt", "sem": "B25x1"], "sem"),
            ("kos.course.parallels", ["code": "BI OPT"], "code"), ("kos.course.parallels", [:], "code"),
            ("kos.teacher.timetable", ["username": "novak pet"], "username"), ("kos.teacher.timetable", ["username": "../x"], "username"),
            ("kos.room", ["code": "TH/A"], "code"), ("kos.room", ["code": ""], "code"),
        ]
        try await bench.host.expectInvalidParams(cases)
        #expect(try await bench.requests().count == before, "nothing reached KOSapi")
        await bench.stop()
    }
}
