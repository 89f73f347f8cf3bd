import Foundation
import PluginKit

// Typed answers of the course search, a course's parallels, a teacher's timetable and a room,
// each read from its KOSapi Atom entry once and written straight into the reply; their schemas
// are in KOSSchemas. Every member is written, null when KOSapi gives nothing.

/// `kos.courses.search`: one course found.
struct FoundCourse: Codable, Sendable, ExplicitNulls {
    var code: String
    var name: String?
    var credits: Int64?
    var completion, season: String?

    /// nil for an entry without content or a code.
    init?(_ entry: AtomDocument.Entry, language: String) {
        guard let row = entry.row(KOSRow.Course.self, language: language), let code = row.code else { return nil }
        self.code = code
        name = row.name
        credits = row.credits
        completion = row.completion?.lowercased()
        season = row.season?.lowercased()
    }
}

struct FoundCourses: Codable, Sendable {
    var courses: [FoundCourse]
}

/// `kos.course.parallels`: one parallel with its seats and slots.
struct CourseParallel: Codable, Sendable, ExplicitNulls {
    struct Slot: Codable, Sendable, ExplicitNulls {
        /// 1 = Monday.
        var day: Int64?
        /// `HH:MM`.
        var start, end: String?
        var parity: KOSTimetableSlot.Parity
        var room, weeks: String?

        init(_ slot: KOSTimetableSlot) {
            (day, start, end, parity, room, weeks) = (slot.day, slot.start, slot.end, slot.parity, slot.room, slot.weeks)
        }
    }

    var parallel, kind: String?
    var teachers: [String]
    var capacity, occupied: Int64?
    /// Seats left; nil without a capacity.
    var free: Int64?
    var slots: [Slot]

    /// nil for an entry without content.
    init?(_ entry: AtomDocument.Entry, course: String, slots: [KOSTimetableSlot]) {
        guard let row = entry.row(KOSRow.Parallel.self, language: "") else { return nil }
        let own = slots.filter { $0.parallel == row.code && $0.course == course }
        parallel = row.code
        kind = own.first?.kind ?? row.parallelType?.lowercased()
        teachers = row.allTeachers
        capacity = row.capacity
        occupied = row.occupied
        free = capacity.map { [occupied] in max(0, $0 - (occupied ?? 0)) }
        self.slots = own.map(Slot.init)
    }
}

struct CourseParallels: Codable, Sendable {
    var code, semester: String
    var parallels: [CourseParallel]
}

/// `kos.teacher.timetable`: one of the teacher's slots.
struct TeacherSlot: Codable, Sendable, ExplicitNulls {
    /// 1 = Monday.
    var day: Int64?
    /// `HH:MM`.
    var start, end: String?
    var parity: KOSTimetableSlot.Parity
    var title, weeks: String?

    /// nil for an entry without content. Times from the hour grid unless the slot has its own.
    init?(_ entry: AtomDocument.Entry, grid: HourGrid) {
        guard let row = entry.row(KOSRow.Slot.self, language: "") else { return nil }
        day = row.day
        (start, end) = row.times(grid)
        parity = row.parityValue
        title = row.title
        weeks = row.weeks
    }
}

struct TeacherTimetable: Codable, Sendable {
    var username, semester: String
    var slots: [TeacherSlot]
}

/// `kos.room`.
struct RoomDetails: Codable, Sendable, ExplicitNulls {
    var code: String
    var name, locality, type: String?
    /// Seats by purpose (`for="lecture"`, `for="exam"`…; `default` without one).
    var capacity: [String: Int64]

    init(_ row: KOSRow.Room, code: String) {
        self.code = row.code ?? code
        name = row.name
        locality = row.locality
        type = row.type?.lowercased()
        capacity = row.capacity
    }
}

/// `kos.course`: one course with its detail texts.
struct CourseDetail: Codable, Sendable, ExplicitNulls {
    struct Details: Codable, Sendable, ExplicitNulls {
        var lectures, tutorials, requirements, literature, objectives: String?
    }

    var code: String
    var name: String?
    var credits: Int64?
    var completion, season, range, programmeType, annotation: String?
    var details: Details

    enum CodingKeys: String, CodingKey {
        case code, name, credits, completion, season, range, annotation, details
        case programmeType = "programme_type"
    }

    init(_ row: KOSRow.Course, code: String) {
        self.code = code
        name = row.name
        credits = row.credits
        completion = row.completion?.lowercased()
        season = row.season?.lowercased()
        range = row.range
        programmeType = row.programmeType?.lowercased()
        annotation = row.description
        details = Details(
            lectures: row.lecturesContents, tutorials: row.tutorialsContents, requirements: row.requirements, literature: row.literature,
            objectives: row.objectives)
    }
}

/// `kos.profile`: the logged-in student.
struct StudentProfile: Codable, Sendable, ExplicitNulls {
    var name, username: String
    var programme: String?
    var studyGroup, grade: Int64?
    var status: String?

    enum CodingKeys: String, CodingKey {
        case name, username, programme, grade, status
        case studyGroup = "study_group"
    }

    init(_ row: KOSRow.Student, username: String) {
        name = [row.titlesPre, row.firstName, row.lastName, row.titlesPost].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        self.username = row.username ?? username
        programme = row.programme
        studyGroup = row.studyGroup
        grade = row.grade
        status = row.studyState?.lowercased()
    }
}

/// `kos.people.search`: one person, with a teacher's e-mail, phone and division when KOSapi's
/// /teachers has them.
struct Person: Codable, Sendable, ExplicitNulls {
    struct Titles: Codable, Sendable, ExplicitNulls {
        var before, after: String?
    }

    var username, name: String
    var titles: Titles
    var email, phone, division: String?
    var roles: [String]

    /// nil for a person without a username.
    init?(_ row: KOSRow.Person, teacher: KOSRow.Person?, roles: [String]) {
        guard let username = row.username else { return nil }
        func text(_ value: String?) -> String? { value?.isEmpty == false ? value : nil }
        self.username = username
        name = [row.firstName, row.lastName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        titles = Titles(before: text(row.titlesPre), after: text(row.titlesPost))
        email = text(teacher?.email)
        phone = text(teacher?.phone)
        division = teacher?.division?.code
        self.roles = roles
    }
}

struct People: Codable, Sendable {
    var people: [Person]
}

/// `kos.studyplan`: my plan's groups checked against my completed courses.
struct StudyPlanCheck: Codable, Sendable {
    struct Plan: Codable, Sendable, ExplicitNulls {
        var code: String
        var name: String?
    }

    struct Group: Codable, Sendable, ExplicitNulls {
        var code: String
        var name: String?
        /// compulsory, elective, optional, or KOS's own letter.
        var role: String
        var creditsRequired: Int64?
        var creditsObtained, creditsShort: Int64
        var coursesRequired: Int64?
        var coursesCompleted: Int64
        /// Compulsory courses not completed.
        var missing: [String]

        enum CodingKeys: String, CodingKey {
            case code, name, role, missing
            case creditsRequired = "credits_required", creditsObtained = "credits_obtained", creditsShort = "credits_short"
            case coursesRequired = "courses_required", coursesCompleted = "courses_completed"
        }

        /// Has what it asks for.
        var isComplete: Bool { creditsShort == 0 && (coursesRequired ?? 0) <= coursesCompleted && missing.isEmpty }
    }

    var studyPlan: Plan
    var groups: [Group]
    /// Every group has what it asks for.
    var complete: Bool

    enum CodingKeys: String, CodingKey {
        case groups, complete
        case studyPlan = "study_plan"
    }
}

/// `kos.courses.available`: the plan's courses not completed that are offered in a semester.
struct AvailableCourses: Codable, Sendable {
    struct Course: Codable, Sendable, ExplicitNulls {
        var code: String
        var name: String?
        var credits: Int64?
        var group, role: String
    }

    var semester: String
    var courses: [Course]
    /// The plan has more courses not completed than one call asks about.
    var truncated: Bool
}

/// `kos.office`: the study office's hours from the config.
struct OfficeHours: Encodable, CallResult {
    struct Day: Encodable, Sendable {
        var day: String
        /// 1 = Monday.
        var weekday: Int
        var hours: String
    }

    var configured: Bool
    var hours: [Day]
    /// Where to set them, when they are not.
    var message: String?
}
