import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// Subject, teacher, student, calendar, the teacher's views, the canteen and the calendar file.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "icalendar"))) struct InfoTests {
    @Test func subjectTeacherStudentAndCalendar() async throws {
        let bench = try await StudyTests.student()
        let subject = try await bench.host.call("stag.subject", ["department": "kiv", "code": "UPA"]).get()
        #expect(subject["name"] == "Úvod do počítačových architektur")
        #expect(subject["credits"] == 6)
        #expect(subject["tutors"] == ["Dr. Ing. Karel Dvořák", "Ing. Tomáš Černý, Ph.D.", "doc. Ing. Jan Novák, CSc."])
        #expect(subject["credit_before_exam"] == true, "ANO is yes")
        #expect(subject["taught_summer"] == false)
        #expect(subject["hours"] == ["lectures": ["count": 3, "unit": "HOD/TYD"], "exercises": ["count": 2, "unit": "HOD/TYD"], "seminars": .null])
        #expect(subject["annotation"] == "Cílem předmětu je seznámit studenty se základními typy architektur.")
        #expect(subject["prerequisites"] == "Základní znalosti z fyziky.")
        #expect(subject["teaching_methods"] == .null, "STAG's QRAM placeholder is no content")
        #expect(subject["assessment_methods"] == .null)
        guard case .failure(let unknown) = try await bench.host.call("stag.subject", ["department": "KIV", "code": "NONE"]) else {
            Issue.record("an unknown subject was found")
            return
        }
        #expect(unknown.code == -32010, "STAG's [] is not found")

        let teacher = try await bench.host.call("stag.teacher", ["id": 283755]).get()
        #expect(teacher["name"] == "JUDr. Petr Dvořák")
        #expect(teacher["office"] == "PR-312")
        guard case .failure(let noTeacher) = try await bench.host.call("stag.teacher", ["id": 1]) else {
            Issue.record("teacher 1 found")
            return
        }
        #expect(noTeacher.code == -32010)

        let me = try await bench.host.call("stag.student").get()
        #expect(me["id"] == "F20B0001P")
        #expect(me["status"] == "studying")
        #expect(me["form"] == "full_time")
        #expect(me["year_of_study"] == 2)
        #expect(me["study_officer"] == ["name": "Nováková Petra", "email": "novakova@fav.zcu.cz", "phone": "377630000"])

        let calendar = try await bench.host.call("stag.calendar").get()
        #expect(calendar["year"] == 2026, "November 2026 is in the academic year 2026/27")
        #expect(
            calendar["items"] == [
                ["from": "2026-09-01", "to": "2026-09-18", "description": "Zápis do 1. ročníku"],
                ["from": "2026-09-21", "to": .null, "description": "Začíná: Zimní semestr"],
            ])
        await bench.stop()
    }

    @Test func aTeacherSeesStudentsInCzechOrderAndTheses() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.loadFixture()
        try await bench.login(user: "dual")
        let students = try await bench.host.call("stag.students", ["action_id": 700001]).get()
        #expect(
            students["students"]?.arrayValue?.map { $0["last_name"] } == ["Cibulka", "Čechová", "Hrubý", "Chalupa", "Rybová", "Řezníčková"],
            "Č after C, Ch after H, Ř after R")
        let theses = try await bench.host.call("stag.theses").get()
        #expect(theses["theses"]?.arrayValue?.first?["student"] == ["id": "R21P0103P", "name": "Jan Hrubý"])
        #expect(theses["theses"]?.arrayValue?.first?["planned_submission"] == "2027-04-30")
        await bench.stop()
    }

    @Test func canteenMenu() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.loadFixture()
        // The canteen needs no login.
        let menu = try await bench.host.call("stag.canteen", ["canteen": "b"]).get()
        #expect(
            menu["soups"] == [
                [
                    "number": 1, "name": "Hovězí vývar s nudlemi", "allergens": [["number": 1, "name": "Lepek"], ["number": 9, "name": "Celer"]],
                    "prices": [["type": "Student", "price": 15], ["type": "Employee", "price": 25], ["type": "External", "price": 35]],
                ]
            ])
        #expect(menu["main_courses"]?.arrayValue?.first?["prices"]?.arrayValue?.first?["price"] == 62.5)
        let closed = try await bench.host.call("stag.canteen", ["canteen": "K", "day": 1]).get()
        #expect(closed["soups"] == [] && closed["main_courses"] == [], "a day without service is empty")
        for (params, param) in [(["canteen": "X"] as JSONValue, "canteen"), ([:], "canteen"), (["canteen": "B", "day": -1], "day")] {
            guard case .failure(let error) = try await bench.host.call("stag.canteen", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.data?["param"] == .string(param))
        }
        await bench.stop()
    }

    @Test func theCalendarFileIsReadByAnotherCalendarLibrary() async throws {
        let bench = try await StudyTests.student()
        let path = bench.host.directory.file("stag.ics")
        let written = try await bench.host.call("stag.export.ics", ["path": .string(path), "from": "2026-11-23", "to": "2026-11-29"]).get()
        #expect(written["events"] == 3)
        let dump = try await Peers.outputOrError(Peers.python, [Peers.script("ics_dump.py"), path]).get()
        let items = try JSONValue.decode(dump)["components"]?.arrayValue ?? []
        #expect(
            items.compactMap { $0["summary"]?.stringValue }.sorted() == [
                "Exam: KIV/VSS Vývoj softwarových systémů", "KIV/PPA1 Počítače a programování 1 (Cvičení)",
                "KMA/MA1 Matematická analýza 1 (Přednáška)",
            ])
        let lecture = try require(items.first { $0["summary"]?.stringValue?.hasPrefix("KMA/MA1") == true })
        #expect(lecture["dtstart"]?["utc"] == "2026-11-23T08:20:00Z", "09:20 in Prague is 08:20 UTC")
        #expect(lecture["dtend"]?["utc"] == "2026-11-23T10:00:00Z")
        #expect(lecture["location"] == "US-217")
        // Bad paths and windows write nothing.
        for (params, param) in [
            (["path": .string(bench.host.directory.file("nowhere/x.ics")), "from": "2026-11-23", "to": "2026-11-29"] as JSONValue, "path"),
            (["path": .string(path), "from": "2026-11-29", "to": "2026-11-23"], "to"),
            (["path": .string(path), "to": "2026-11-23"], "from"),
        ] {
            guard case .failure(let error) = try await bench.host.call("stag.export.ics", params) else {
                Issue.record("\(params) accepted")
                continue
            }
            #expect(error.data?["param"] == .string(param), "\(params): \(error.message)")
        }
        await bench.stop()
    }

    @Test func badInfoInputSendsNothing() async throws {
        let bench = try await StudyTests.student()
        let before = try await bench.fake.requests().count
        let cases: [(String, JSONValue, String)] = [
            ("stag.subject", ["code": "UPA"], "department"),
            ("stag.subject", ["department": "K I V", "code": "UPA"], "department"),
            ("stag.subject", ["department": "KIV", "code": "UPA", "year": 3000], "year"),
            ("stag.teacher", [:], "id"),
            ("stag.teacher", ["id": "novak"], "id"),
            ("stag.student", ["id": "A20/B"], "id"),
            ("stag.calendar", ["year": 1200], "year"),
            ("stag.students", [:], "action_id"),
            ("stag.theses", ["year": "x"], "year"),
        ]
        try await bench.host.expectInvalidParams(cases)
        #expect(try await bench.fake.requests().count == before)
        guard case .failure(let student) = try await bench.host.call("stag.students", ["action_id": 5]) else {
            Issue.record("a student saw students")
            return
        }
        #expect(student.code == 1303, "a student has no teacher role")
        await bench.stop()
    }
}
