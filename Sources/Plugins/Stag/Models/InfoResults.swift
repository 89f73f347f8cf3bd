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

    init(_ o: StagRow.SubjectInfo, subject: String) {
        func hours(_ count: Int64?, _ unit: String?) -> Hours? {
            guard let count, count > 0 else { return nil }
            return Hours(count: count, unit: unit)
        }
        self.subject = subject
        name = o.nazev
        longName = o.nazevDlouhy
        year = o.rok
        credits = o.kreditu
        guarantors = o.garanti
        lecturers = o.prednasejici
        tutors = o.cvicici
        seminarTutors = o.seminarici
        examiners = o.examinatori
        examType = o.typZkousky
        examForm = o.formaZkousky
        creditBeforeExam = o.maZapocetPredZk
        taughtWinter = o.vyukaZS
        taughtSummer = o.vyukaLS
        languages = o.vyucovaciJazyky
        annotation = o.anotace
        requirements = o.pozadavky
        contents = o.prehledLatky
        prerequisites = o.predpoklady
        literature = o.literatura
        requiredSubjects = o.podminujiciPredmety
        excludedSubjects = o.vylucujiciPredmety
        self.hours = Teaching(
            lectures: hours(o.jednotekPrednasek, o.jednotkaPrednasky), exercises: hours(o.jednotekCviceni, o.jednotkaCviceni),
            seminars: hours(o.jednotekSeminare, o.jednotkaSeminare))
        url = o.predmetUrl
        aims = Self.syllabus(o.ziskaneZpusobilosti)
        teachingMethods = Self.syllabus(o.metodyVyucovaci)
        assessmentMethods = Self.syllabus(o.metodyHodnotici)
        workload = o.casovaNarocnost
    }

    /// A syllabus text; nil where STAG gives its fixed placeholder for a subject moved to the
    /// newer QRAM system ("U tohoto předmětu se již používá nový QRAM."), which is no content.
    static func syllabus(_ text: String?) -> String? {
        guard let text, !text.contains("nový QRAM") else { return nil }
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

    init(_ o: StagRow.Teacher, id: Int64) {
        self.id = id
        name = o.personName
        firstName = o.jmeno
        lastName = o.prijmeni
        titleBefore = o.titulPred
        titleAfter = o.titulZa
        department = o.katedra
        email = o.email
        phone = o.telefon
        phone2 = o.telefon2
        url = o.url
        let office = [o.zkrBudovy, o.cisloMistnosti].compactMap { $0 }
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

    init(_ o: StagRow.Student, id: String) {
        self.id = id
        name = o.personName
        userName = o.userName
        status =
            switch o.stav {
            case "S": "studying"
            case "N": "not_studying"
            case "P": "interrupted"
            case let other: other
            }
        programme = o.nazevSp
        programmeCode = o.kodSp
        faculty = o.fakultaSp
        form =
            switch o.formaSp {
            case "P": "full_time"
            case "K": "combined"
            case "D": "distance"
            case let other: other
            }
        yearOfStudy = o.rocnik
        email = o.email
        studyOfficer = o.studReferentkaPrijmeniJmeno.map { Officer(name: $0, email: o.studReferentkaEmail, phone: o.studReferentkaTelefon) }
    }
}

/// `stag.calendar` (`kalendar/getHarmonogramRoku`): the year's items by start.
struct AcademicCalendar: Codable, Sendable {
    struct Item: Codable, Sendable, ExplicitNulls {
        var from, to: String?
        var description: String?

        init(_ row: StagRow.CalendarItem) {
            from = row.datumOd
            to = row.datumDo
            description = row.popis
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

    init(_ row: StagRow.Student) {
        id = row.osCislo
        name = row.personName
        firstName = row.jmeno
        lastName = row.prijmeni
        faculty = row.fakultaSp
        programme = row.nazevSp
        yearOfStudy = row.rocnik
        email = row.email
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

    init(_ row: StagRow.Thesis) {
        title = row.temaHlavni
        student = row.student.map { Student(id: $0.osCislo, name: $0.personName) }
        assigned = row.datumZadani
        plannedSubmission = row.planovaneDatumOdevzdani
        type = row.typPrace
        department = row.katedra
        faculty = row.fakulta
        supervisor = row.vedouciJmeno
        opponent = row.oponentJmeno
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

    init(_ row: StagRow.Teacher) {
        teacherID = row.ucitIdno
        name = row.personName
        department = row.katedra
        email = row.email
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
    init?(_ row: StagRow.Room, addresses: [String: String]) {
        guard let building = row.zkrBudovy, let number = row.cisloMistnosti else { return nil }
        self.building = building
        room = number
        name = "\(building)-\(number)"
        type = row.typ
        capacity = row.kapacita
        floor = row.podlazi
        department = row.katedra
        address = addresses[building] ?? row.adresaBudovy
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

    init(row: StagRow.Subject, detail: StagRow.SubjectInfo?, department: String, code: String) {
        subject = "\(department)/\(code)"
        self.department = department
        self.code = code
        name = detail?.nazev ?? row.nazev
        year = row.rok.flatMap { Int64($0) }
        credits = detail?.kreditu
        let winter = detail?.vyukaZS ?? false
        let summer = detail?.vyukaLS ?? false
        semester = winter && summer ? .both : winter ? .winter : summer ? .summer : nil
        completion = detail?.typZkousky
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

        init(_ meal: StagRow.Menu.Meal) {
            number = meal.number
            name = meal.name
            allergens = meal.allergens.map { Allergen(number: $0.number, name: $0.name) }
            prices = meal.prices.map { Price(type: $0.type, price: $0.price) }
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
