import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// Teachers, rooms, a room's week and subjects, found against the fake with the shapes and
/// quirks of `Tests/peers/stag-reference-additions.md`; bad input reaches STAG never.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)), .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct SearchTests {
    @Test func teachersByNameAndByDepartmentInCzechOrder() async throws {
        let bench = try await StudyTests.student()
        // By surname: STAG's older answer (the object inside an array) is read too.
        let byName = try await bench.host.call("stag.teachers.search", ["name": "Novák"]).get()
        #expect(
            byName["teachers"] == [
                ["teacher_id": 241_911, "name": "RNDr. Jan Novák, Ph.D.", "department": "KMA", "email": "novak@kma.zcu.cz"],
                ["teacher_id": 241_912, "name": "Mgr. Jana Nováková", "department": "KIV", "email": nil],
            ])
        let narrowed = try await bench.host.call("stag.teachers.search", ["name": "Novák", "department": "kiv"]).get()
        #expect(narrowed["teachers"]?.arrayValue?.map { $0["teacher_id"] } == [241_912])
        // A department's current teachers (one who left is not listed), Nováková before Svoboda.
        let department = try await bench.host.call("stag.teachers.search", ["department": "KIV"]).get()
        #expect(department["teachers"]?.arrayValue?.map { $0["name"] } == ["Mgr. Jana Nováková", "Ing. Karel Svoboda, Ph.D."])
        let sent = try await bench.fake.requests().filter { ($0["path"]?.stringValue ?? "").hasPrefix("ucitel/") }
        #expect(sent.first?["query"]?["prijmeni"] == "Novák")
        await bench.stop()
    }

    @Test func roomsWithTheirTypeCapacityAndAddress() async throws {
        let bench = try await StudyTests.student()
        let building = try await bench.host.call("stag.rooms.search", ["building": "uc"]).get()
        #expect(building["rooms"]?.arrayValue?.map { $0["name"] } == ["UC-326", "UC-355", "UC-336"])
        #expect(building["truncated"] == false)
        let labs = try await bench.host.call("stag.rooms.search", ["building": "UC", "query": "LABORATOŘ"]).get()
        #expect(
            labs["rooms"] == [
                [
                    "building": "UC", "room": "336", "name": "UC-336", "type": "Laboratoř", "capacity": 20, "floor": "3", "department": "KIV",
                    "address": "Univerzitní 20, Plzeň",
                ]
            ], "a capacity sent as a string is a number")
        let all = try await bench.host.call("stag.rooms.search", ["limit": 2]).get()
        #expect(all["rooms"]?.arrayValue?.count == 2)
        #expect(all["truncated"] == true)
        await bench.stop()
    }

    @Test func aRoomsWeekAndAnUnknownRoom() async throws {
        let bench = try await StudyTests.student()
        let week = try await bench.host.call("stag.rooms.timetable", ["building": "UC", "room": "326"]).get()
        let events = week["events"]?.arrayValue ?? []
        #expect(events.map { $0["subject"] } == ["KIV/PPA1"])
        #expect(events.first?["role"] == "room")
        #expect(events.first?["date"] == "2026-11-24")
        #expect(events.first?["start"] == "13:00")
        let sent = try await bench.fake.requests().last { $0["path"] == "rozvrhy/getRozvrhByMistnost" }
        #expect(sent?["query"]?["datumOd"] == "23.11.2026", "this Monday, in STAG's own date format")
        guard case .failure(let unknown) = try await bench.host.call("stag.rooms.timetable", ["building": "UC", "room": "999"]) else {
            Issue.record("an unknown room answered")
            return
        }
        #expect(unknown.code == -32010)
        #expect(unknown.data?["room"] == "UC-999")
        await bench.stop()
    }

    @Test func subjectsByCodeAndByWordsWithinADepartment() async throws {
        let bench = try await StudyTests.student()
        let byCode = try await bench.host.call("stag.subjects.search", ["query": "kiv/upa"]).get()
        #expect(
            byCode["subjects"] == [
                [
                    "subject": "KIV/UPA", "department": "KIV", "code": "UPA", "name": "Úvod do počítačových architektur", "year": 2026,
                    "credits": 6, "semester": "ZS", "completion": "Zkouška",
                ]
            ])
        // Words without accents, within a department; a subject without a detail keeps its list's name and semester.
        let byWords = try await bench.host.call("stag.subjects.search", ["department": "KIV", "query": "pocitac"]).get()
        #expect(byWords["subjects"]?.arrayValue?.map { $0["subject"] } == ["KIV/PPA1", "KIV/UPA"])
        #expect(byWords["subjects"]?.arrayValue?.first?["credits"] == .null)
        #expect(byWords["subjects"]?.arrayValue?.first?["semester"] == "ZS")
        let limited = try await bench.host.call("stag.subjects.search", ["department": "KIV", "limit": 1]).get()
        #expect(limited["subjects"]?.arrayValue?.count == 1)
        #expect(limited["truncated"] == true)
        // A department's subjects of a year are that department's only (STAG reads `pracoviste`,
        // not `katedra`: sent so, a department filtered nothing and every department's came).
        let kma = try await bench.host.call("stag.subjects.search", ["department": "KMA", "year": 2026]).get()
        #expect(kma["subjects"]?.arrayValue?.map { $0["subject"] } == ["KMA/MA1"], "\(kma)")
        let sent = try await bench.fake.requests().last { $0["path"] == "predmety/najdiPredmety" }
        #expect(sent?["query"]?["pracoviste"] == "KMA" && sent?["query"]?["katedra"] == nil, "\(sent ?? .null)")
        await bench.stop()
    }

    /// A word across the university: every current faculty's list (`getPredmetyByFakulta`, whose
    /// rows `najdiPredmety` would match only by whole name), read once a day with progress said,
    /// matched here without accents; a second search that day asks STAG nothing.
    @Test func subjectsByAWordAcrossTheUniversity() async throws {
        let bench = try await StudyTests.student()
        let connection = try await bench.host.connect()
        let before = try await bench.fake.requests().count
        let found = try await connection.call("stag.subjects.search", params: ["query": "uvod"])
        #expect(found["subjects"]?.arrayValue?.map { $0["subject"] } == ["KFI/UFI", "KIV/UPA"], "\(found)")
        let filozofie = found["subjects"]?.arrayValue?.first
        #expect(filozofie?["name"] == "Úvod do filozofie" && filozofie?["semester"] == "both" && filozofie?["year"] == 2026)
        #expect(found["subjects"]?.arrayValue?.last?["credits"] == 6, "the detail read for a subject shown")
        let asked = try await bench.fake.requests().dropFirst(before)
        #expect(asked.filter { $0["path"] == "ciselniky/getSeznamPracovist" }.count == 1)
        let lists = asked.filter { $0["path"] == "predmety/getPredmetyByFakulta" }
        #expect(lists.compactMap { $0["query"]?["fakulta"]?.stringValue }.sorted() == ["FAV", "FF", "FPR"], "the ended faculty is not read")
        #expect(lists.allSatisfy { $0["query"]?["rok"] == "2026" && $0["auth"] != "none" })
        #expect(!asked.contains { $0["path"] == "predmety/najdiPredmety" })
        var notices = connection.notifications.makeAsyncIterator()
        var said: [JSONValue] = []
        for _ in 0..<3 { if let n = await notices.next() { said.append(n.params) } }
        #expect(said.map { $0["done"] } == [0, 1, 2] && said.allSatisfy { $0["total"] == 3 })
        #expect(said.first?["message"]?.stringValue?.hasPrefix("Reading the subject list of faculty FAV (1 of 3)") == true, "\(said)")

        // Within the day: the lists and the details are not read again, and no progress is said.
        let counted = try await bench.fake.requests().count
        let again = try await connection.call("stag.subjects.search", params: ["query": "úvod", "department": "KIV"])
        #expect(again["subjects"]?.arrayValue?.map { $0["subject"] } == ["KIV/UPA"])
        #expect(try await bench.fake.requests().count == counted, "a second search within the day makes no request")
        // A day later the lists are read again.
        bench.clock.advance(by: 86_401)
        _ = try await connection.call("stag.subjects.search", params: ["query": "filozofie"])
        #expect(try await bench.fake.requests().dropFirst(counted).filter { $0["path"] == "predmety/getPredmetyByFakulta" }.count == 3)
        await connection.close()
        await bench.stop()
    }

    @Test func badSearchInputSendsNothing() async throws {
        let bench = try await StudyTests.student()
        let before = try await bench.fake.requests().count
        let cases: [(String, JSONValue, String)] = [
            ("stag.teachers.search", [:], "name"),
            ("stag.teachers.search", ["name": ""], "name"),
            ("stag.teachers.search", ["department": "K I V"], "department"),
            ("stag.teachers.search", ["name": 5], "name"),
            ("stag.subjects.search", [:], "query"),
            ("stag.subjects.search", ["query": "a b c d e f g h i"], "query"),
            ("stag.subjects.search", ["department": "KIV", "limit": 0], "limit"),
            ("stag.subjects.search", ["department": "KIV", "limit": 51], "limit"),
            ("stag.subjects.search", ["department": "KIV", "year": 1800], "year"),
            ("stag.rooms.search", ["building": "U C"], "building"),
            ("stag.rooms.search", ["limit": 0], "limit"),
            ("stag.rooms.timetable", ["room": "326"], "building"),
            ("stag.rooms.timetable", ["building": "UC"], "room"),
            ("stag.rooms.timetable", ["building": "UC", "room": "3 2 6"], "room"),
            ("stag.rooms.timetable", ["building": "UC", "room": "326", "from": "2026-12-01", "to": "2026-11-01"], "to"),
        ]
        try await bench.host.expectInvalidParams(cases)
        #expect(try await bench.fake.requests().count == before, "nothing reached STAG")
        await bench.stop()
    }

    /// A teacher finds students by name (surname, or first name and surname; prefixes, accents as
    /// typed), in Czech alphabetical order; a student's account gets STAG's own refusal.
    @Test func aTeacherFindsStudentsByName() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.loadFixture()
        var students = try #require(StagFake.fixture["students"]?.objectValue)
        students["F21B0002P"] = [
            "osCislo": "F21B0002P", "jmeno": "Čeněk", "prijmeni": "NOVÁK", "fakultaSp": "FAV", "nazevSp": "Informatika", "rocnik": "1",
            "email": "cenek@students.zcu.cz",
        ]
        students["F21B0003P"] = ["osCislo": "F21B0003P", "jmeno": "Adam", "prijmeni": "NOVÁK", "fakultaSp": "FAV", "rocnik": "3"]
        _ = try await bench.fake.admin("state", ["students": .object(students)])
        try await bench.login(user: "dual")
        let found = try await bench.host.call("stag.students.search", ["name": "Novák"]).get()
        #expect(found["students"]?.arrayValue?.map { $0["id"] } == ["F21B0003P", "F21B0002P", "F20B0001P"], "\(found)")
        let cenek = found["students"]?.arrayValue?.first { $0["id"] == "F21B0002P" }
        #expect(
            cenek?["first_name"] == "Čeněk" && cenek?["last_name"] == "NOVÁK" && cenek?["faculty"] == "FAV"
                && cenek?["programme"] == "Informatika" && cenek?["year_of_study"] == 1 && cenek?["email"] == "cenek@students.zcu.cz",
            "\(cenek ?? .null)")
        let asked = try await bench.fake.requests().last { $0["path"] == "student/najdiStudentyPodleJmena" }
        #expect(asked?["query"]?["prijmeni"] == "Novák" && asked?["query"]?["stagUser"] == "DVORAKP", "as the teacher: \(asked ?? .null)")
        let named = try await bench.host.call("stag.students.search", ["name": "Jana Nováková"]).get()
        #expect(named["students"]?.arrayValue?.map { $0["id"] } == ["F20B0001P"])
        let one = try await bench.host.call("stag.students.search", ["name": "Novák", "limit": 1]).get()
        #expect(one["students"]?.arrayValue?.count == 1 && one["truncated"] == true)
        // Bad names ask STAG nothing.
        let before = try await bench.fake.requests().count
        for (params, field) in [
            ([:] as JSONValue, "name"), (["name": " "], "name"), (["name": "No%"], "name"), (["name": "No__"], "name"),
            (["name": .string(String(repeating: "a", count: 101))], "name"),
            (["name": "Novák", "limit": 0], "limit"), (["name": "Novák", "limit": 201], "limit"),
        ] {
            guard case .failure(let error) = try await bench.host.call("stag.students.search", params) else {
                Issue.record("\(params) was taken")
                continue
            }
            #expect(error.code == -32602 && error.data?["param"] == .string(field), "\(params): \(error.message)")
        }
        #expect(try await bench.fake.requests().count == before)
        await bench.stop()
        // A student's account: STAG's own answer, passed on.
        let student = try await StudyTests.student()
        guard case .failure(let refused) = try await student.host.call("stag.students.search", ["name": "Novák"]) else {
            Issue.record("a student's search was answered")
            return
        }
        #expect(refused.message.contains("refused the requested role") || refused.message.contains("odmítl"), "\(refused.message)")
        await student.stop()
    }

    /// The dual user teaches KPO/TP: its two terms with capacity and occupancy, by date; a student
    /// has no teacher role; a subject's own terms on request.
    @Test func aTeachersExamTermsWithTheirSeats() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.loadFixture()
        try await bench.login(user: "dual")
        let exams = try await bench.host.call("stag.teacher.exams").get()
        let terms = exams["terms"]?.arrayValue ?? []
        #expect(terms.map { $0["term_id"] } == [2_200_001, 2_200_002])
        #expect(
            terms.first == [
                "term_id": 2_200_001, "subject": "KPO/TP", "name": "Teorie práva", "kind": "Zkouška", "date": "2027-01-15", "start": "09:00",
                "end": "11:00", "room": "PR-101", "examiner": "JUDr. Petr Dvořák", "registered": 18, "limit": 20, "free": 2,
                "register_deadline": "2026-11-25T09:00", "note": nil,
            ])
        #expect(terms.last?["free"] == 0)
        #expect(exams["truncated"] == false)
        let asked = try await bench.fake.requests().filter { $0["path"] == "terminy/getTerminyZkousek" }
        #expect(asked.first?["query"]?["katedra"] == "KPO")
        #expect(asked.first?["query"]?["zkratka"] == "TP")
        let one = try await bench.host.call("stag.teacher.exams", ["subject": "KIV/VSS"]).get()
        #expect(one["terms"]?.arrayValue?.map { $0["subject"] } == ["KIV/VSS"])
        guard case .failure(let bad) = try await bench.host.call("stag.teacher.exams", ["subject": "TP"]) else {
            Issue.record("a subject without its department accepted")
            return
        }
        #expect(bad.data?["param"] == "subject")
        await bench.stop()

        let student = try await StudyTests.student()
        guard case .failure(let noRole) = try await student.host.call("stag.teacher.exams") else {
            Issue.record("a student read a teacher's terms")
            return
        }
        #expect(noRole.code == 1303)
        await student.stop()
    }
}
