import Foundation
import PluginKit

// Typed answers of the subject, teacher, student, calendar, students and theses commands, each
// read from STAG's row once (its keys and quirks stay here) and written straight into the reply;
// their schemas are in StagSchemas. Every member is written, null when STAG gives nothing.

/// `stag.subject` (`predmety/getPredmetInfo`).
struct SubjectDetails: Codable, Sendable, ExplicitNulls {
    struct Hours: Codable, Sendable, ExplicitNulls {
        var count: Int64
        var unit: String?
    }
    struct Teaching: Codable, Sendable, ExplicitNulls {
        var lectures: Hours?
        var exercises: Hours?
        var seminars: Hours?
    }

    var subject: String
    var name, longName: String?
    var year, credits: Int64?
    var guarantors, lecturers, tutors, seminarTutors, examiners: [String]
    var examType, examForm: String?
    var creditBeforeExam, taughtWinter, taughtSummer: Bool?
    var languages, annotation, requirements, contents, prerequisites, literature, requiredSubjects, excludedSubjects: String?
    var hours: Teaching
    var url, aims, teachingMethods, assessmentMethods, workload: String?

    enum CodingKeys: String, CodingKey {
        case subject, name, year, credits, guarantors, lecturers, tutors, examiners, languages, annotation, requirements, contents
        case prerequisites, literature, hours, url, aims, workload
        case longName = "long_name", seminarTutors = "seminar_tutors", examType = "exam_type", examForm = "exam_form"
        case creditBeforeExam = "credit_before_exam", taughtWinter = "taught_winter", taughtSummer = "taught_summer"
        case requiredSubjects = "required_subjects", excludedSubjects = "excluded_subjects", teachingMethods = "teaching_methods"
        case assessmentMethods = "assessment_methods"
    }

    init(stag o: JSONValue, subject: String) {
        func text(_ key: String) -> String? { StagValue.string(o[key]) }
        func names(_ key: String) -> [String] { StagValue.quotedNames(text(key)) }
        func hours(_ count: String, _ unit: String) -> Hours? {
            guard let n = StagValue.int(o[count]), n > 0 else { return nil }
            return Hours(count: n, unit: text(unit))
        }
        self.subject = subject
        name = text("nazev")
        longName = text("nazevDlouhy")
        year = StagValue.int(o["rok"])
        credits = StagValue.int(o["kreditu"])
        guarantors = names("garanti")
        lecturers = names("prednasejici")
        tutors = names("cvicici")
        seminarTutors = names("seminarici")
        examiners = names("examinatori")
        examType = text("typZkousky")
        examForm = text("formaZkousky")
        creditBeforeExam = StagValue.flag(o["maZapocetPredZk"])
        taughtWinter = StagValue.flag(o["vyukaZS"])
        taughtSummer = StagValue.flag(o["vyukaLS"])
        languages = text("vyucovaciJazyky")
        annotation = text("anotace")
        requirements = text("pozadavky")
        contents = text("prehledLatky")
        prerequisites = text("predpoklady")
        literature = text("literatura")
        requiredSubjects = text("podminujiciPredmety")
        excludedSubjects = text("vylucujiciPredmety")
        self.hours = Teaching(
            lectures: hours("jednotekPrednasek", "jednotkaPrednasky"), exercises: hours("jednotekCviceni", "jednotkaCviceni"),
            seminars: hours("jednotekSeminare", "jednotkaSeminare"))
        url = text("predmetUrl")
        aims = Self.syllabus(o["ziskaneZpusobilosti"])
        teachingMethods = Self.syllabus(o["metodyVyucovaci"])
        assessmentMethods = Self.syllabus(o["metodyHodnotici"])
        workload = text("casovaNarocnost")
    }

    /// A syllabus text; nil where STAG gives its fixed placeholder for a subject moved to the
    /// newer QRAM system ("U tohoto předmětu se již používá nový QRAM."), which is no content.
    static func syllabus(_ value: JSONValue?) -> String? {
        guard let text = StagValue.string(value), !text.contains("nový QRAM") else { return nil }
        return text
    }
}

/// `stag.teacher` (`ucitel/getUcitelInfo`).
struct TeacherDetails: Codable, Sendable, ExplicitNulls {
    var id: Int64
    var name, firstName, lastName, titleBefore, titleAfter, department, email, phone, phone2, url: String?
    /// `BUILDING-ROOM`.
    var office: String?

    enum CodingKeys: String, CodingKey {
        case id, name, department, email, phone, phone2, url, office
        case firstName = "first_name", lastName = "last_name", titleBefore = "title_before", titleAfter = "title_after"
    }

    init(stag o: JSONValue, id: Int64) {
        func text(_ key: String) -> String? { StagValue.string(o[key]) }
        self.id = id
        name = StagValue.personName(o)
        firstName = text("jmeno")
        lastName = text("prijmeni")
        titleBefore = text("titulPred")
        titleAfter = text("titulZa")
        department = text("katedra")
        email = text("email")
        phone = text("telefon")
        phone2 = text("telefon2")
        url = text("url")
        let office = [text("zkrBudovy"), text("cisloMistnosti")].compactMap { $0 }
        self.office = office.isEmpty ? nil : office.joined(separator: "-")
    }
}

/// `stag.student` (`student/getStudentInfo`).
struct StudentDetails: Codable, Sendable, ExplicitNulls {
    struct Officer: Codable, Sendable, ExplicitNulls {
        var name, email, phone: String?
    }

    var id: String
    var name, userName: String?
    /// `studying`, `not_studying`, `interrupted`, or STAG's own code.
    var status: String?
    var programme, programmeCode, faculty: String?
    /// `full_time`, `combined`, `distance`, or STAG's own code.
    var form: String?
    var yearOfStudy: Int64?
    var email: String?
    var studyOfficer: Officer?

    enum CodingKeys: String, CodingKey {
        case id, name, status, programme, faculty, form, email
        case userName = "user_name", programmeCode = "programme_code", yearOfStudy = "year_of_study", studyOfficer = "study_officer"
    }

    init(stag o: JSONValue, id: String) {
        func text(_ key: String) -> String? { StagValue.string(o[key]) }
        self.id = id
        name = StagValue.personName(o)
        userName = text("userName")
        status =
            switch text("stav") {
            case "S": "studying"
            case "N": "not_studying"
            case "P": "interrupted"
            case let other: other
            }
        programme = text("nazevSp")
        programmeCode = text("kodSp")
        faculty = text("fakultaSp")
        form =
            switch text("formaSp") {
            case "P": "full_time"
            case "K": "combined"
            case "D": "distance"
            case let other: other
            }
        yearOfStudy = StagValue.int(o["rocnik"])
        email = text("email")
        studyOfficer = text("studReferentkaPrijmeniJmeno").map {
            Officer(name: $0, email: text("studReferentkaEmail"), phone: text("studReferentkaTelefon"))
        }
    }
}

/// `stag.calendar` (`kalendar/getHarmonogramRoku`): the year's items by start.
struct AcademicCalendar: Codable, Sendable {
    struct Item: Codable, Sendable, ExplicitNulls {
        var from, to: String?
        var description: String?

        init(stag row: JSONValue) {
            from = StagValue.date(row["datumOd"])
            to = StagValue.date(row["datumDo"])
            description = StagValue.string(row["popis"])
        }
    }

    var year: Int64
    var items: [Item]
}

/// `stag.students`: one student of a timetable action (`studentPredmetu`).
struct ActionStudent: Codable, Sendable, ExplicitNulls {
    var id, name, firstName, lastName, faculty, programme: String?
    var yearOfStudy: Int64?
    var email: String?

    enum CodingKeys: String, CodingKey {
        case id, name, faculty, programme, email
        case firstName = "first_name", lastName = "last_name", yearOfStudy = "year_of_study"
    }

    init(stag row: JSONValue) {
        func text(_ key: String) -> String? { StagValue.string(row[key]) }
        id = text("osCislo")
        name = StagValue.personName(row)
        firstName = text("jmeno")
        lastName = text("prijmeni")
        faculty = text("fakultaSp")
        programme = text("nazevSp")
        yearOfStudy = StagValue.int(row["rocnik"])
        email = text("email")
    }
}

struct ActionStudents: Codable, Sendable {
    var students: [ActionStudent]
}

/// `stag.theses`: one thesis the teacher supervises (`kvalifikacniPrace`).
struct Thesis: Codable, Sendable, ExplicitNulls {
    struct Student: Codable, Sendable, ExplicitNulls {
        var id, name: String?
    }

    var title: String?
    var student: Student?
    var assigned, plannedSubmission: String?
    var type, department, faculty, supervisor, opponent: String?

    enum CodingKeys: String, CodingKey {
        case title, student, assigned, type, department, faculty, supervisor, opponent
        case plannedSubmission = "planned_submission"
    }

    init(stag row: JSONValue) {
        func text(_ key: String) -> String? { StagValue.string(row[key]) }
        title = text("temaHlavni")
        student = row["student"]?.objectValue.map { _ in
            Student(id: StagValue.string(row["student"]?["osCislo"]), name: StagValue.personName(row["student"]))
        }
        assigned = StagValue.date(row["datumZadani"])
        plannedSubmission = StagValue.date(row["planovaneDatumOdevzdani"])
        type = text("typPrace")
        department = text("katedra")
        faculty = text("fakulta")
        supervisor = text("vedouciJmeno")
        opponent = text("oponentJmeno")
    }
}

struct ThesisList: Codable, Sendable {
    var theses: [Thesis]
}

// MARK: Searches

/// `stag.teachers.search`: one teacher found.
struct FoundTeacher: Codable, Sendable, ExplicitNulls {
    var teacherID: Int64?
    var name, department, email: String?

    enum CodingKeys: String, CodingKey {
        case name, department, email
        case teacherID = "teacher_id"
    }

    init(stag row: JSONValue) {
        teacherID = StagValue.int(row["ucitIdno"])
        name = StagValue.personName(row)
        department = StagValue.string(row["katedra"])
        email = StagValue.string(row["email"])
    }
}

struct FoundTeachers: Codable, Sendable {
    var teachers: [FoundTeacher]
}

/// `stag.rooms`: one room with its building's address.
struct Room: Codable, Sendable, ExplicitNulls {
    var building, room: String
    /// `BUILDING-ROOM`.
    var name: String
    var type: String?
    var capacity: Int64?
    var floor, department, address: String?

    /// nil for a row without a building or a number.
    init?(stag row: JSONValue, addresses: [String: String]) {
        guard let building = StagValue.string(row["zkrBudovy"]), let number = StagValue.string(row["cisloMistnosti"]) else { return nil }
        self.building = building
        room = number
        name = "\(building)-\(number)"
        type = StagValue.string(row["typ"])
        capacity = StagValue.int(row["kapacita"])
        floor = StagValue.string(row["podlazi"])
        department = StagValue.string(row["katedra"])
        address = addresses[building] ?? StagValue.string(row["adresaBudovy"])
    }

    /// The room's number, its building-room name or its type contains `query` (lower case).
    func matches(_ query: String) -> Bool {
        [room, name, type].compactMap { $0?.lowercased() }.contains { $0.contains(query) }
    }
}

struct RoomList: Codable, Sendable {
    var rooms: [Room]
}

struct FoundRooms: Codable, Sendable {
    var rooms: [Room]
    var truncated: Bool
}

/// `stag.rooms.timetable`.
struct RoomTimetable: Codable, Sendable {
    var building, room: String
    var events: [TimetableEvent]
}

/// `stag.subjects.search`: one subject found, with what its detail adds.
struct FoundSubject: Codable, Sendable, ExplicitNulls {
    enum Semester: String, Codable, Sendable {
        case winter = "ZS", summer = "LS", both
    }

    var subject, department, code: String
    var name: String?
    var year, credits: Int64?
    var semester: Semester?
    /// STAG's exam type (Zkouška, Zápočet).
    var completion: String?

    init(row: JSONValue, detail: JSONValue, department: String, code: String) {
        subject = "\(department)/\(code)"
        self.department = department
        self.code = code
        name = StagValue.string(detail["nazev"] ?? row["nazev"])
        year = StagValue.int(row["rok"])
        credits = StagValue.int(detail["kreditu"])
        let winter = StagValue.flag(detail["vyukaZS"]) ?? false
        let summer = StagValue.flag(detail["vyukaLS"]) ?? false
        semester = winter && summer ? .both : winter ? .winter : summer ? .summer : nil
        completion = StagValue.string(detail["typZkousky"])
    }
}

struct FoundSubjects: Codable, Sendable {
    var subjects: [FoundSubject]
    var truncated: Bool
}

// MARK: Canteen and mail

/// `stag.canteen`: a day's menu of the ZČU canteen (its own JSON, not STAG's).
struct CanteenMenu: Codable, Sendable {
    struct Meal: Codable, Sendable, ExplicitNulls {
        struct Allergen: Codable, Sendable, ExplicitNulls {
            var number: Int64?
            var name: String?
        }
        struct Price: Codable, Sendable, ExplicitNulls {
            var type: String?
            var price: Double?
        }

        var number: Int64?
        var name: String?
        var allergens: [Allergen]
        var prices: [Price]

        init(menu json: JSONValue) {
            number = StagValue.int(json["number"])
            name = StagValue.string(json["name"])
            allergens = (json["allergens"]?.arrayValue ?? []).map {
                Allergen(number: StagValue.int($0["number"]), name: StagValue.string($0["name"]))
            }
            prices = (json["prices"]?.arrayValue ?? []).map { Price(type: StagValue.string($0["type"]), price: $0["price"]?.doubleValue) }
        }
    }

    var canteen: String
    var day: Int64
    var soups, mainCourses: [Meal]

    enum CodingKeys: String, CodingKey {
        case canteen, day, soups
        case mainCourses = "main_courses"
    }
}

/// `stag.students.mail`: who the message goes (or would go) to.
struct StudentsMailed: Encodable, CallResult {
    var dryRun: Bool
    var actionID: Int64
    var to: String
    var bcc: [String]
    var withoutEmail: [String]
    var subject: String
    /// How many were mailed; nil on a dry run (left out).
    var sent: Int64?

    enum CodingKeys: String, CodingKey {
        case to, bcc, subject, sent
        case dryRun = "dry_run", actionID = "action_id", withoutEmail = "without_email"
    }
}
