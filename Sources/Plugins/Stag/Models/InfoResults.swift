import Foundation
import PluginKit

// Typed answers of the subject, teacher, student, calendar, students and theses commands, each
// read from STAG's row once (its keys and quirks stay here), written straight into the reply and
// kept by the offline cache: each is the declaration of its result (`StoredResultObject`). Every
// member is written, null when STAG gives nothing.

/// `stag.subject` (`predmety/getPredmetInfo`).
struct SubjectDetails: StoredResultObject, Sendable {
    struct Hours: StoredResultObject, Sendable {
        var count: Int64 = 0
        var unit: String?

        static let members = ResultMembers<Self>(.field("count", \.count), .field("unit", \.unit))

        init() {}

        init(count: Int64, unit: String?) {
            self.count = count
            self.unit = unit
        }
    }
    struct Teaching: StoredResultObject, Sendable {
        var lectures: Hours?
        var exercises: Hours?
        var seminars: Hours?

        static let members = ResultMembers<Self>(.field("lectures", \.lectures), .field("exercises", \.exercises), .field("seminars", \.seminars))
    }

    var subject = ""
    var name, longName: String?
    var year, credits: Int64?
    var guarantors: [String] = []
    var lecturers: [String] = []
    var tutors: [String] = []
    var seminarTutors: [String] = []
    var examiners: [String] = []
    var examType, examForm: String?
    var creditBeforeExam, taughtWinter, taughtSummer: Bool?
    var languages, annotation, requirements, contents, prerequisites, literature, requiredSubjects, excludedSubjects: String?
    var hours = Teaching()
    var url, aims, teachingMethods, assessmentMethods, workload: String?

    static let members = ResultMembers<Self>(
        .field("subject", \.subject), .field("name", \.name), .field("long_name", \.longName), .field("year", \.year),
        .field("credits", \.credits), .field("guarantors", \.guarantors), .field("lecturers", \.lecturers), .field("tutors", \.tutors),
        .field("seminar_tutors", \.seminarTutors), .field("examiners", \.examiners), .field("exam_type", \.examType),
        .field("exam_form", \.examForm), .field("credit_before_exam", \.creditBeforeExam), .field("taught_winter", \.taughtWinter),
        .field("taught_summer", \.taughtSummer), .field("languages", \.languages), .field("annotation", \.annotation),
        .field("requirements", \.requirements), .field("contents", \.contents), .field("prerequisites", \.prerequisites),
        .field("literature", \.literature), .field("required_subjects", \.requiredSubjects), .field("excluded_subjects", \.excludedSubjects),
        .field("hours", \.hours), .field("url", \.url),
        .field("aims", \.aims, "what the student is able to do afterwards (ziskaneZpusobilosti)"),
        .field("teaching_methods", \.teachingMethods), .field("assessment_methods", \.assessmentMethods), .field("workload", \.workload))

    init() {}

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
struct TeacherDetails: StoredResultObject, Sendable {
    var id: Int64 = 0
    var name, firstName, lastName, titleBefore, titleAfter, department, email, phone, phone2, url: String?
    /// `BUILDING-ROOM`.
    var office: String?

    static let members = ResultMembers<Self>(
        .field("id", \.id), .field("name", \.name), .field("first_name", \.firstName), .field("last_name", \.lastName),
        .field("title_before", \.titleBefore), .field("title_after", \.titleAfter), .field("department", \.department),
        .field("email", \.email), .field("phone", \.phone), .field("phone2", \.phone2), .field("url", \.url), .field("office", \.office))

    init() {}

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
struct StudentDetails: StoredResultObject, Sendable {
    struct Officer: StoredResultObject, Sendable {
        var name, email, phone: String?

        static let members = ResultMembers<Self>(.field("name", \.name), .field("email", \.email), .field("phone", \.phone))
    }

    var id = ""
    var name, userName: String?
    var status: String?
    var programme, programmeCode, faculty: String?
    var form: String?
    var yearOfStudy: Int64?
    var email: String?
    var studyOfficer: Officer?

    static let members = ResultMembers<Self>(
        .field("id", \.id), .field("name", \.name), .field("user_name", \.userName),
        .field("status", \.status, "studying, not_studying, interrupted, or STAG's code"), .field("programme", \.programme),
        .field("programme_code", \.programmeCode), .field("faculty", \.faculty),
        .field("form", \.form, "full_time, combined, distance, or STAG's code"), .field("year_of_study", \.yearOfStudy),
        .field("email", \.email), .field("study_officer", \.studyOfficer))

    init() {}

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
struct AcademicCalendar: StoredResultObject, Sendable {
    struct Item: StoredResultObject, Sendable {
        var from, to: String?
        var description: String?

        static let members = ResultMembers<Self>(.field("from", \.from, .date), .field("to", \.to, .date), .field("description", \.description))

        init() {}

        init(_ row: StagRow.CalendarItem) {
            from = row.datumOd
            to = row.datumDo
            description = row.popis
        }
    }

    var year: Int64 = 0
    var items: [Item] = []

    static let members = ResultMembers<Self>(.field("year", \.year), .field("items", \.items))
}

/// A student as STAG's student rows give one: of a timetable action (`stag.students`), or found by
/// name (`stag.students.search`).
struct ActionStudent: StoredResultObject, Sendable {
    var id, name, firstName, lastName, faculty, programme: String?
    var yearOfStudy: Int64?
    var email: String?

    static let members = ResultMembers<Self>(
        .field("id", \.id), .field("name", \.name), .field("first_name", \.firstName), .field("last_name", \.lastName),
        .field("faculty", \.faculty), .field("programme", \.programme), .field("year_of_study", \.yearOfStudy),
        .field("email", \.email, "when STAG gives it"))

    init() {}

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

struct ActionStudents: StoredResultObject, Sendable {
    var students: [ActionStudent] = []

    static let members = ResultMembers<Self>(.field("students", \.students))
}

/// `stag.theses`: one thesis the teacher supervises (`kvalifikacniPrace`).
struct Thesis: StoredResultObject, Sendable {
    struct Student: StoredResultObject, Sendable {
        var id, name: String?

        static let members = ResultMembers<Self>(.field("id", \.id), .field("name", \.name))
    }

    var title: String?
    var student: Student?
    var assigned, plannedSubmission: String?
    var type, department, faculty, supervisor, opponent: String?

    static let members = ResultMembers<Self>(
        .field("title", \.title), .field("student", \.student), .field("assigned", \.assigned, .date),
        .field("planned_submission", \.plannedSubmission, .date), .field("type", \.type), .field("department", \.department),
        .field("faculty", \.faculty), .field("supervisor", \.supervisor), .field("opponent", \.opponent))

    init() {}

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

struct ThesisList: StoredResultObject, Sendable {
    var theses: [Thesis] = []

    static let members = ResultMembers<Self>(.field("theses", \.theses))
}

// MARK: Searches

/// `stag.teachers.search`: one teacher found.
struct FoundTeacher: StoredResultObject, Sendable {
    var teacherID: Int64?
    var name, department, email: String?

    static let members = ResultMembers<Self>(
        .field("teacher_id", \.teacherID), .field("name", \.name), .field("department", \.department), .field("email", \.email))

    init() {}

    init(_ row: StagRow.Teacher) {
        teacherID = row.ucitIdno
        name = row.personName
        department = row.katedra
        email = row.email
    }
}

struct FoundTeachers: StoredResultObject, Sendable {
    var teachers: [FoundTeacher] = []

    static let members = ResultMembers<Self>(.field("teachers", \.teachers))
}

/// `stag.students.search`: the students a teacher looked up by name, as `stag.students` shows one.
struct FoundStudents: StoredResultObject, Sendable {
    var students: [ActionStudent] = []
    var truncated = false

    static let members = ResultMembers<Self>(.field("students", \.students), .field("truncated", \.truncated, "more matched than limit"))
}

/// `stag.rooms`: one room with its building's address.
struct Room: StoredResultObject, Sendable {
    var building = ""
    var room = ""
    var name = ""
    var type: String?
    var capacity: Int64?
    var floor, department, address: String?

    static let members = ResultMembers<Self>(
        .field("building", \.building), .field("room", \.room), .field("name", \.name, "BUILDING-ROOM"), .field("type", \.type),
        .field("capacity", \.capacity), .field("floor", \.floor), .field("department", \.department), .field("address", \.address))

    init() {}

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

struct RoomList: StoredResultObject, Sendable {
    var rooms: [Room] = []

    static let members = ResultMembers<Self>(.field("rooms", \.rooms))
}

struct FoundRooms: StoredResultObject, Sendable {
    var rooms: [Room] = []
    var truncated = false

    static let members = ResultMembers<Self>(.field("rooms", \.rooms), .field("truncated", \.truncated, "more rooms matched than limit"))
}

/// `stag.rooms.timetable`.
struct RoomTimetable: StoredResultObject, Sendable {
    var building = ""
    var room = ""
    var events: [TimetableEvent] = []

    static let members = ResultMembers<Self>(.field("building", \.building), .field("room", \.room), .field("events", \.events))
}

/// `stag.subjects.search`: one subject found, with what its detail adds.
struct FoundSubject: StoredResultObject, Sendable {
    enum Semester: String, Codable, Sendable, CaseIterable, ResultDescribing {
        case winter = "ZS", summer = "LS", both
    }

    var subject = ""
    var department = ""
    var code = ""
    var name: String?
    var year, credits: Int64?
    var semester: Semester?
    var completion: String?

    static let members = ResultMembers<Self>(
        .field("subject", \.subject, "KAT/CODE"), .field("department", \.department), .field("code", \.code), .field("name", \.name),
        .field("year", \.year), .field("credits", \.credits), .field("semester", \.semester, "when it is taught"),
        .field("completion", \.completion, "STAG's exam type, e.g. Zkouška, Zápočet"))

    init() {}

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

struct FoundSubjects: StoredResultObject, Sendable {
    var subjects: [FoundSubject] = []
    var truncated = false

    static let members = ResultMembers<Self>(
        .field("subjects", \.subjects), .field("truncated", \.truncated, "more subjects matched than limit"))
}

// MARK: Canteen and mail

/// `stag.canteen`: a day's menu of the ZČU canteen (its own JSON, not STAG's).
struct CanteenMenu: StoredResultObject, Sendable {
    struct Meal: StoredResultObject, Sendable {
        struct Allergen: StoredResultObject, Sendable {
            var number: Int64?
            var name: String?

            static let members = ResultMembers<Self>(.field("number", \.number), .field("name", \.name))
        }
        struct Price: StoredResultObject, Sendable {
            var type: String?
            var price: Double?

            static let members = ResultMembers<Self>(.field("type", \.type), .field("price", \.price))
        }

        var number: Int64?
        var name: String?
        var allergens: [Allergen] = []
        var prices: [Price] = []

        static let members = ResultMembers<Self>(
            .field("number", \.number), .field("name", \.name), .field("allergens", \.allergens), .field("prices", \.prices))

        init() {}

        init(_ meal: StagRow.Menu.Meal) {
            number = meal.number
            name = meal.name
            allergens = meal.allergens.map { Allergen(number: $0.number, name: $0.name) }
            prices = meal.prices.map { Price(type: $0.type, price: $0.price) }
        }
    }

    var canteen = ""
    var day: Int64 = 0
    var soups: [Meal] = []
    var mainCourses: [Meal] = []

    static let members = ResultMembers<Self>(
        .field("canteen", \.canteen), .field("day", \.day), .field("soups", \.soups), .field("main_courses", \.mainCourses))
}

/// `stag.students.mail`: who the message goes (or would go) to.
struct StudentsMailed: ResultObject, CallResult {
    var dryRun: Bool
    var actionID: Int64
    var to: String
    var bcc: [String]
    var withoutEmail: [String]
    var subject: String
    /// Nil on a dry run (left out).
    var sent: Int64?

    static let members = ResultMembers<Self>(
        .field("dry_run", \.dryRun), .field("action_id", \.actionID), .field("to", \.to, "the visible recipient"),
        .field("bcc", \.bcc, "the students' addresses, each unseen by the others"),
        .field("without_email", \.withoutEmail, "students STAG has no e-mail for"), .field("subject", \.subject),
        .omittedWhenNil("sent", \.sent, "how many were mailed (not on a dry run)"))
}
