import Foundation
import HostCore
import Testing

@testable import Stag

/// A timetable occurrence and a grade decoded from STAG's rows into fields; their results
/// round-trip (the refresh reads its stored baseline back), and the keys earlier versions stored
/// stay the same, so an upgrade tells no class as cancelled and added again.
@Suite struct TimetableEventTests {
    static let lecture: JSONValue = [
        "datum": ["value": "23.11.2026"], "katedra": "KMA", "predmet": "MA1", "nazev": "Matematická analýza 1", "typAkce": "Přednáška",
        "druhAkce": "R", "hodinaSkutOd": ["value": "9:20"], "hodinaSkutDo": ["value": "11:00"], "budova": "US", "mistnost": "217",
        "vsichniUciteleJmenaTitulySPodily": "'doc. Jan Novák, Ph.D.' 50, 'Eva Malá' 50", "tydenZkr": "L", "roakIdno": "991",
    ]

    @Test func stagsRowBecomesFields() throws {
        let event = try #require(TimetableEvent(stag: Self.lecture, role: "student"))
        #expect(event.date == "2026-11-23", "a {\"value\": d.M.yyyy} date")
        #expect(event.start == "09:20")
        #expect(event.end == "11:00")
        #expect(event.subject == "KMA/MA1")
        #expect(event.type == "Přednáška")
        #expect(event.room == "US-217")
        #expect(event.weekParity == .odd, "L (liché) is an odd week")
        #expect(event.actionID == 991, "a number sent as a string")
        #expect(event.termID == nil, "a class has no exam term")
        #expect(event.teachers.count == 2)
        #expect(event.title == "KMA/MA1 Matematická analýza 1")
        #expect(event.when == "2026-11-23 09:20")
        #expect(event.inRoom(.en) == " in US-217")
        #expect(event.inRoom(.cs) == " v US-217")
    }

    @Test func anExamRowIsAnExamOfItsTerm() throws {
        var row = Self.lecture.objectValue ?? [:]
        row["druhAkce"] = "Z"
        row["referencedIdno"] = "4711"
        let exam = try #require(TimetableEvent(stag: .object(row), role: "student"))
        #expect(exam.isExam)
        #expect(exam.type == "exam")
        #expect(exam.termID == 4711)
        #expect(exam.weekParity == nil, "an exam is on one date, in no week parity")
        row["datum"] = nil
        #expect(TimetableEvent(stag: .object(row), role: "student") == nil, "a row without a date is left out")
    }

    @Test func theResultListsEveryMemberAndReadsBack() throws {
        var row = Self.lecture.objectValue ?? [:]
        row["budova"] = nil
        row["mistnost"] = nil
        let event = try #require(TimetableEvent(stag: .object(row), role: "teacher"))
        let json = event.json
        #expect(json["room"] == .null, "no room is null, not absent")
        #expect(json["week_parity"] == "odd")
        #expect(json["action_id"] == 991)
        #expect(json.objectValue?.count == 13)
        #expect(try TimetableEvent(json: json) == event)
        #expect(TimetableEvent.resultSchema.problems(in: json, strict: true).isEmpty)
    }

    /// The refresh keys its timetable baseline as earlier versions did: each member as JSON text.
    @Test func theBaselineKeyIsTheOneEarlierVersionsStored() throws {
        let event = try #require(TimetableEvent(stag: Self.lecture, role: "student"))
        #expect(event.snapshotKey == #""2026-11-23"|991|"KMA/MA1"|"09:20""#)
        var row = Self.lecture.objectValue ?? [:]
        row["roakIdno"] = nil
        row["hodinaSkutOd"] = nil
        let loose = try #require(TimetableEvent(stag: .object(row), role: "student"))
        #expect(loose.snapshotKey == #""2026-11-23"|null|"KMA/MA1"|null"#)
    }

    @Test func gradesEncodeAsTheResultShowsThemAndReadBack() throws {
        let cases: [(String, JSONValue, String)] = [("1,5", 1.5, "1.5"), ("2", 2, "2"), ("S", "S", "S"), ("N", "N", "N"), ("B", "B", "B")]
        for (stag, json, text) in cases {
            let row: JSONValue = [
                "katedra": "KIV", "zkratka": "UPA", "rok": "2025", "semestr": "ZS", "zk_hodnoceni": .string(stag), "zk_datum": ["value": "20.1.2026"],
            ]
            let grade = try #require(GradeRow(stag: row, subjects: ["KIV/UPA": (name: "Úvod", credits: 6)]))
            #expect(grade.json["grade"] == json, "\(stag)")
            #expect(grade.grade?.text == text)
            #expect(try GradeRow(json: grade.json) == grade, "\(stag) reads back")
            #expect(GradeRow.resultSchema.problems(in: grade.json, strict: true).isEmpty)
        }
    }

    /// A stored copy edited to a number no grade is reads back and is written again, not a crash.
    @Test func aHugeStoredGradeIsWrittenAsANumber() throws {
        let stored: JSONValue = [
            "subject": "KIV/UPA", "name": .null, "credits": .null, "year": .null, "semester": .null, "grade": 1e300, "passed": false,
            "date": .null, "attempt": .null, "examiner": .null, "kind": "exam",
        ]
        let row = try GradeRow(json: stored)
        #expect(row.grade == .number(1e300))
        #expect(row.grade?.text == String(1e300))
        #expect(row.json["grade"] == 1e300)
    }
}
