import Foundation
import PluginKit

// Typed answers of the course search, a course's parallels, a teacher's timetable and a room,
// each read from its KOSapi Atom entry once, written straight into the reply and kept by the
// offline cache: each is the declaration of its result (`StoredResultObject`). Every member is
// written, null when KOSapi gives nothing.

/// `kos.courses.search`: one course found.
struct FoundCourse: StoredResultObject, Sendable {
    var code = ""
    var name: String?
    var credits: Int64?
    var completion, season: String?

    static let members = ResultMembers<Self>(
        .field("code", \.code), .field("name", \.name), .field("credits", \.credits), .field("completion", \.completion),
        .field("season", \.season))

    init() {}

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

struct FoundCourses: StoredResultObject, Sendable {
    var courses: [FoundCourse] = []

    static let members = ResultMembers<Self>(.field("courses", \.courses))
}

/// `kos.course.parallels`: one parallel with its seats and slots.
struct CourseParallel: StoredResultObject, Sendable {
    struct Slot: StoredResultObject, Sendable {
        var day: Int64?
        var start, end: String?
        var parity = KOSTimetableSlot.Parity.both
        var room, weeks: String?

        static let members = ResultMembers<Self>(
            .field("day", \.day, "1 = Monday"), .field("start", \.start, .clock), .field("end", \.end, .clock), .field("parity", \.parity),
            .field("room", \.room), .field("weeks", \.weeks))

        init() {}

        init(_ slot: KOSTimetableSlot) {
            (day, start, end, parity, room, weeks) = (slot.day, slot.start, slot.end, slot.parity, slot.room, slot.weeks)
        }
    }

    var parallel, kind: String?
    var teachers: [String] = []
    var capacity, occupied: Int64?
    var free: Int64?
    var slots: [Slot] = []

    static let members = ResultMembers<Self>(
        .field("parallel", \.parallel), .field("kind", \.kind), .field("teachers", \.teachers), .field("capacity", \.capacity),
        .field("occupied", \.occupied), .field("free", \.free, "seats left; null without a capacity"), .field("slots", \.slots))

    init() {}

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

struct CourseParallels: StoredResultObject, Sendable {
    var code = ""
    var semester = ""
    var parallels: [CourseParallel] = []

    static let members = ResultMembers<Self>(.field("code", \.code), .field("semester", \.semester), .field("parallels", \.parallels))
}

/// `kos.teacher.timetable`: one of the teacher's slots.
struct TeacherSlot: StoredResultObject, Sendable {
    var day: Int64?
    var start, end: String?
    var parity = KOSTimetableSlot.Parity.both
    var title, weeks: String?

    static let members = ResultMembers<Self>(
        .field("day", \.day, "1 = Monday"), .field("start", \.start, .clock), .field("end", \.end, .clock), .field("parity", \.parity),
        .field("title", \.title), .field("weeks", \.weeks))

    init() {}

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

struct TeacherTimetable: StoredResultObject, Sendable {
    var username = ""
    var semester = ""
    var slots: [TeacherSlot] = []

    static let members = ResultMembers<Self>(.field("username", \.username), .field("semester", \.semester), .field("slots", \.slots))
}

/// `kos.room`.
struct RoomDetails: StoredResultObject, Sendable {
    var code = ""
    var name, locality, type: String?
    /// `default` for seats without a purpose.
    var capacity: [String: Int64] = [:]

    static let members = ResultMembers<Self>(
        .field("code", \.code), .field("name", \.name), .field("locality", \.locality), .field("type", \.type),
        .field("capacity", \.capacity, "seats by purpose, as KOSapi lists them (for=…)"))

    init() {}

    init(_ row: KOSRow.Room, code: String) {
        self.code = row.code ?? code
        name = row.name
        locality = row.locality
        type = row.type?.lowercased()
        capacity = row.capacity
    }
}

/// `kos.course`: one course with its detail texts.
struct CourseDetail: StoredResultObject, Sendable {
    struct Details: StoredResultObject, Sendable {
        var lectures, tutorials, requirements, literature, objectives: String?

        static let members = ResultMembers<Self>(
            .field("lectures", \.lectures), .field("tutorials", \.tutorials), .field("requirements", \.requirements),
            .field("literature", \.literature), .field("objectives", \.objectives))
    }

    var code = ""
    var name: String?
    var credits: Int64?
    var completion, season, range, programmeType, annotation: String?
    var details = Details()

    static let members = ResultMembers<Self>(
        .field("code", \.code), .field("name", \.name), .field("credits", \.credits), .field("completion", \.completion),
        .field("season", \.season), .field("range", \.range), .field("programme_type", \.programmeType), .field("annotation", \.annotation),
        .field("details", \.details))

    init() {}

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
struct StudentProfile: StoredResultObject, Sendable {
    var name = ""
    var username = ""
    var programme: String?
    var studyGroup, grade: Int64?
    var status: String?

    static let members = ResultMembers<Self>(
        .field("name", \.name), .field("username", \.username), .field("programme", \.programme), .field("study_group", \.studyGroup),
        .field("grade", \.grade), .field("status", \.status))

    init() {}

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
struct Person: StoredResultObject, Sendable {
    struct Titles: StoredResultObject, Sendable {
        var before, after: String?

        static let members = ResultMembers<Self>(.field("before", \.before), .field("after", \.after))
    }

    var username = ""
    var name = ""
    var titles = Titles()
    var email, phone, division: String?
    var roles: [String] = []

    static let members = ResultMembers<Self>(
        .field("username", \.username), .field("name", \.name), .field("titles", \.titles), .field("email", \.email),
        .field("phone", \.phone, "a teacher's, when KOSapi gives it"), .field("division", \.division), .field("roles", \.roles))

    init() {}

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

struct People: StoredResultObject, Sendable {
    var people: [Person] = []

    static let members = ResultMembers<Self>(.field("people", \.people))
}

/// `kos.studyplan`: my plan's groups checked against my completed courses.
struct StudyPlanCheck: StoredResultObject, Sendable {
    struct Plan: StoredResultObject, Sendable {
        var code = ""
        var name: String?

        static let members = ResultMembers<Self>(.field("code", \.code), .field("name", \.name))
    }

    struct Group: StoredResultObject, Sendable {
        var code = ""
        var name: String?
        var role = ""
        var creditsRequired: Int64?
        var creditsObtained: Int64 = 0
        var creditsShort: Int64 = 0
        var coursesRequired: Int64?
        var coursesCompleted: Int64 = 0
        var missing: [String] = []

        static let members = ResultMembers<Self>(
            .field("code", \.code), .field("name", \.name),
            .field("role", \.role, "compulsory (Z), elective (PV: some of them), optional (V), or KOS's own letter"),
            .field("credits_required", \.creditsRequired), .field("credits_obtained", \.creditsObtained),
            .field("credits_short", \.creditsShort), .field("courses_required", \.coursesRequired),
            .field("courses_completed", \.coursesCompleted), .field("missing", \.missing, "compulsory courses not completed"))

        /// Has what it asks for.
        var isComplete: Bool { creditsShort == 0 && (coursesRequired ?? 0) <= coursesCompleted && missing.isEmpty }
    }

    var studyPlan = Plan()
    var groups: [Group] = []
    var complete = false

    static let members = ResultMembers<Self>(
        .field("study_plan", \.studyPlan), .field("groups", \.groups), .field("complete", \.complete, "every group has what it asks for"))
}

/// `kos.courses.available`: the plan's courses not completed that are offered in a semester.
struct AvailableCourses: StoredResultObject, Sendable {
    struct Course: StoredResultObject, Sendable {
        var code = ""
        var name: String?
        var credits: Int64?
        var group = ""
        var role = ""

        static let members = ResultMembers<Self>(
            .field("code", \.code), .field("name", \.name), .field("credits", \.credits), .field("group", \.group), .field("role", \.role))
    }

    var semester = ""
    var courses: [Course] = []
    var truncated = false

    static let members = ResultMembers<Self>(
        .field("semester", \.semester), .field("courses", \.courses),
        .field("truncated", \.truncated, "the plan has more than 100 courses not completed; the first 100 were asked about"))
}

/// `kos.office`: the study office's hours from the config.
struct OfficeHours: ResultObject, CallResult {
    struct Day: ResultObject, Sendable {
        var day: String
        var weekday: Int
        var hours: String

        static let members = ResultMembers<Self>(.field("day", \.day), .field("weekday", \.weekday, "1 = Monday"), .field("hours", \.hours))
    }

    var configured: Bool
    var hours: [Day]
    /// Where to set them, when they are not.
    var message: String?

    static let members = ResultMembers<Self>(
        .field("configured", \.configured), .field("hours", \.hours), .omittedWhenNil("message", \.message))
}
