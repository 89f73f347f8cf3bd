import AssistantTesting
import Foundation
import HostCore
import PluginKit
import Testing

@testable import Stag

/// A cached answer is stored as its encoding and decoded back for a stale read (STAG down): every
/// answer type must read back what it wrote, with everything present and with everything absent,
/// or the stale copy would count as none.
@Suite struct CachedCopyTests {
    static let person: JSONValue = [
        "titulPred": "Ing.", "jmeno": "Jan", "prijmeni": "Novák", "titulZa": "Ph.D.", "osCislo": "A20B0001P", "ucitIdno": "42",
        "katedra": "KIV", "email": "jan@example.org", "telefon": "123", "zkrBudovy": "UC", "cisloMistnosti": "326", "stav": "S",
        "formaSp": "P", "rocnik": 2, "nazevSp": "Informatika", "studReferentkaPrijmeniJmeno": "Malá Eva",
    ]

    @Test func everyInfoAnswerReadsBack() throws {
        for (row, label) in [(Self.person, "full"), ([:] as JSONValue, "empty")] {
            let subject: JSONValue =
                label == "full"
                ? ["nazev": "Úvod", "kreditu": "6", "garanti": "'A B' (100)", "jednotekPrednasek": 2, "jednotkaPrednasky": "HOD/TYD", "vyukaZS": "A"]
                : [:]
            try expectReadsBack(
                SubjectDetails(try #require(JSONTreeDecoder.row(subject, as: StagRow.SubjectInfo.self)), subject: "KIV/UPA"), "subject \(label)")
            let teacher = try #require(JSONTreeDecoder.row(row, as: StagRow.Teacher.self))
            try expectReadsBack(TeacherDetails(teacher, id: 42), "teacher \(label)")
            try expectReadsBack(FoundTeachers(teachers: [FoundTeacher(teacher)]), "teachers \(label)")
            let student = try #require(JSONTreeDecoder.row(row, as: StagRow.Student.self))
            try expectReadsBack(StudentDetails(student, id: "A20B0001P"), "student \(label)")
            try expectReadsBack(ActionStudents(students: [ActionStudent(student)]), "students \(label)")
            let thesis: JSONValue = label == "full" ? ["temaHlavni": "Téma", "student": Self.person, "datumZadani": ["value": "1.10.2026"]] : [:]
            try expectReadsBack(ThesisList(theses: [Thesis(try #require(JSONTreeDecoder.row(thesis, as: StagRow.Thesis.self)))]), "theses \(label)")
            let item = try #require(
                JSONTreeDecoder.row(label == "full" ? ["datumOd": "1.9.2026", "popis": "Zápis"] : [:], as: StagRow.CalendarItem.self))
            try expectReadsBack(AcademicCalendar(year: 2026, items: [AcademicCalendar.Item(item)]), "calendar \(label)")
            let room = try #require(
                JSONTreeDecoder.row(
                    ["zkrBudovy": "UC", "cisloMistnosti": "326"].merging(label == "full" ? ["kapacita": "30", "typ": "Učebna"] : [:]) { a, _ in a }
                        .json, as: StagRow.Room.self))
            try expectReadsBack(
                RoomList(rooms: [try #require(Room(room, addresses: label == "full" ? ["UC": "Univerzitní 8, Plzeň"] : [:]))]), "rooms \(label)")
            let listed = try #require(JSONTreeDecoder.row(["katedra": "KIV", "zkratka": "UPA", "rok": 2026], as: StagRow.Subject.self))
            let detail = label == "full" ? JSONTreeDecoder.row(["vyukaZS": "A", "vyukaLS": "A", "kreditu": 6], as: StagRow.SubjectInfo.self) : nil
            try expectReadsBack(
                FoundSubjects(subjects: [FoundSubject(row: listed, detail: detail, department: "KIV", code: "UPA")], truncated: false),
                "subjects \(label)")
            let meal = try #require(
                JSONTreeDecoder.row(
                    label == "full" ? ["name": "Polévka", "prices": [["type": "student", "price": 25.5]]] : [:], as: StagRow.Menu.Meal.self))
            try expectReadsBack(CanteenMenu(canteen: "B", day: 0, soups: [CanteenMenu.Meal(meal)], mainCourses: []), "canteen \(label)")
        }
    }

    @Test func resultsAndTeacherExamsReadBack() throws {
        let graded = try #require(
            GradeRow(stag: ["katedra": "KIV", "zkratka": "UPA", "rok": "2025", "semestr": "ZS", "kredity": 6, "zk_hodnoceni": "1,5"], subjects: [:]))
        let credit = try #require(
            GradeRow(stag: ["katedra": "KIV", "zkratka": "X", "rok": "2025", "semestr": "LS", "zk_hodnoceni": "S"], subjects: [:]))
        try expectReadsBack(StudyResults([graded, credit]), "results")
        try expectReadsBack(StudyResults([credit]), "results without an average")
        let term = try #require(ExamTerm(stag: ["termIdno": 7, "katedra": "KIV", "predmet": "UPA", "obsazeni": 3, "limit": 5], names: [:]))
        try expectReadsBack(TeacherExamTerms(terms: [TeacherExamTerms.Term(term)], truncated: true), "teacher exams")
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    fileprivate var json: JSONValue { .object(self) }
}
