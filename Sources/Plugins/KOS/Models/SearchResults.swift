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
        guard let c = entry.content, let code = c.nonEmptyText("code") else { return nil }
        self.code = code
        name = c.text("name", language: language)
        credits = c.first("credits").flatMap { Int64($0.trimmedText) }
        completion = c.first("completion")?.trimmedText.lowercased()
        season = c.first("season")?.trimmedText.lowercased()
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
        guard let c = entry.content else { return nil }
        let number = c.first("code")?.trimmedText
        let own = slots.filter { $0.parallel == number && $0.course == course }
        parallel = number
        kind = own.first?.kind ?? c.first("parallelType")?.trimmedText.lowercased()
        teachers = (c.children("teacher") + (c.first("teachers")?.children("teacher") ?? [])).map(\.trimmedText).filter { !$0.isEmpty }
        capacity = c.first("capacity").flatMap { Int64($0.trimmedText) }
        occupied = c.first("occupied").flatMap { Int64($0.trimmedText) }
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
        guard let c = entry.content else { return nil }
        let first = c.first("firstHour").flatMap { Int($0.trimmedText) }
        let duration = c.first("duration").flatMap { Int($0.trimmedText) } ?? 1
        day = c.first("day").flatMap { Int64($0.trimmedText) }
        start = c.first("startTime").map { String($0.trimmedText.prefix(5)) } ?? first.flatMap(grid.start(ofHour:))
        end = c.first("endTime").map { String($0.trimmedText.prefix(5)) } ?? first.flatMap { grid.end(ofHour: $0 + duration - 1) }
        parity =
            switch c.first("parity")?.trimmedText {
            case "ODD": .odd
            case "EVEN": .even
            default: .both
            }
        title = c.first("title")?.trimmedText
        weeks = c.first("weeks")?.trimmedText
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

    init(_ c: XMLNode, code: String, language: String) {
        self.code = c.nonEmptyText("code") ?? code
        name = c.text("name", language: language)
        locality = c.first("locality")?.trimmedText
        type = c.first("type")?.trimmedText.lowercased()
        var capacity: [String: Int64] = [:]
        for node in c.children("capacity") {
            guard let n = Int64(node.trimmedText) else { continue }
            capacity[node.attribute("for") ?? "default"] = n
        }
        self.capacity = capacity
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

    init(_ c: XMLNode, code: String, language: String) {
        func text(_ name: String) -> String? { c.text(name, language: language) }
        func lower(_ name: String) -> String? { c.first(name)?.trimmedText.lowercased() }
        self.code = code
        name = text("name")
        credits = c.first("credits").flatMap { Int64($0.trimmedText) }
        completion = lower("completion")
        season = lower("season")
        range = c.first("range")?.trimmedText
        programmeType = lower("programmeType")
        annotation = text("description")
        details = Details(
            lectures: text("lecturesContents"), tutorials: text("tutorialsContents"), requirements: text("requirements"),
            literature: text("literature"), objectives: text("objectives"))
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

    init(_ c: XMLNode, username: String) {
        name = [
            c.first("titlesPre")?.trimmedText, c.first("firstName")?.trimmedText, c.first("lastName")?.trimmedText,
            c.first("titlesPost")?.trimmedText,
        ]
        .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        self.username = c.first("username")?.trimmedText ?? username
        programme = c.first("programme")?.trimmedText
        studyGroup = c.first("studyGroup").flatMap { Int64($0.trimmedText) }
        grade = c.first("grade").flatMap { Int64($0.trimmedText) }
        status = c.first("studyState")?.trimmedText.lowercased()
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

    /// nil for an entry without content or a username.
    init?(_ entry: AtomDocument.Entry, teacher: XMLNode?, roles: [String]) {
        guard let c = entry.content, let username = c.first("username")?.trimmedText else { return nil }
        func text(_ node: XMLNode?, _ name: String) -> String? {
            guard let value = node?.first(name)?.trimmedText, !value.isEmpty else { return nil }
            return value
        }
        self.username = username
        name = [c.first("firstName")?.trimmedText, c.first("lastName")?.trimmedText].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        titles = Titles(before: text(c, "titlesPre"), after: text(c, "titlesPost"))
        email = text(teacher, "email")
        phone = text(teacher, "phone")
        division = teacher?.first("division")?.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:))
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
