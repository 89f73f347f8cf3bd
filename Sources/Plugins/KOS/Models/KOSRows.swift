import Foundation
import PluginKit

/// The content of KOSapi's Atom entries, decoded by KOSapi's own element names (reference, and
/// `Tests/peers/kos-reference-additions.md`). Only the elements this plugin reads are declared;
/// the models and results are made from these, so no KOSapi element name is spelt elsewhere.
enum KOSRow {
    /// `<teachers><teacher>…</teacher></teachers>`, `<examiners>…`.
    struct Teachers: Decodable, Sendable {
        @AtomTexts var teacher: [String]
    }

    /// `exams/{id}`: an exam date.
    struct Exam: Decodable, Sendable {
        @AtomNonEmpty var startDate: String?
        @AtomText var endDate: String?
        @AtomLinked var course: AtomLink?
        @AtomText var room: String?
        @AtomInt var capacity: Int64?
        @AtomInt var occupied: Int64?
        /// `ASSESSMENT` for an assessment date.
        @AtomText var termType: String?
        @AtomRow<Teachers> var examiners: Teachers?
        @AtomTexts var examiner: [String]
        @AtomText var signinDeadline: String?
        @AtomText var cancelDeadline: String?
    }

    /// `courseEvents`: a course event (a mid-term test).
    struct Event: Decodable, Sendable {
        @AtomLinked var course: AtomLink?
        @AtomLocalized var name: String?
        @AtomText var startDate: String?
        @AtomText var endDate: String?
        @AtomText var room: String?
        @AtomInt var capacity: Int64?
        @AtomInt var occupied: Int64?
        @AtomText var note: String?
        @AtomText var signinDeadline: String?
    }

    /// `parallels`: a parallel with its slots.
    struct Parallel: Decodable, Sendable {
        @AtomText var code: String?
        @AtomLinked var course: AtomLink?
        @AtomText var parallelType: String?
        @AtomTexts var teacher: [String]
        @AtomRow<Teachers> var teachers: Teachers?
        @AtomInt var capacity: Int64?
        @AtomInt var occupied: Int64?
        @AtomRows<Slot> var timetableSlot: [Slot]

        /// Teachers listed directly or inside `<teachers>`.
        var allTeachers: [String] { teacher + (teachers?.teacher ?? []) }
    }

    /// `timetableSlot`, and a teacher's timetable entry.
    struct Slot: Decodable, Sendable {
        @AtomInt var day: Int64?
        @AtomInt var firstHour: Int64?
        @AtomInt var duration: Int64?
        @AtomText var startTime: String?
        @AtomText var endTime: String?
        /// `ODD`, `EVEN`, or both.
        @AtomText var parity: String?
        @AtomText var room: String?
        @AtomText var weeks: String?
        @AtomText var title: String?
        @AtomTexts var teacher: [String]

        /// Explicit times win over the hour grid.
        func times(_ grid: HourGrid) -> (start: String?, end: String?) {
            let first = firstHour.map { Int($0) }
            let last = first.map { $0 + Int(duration ?? 1) - 1 }
            return (
                startTime.map { String($0.prefix(5)) } ?? first.flatMap(grid.start(ofHour:)),
                endTime.map { String($0.prefix(5)) } ?? last.flatMap(grid.end(ofHour:))
            )
        }

        var parityValue: KOSTimetableSlot.Parity {
            switch parity {
            case "ODD": .odd
            case "EVEN": .even
            default: .both
            }
        }
    }

    /// `courses/{code}`: a course, with its detail texts when asked for (`detail=1`).
    struct Course: Decodable, Sendable {
        @AtomNonEmpty var code: String?
        @AtomLocalized var name: String?
        @AtomInt var credits: Int64?
        @AtomText var completion: String?
        @AtomText var season: String?
        @AtomText var range: String?
        @AtomText var programmeType: String?
        @AtomLocalized var description: String?
        @AtomLocalized var lecturesContents: String?
        @AtomLocalized var tutorialsContents: String?
        @AtomLocalized var requirements: String?
        @AtomLocalized var literature: String?
        @AtomLocalized var objectives: String?
    }

    /// `enrolledCourses`: an enrolment, internal (a course reference) or external (its own name).
    struct Enrolment: Decodable, Sendable {
        @AtomLinked var course: AtomLink?
        @AtomLinked var semester: AtomLink?
        @AtomFlag var completed: Bool
        @AtomFlag var assessment: Bool
        @AtomLocalized var name: String?
        @AtomInt var credits: Int64?
        @AtomText var completion: String?
    }

    /// `semesters/{code}`.
    struct Semester: Decodable, Sendable {
        @AtomNonEmpty var code: String?
        @AtomLocalized var name: String?
        @AtomNonEmpty var startDate: String?
        @AtomNonEmpty var endDate: String?
    }

    /// `students/{username}`.
    struct Student: Decodable, Sendable {
        @AtomText var username: String?
        @AtomText var titlesPre: String?
        @AtomText var firstName: String?
        @AtomText var lastName: String?
        @AtomText var titlesPost: String?
        @AtomText var programme: String?
        @AtomInt var studyGroup: Int64?
        @AtomInt var grade: Int64?
        @AtomText var studyState: String?
        @AtomLinked var studyPlan: AtomLink?
    }

    /// `<roles><student/><teacher/></roles>` of a person.
    struct Roles: Decodable, Sendable {
        @AtomPresent var student: Bool
        @AtomPresent var teacher: Bool

        var names: [String] { (student ? ["student"] : []) + (teacher ? ["teacher"] : []) }
    }

    /// `people` and `teachers`: a person, with a teacher's contacts and division.
    struct Person: Decodable, Sendable {
        @AtomText var username: String?
        @AtomText var firstName: String?
        @AtomText var lastName: String?
        @AtomText var titlesPre: String?
        @AtomText var titlesPost: String?
        @AtomRow<Roles> var roles: Roles?
        @AtomText var email: String?
        @AtomText var phone: String?
        @AtomLinked var division: AtomLink?
    }

    /// `rooms/{code}`; a capacity per purpose (`for="lecture"`, …).
    struct Room: Decodable, Sendable {
        @AtomNonEmpty var code: String?
        @AtomLocalized var name: String?
        @AtomText var locality: String?
        @AtomText var type: String?
        @AtomCapacities var capacity: [String: Int64]
    }

    /// `studyPlans/{code}/coursesGroups`: a group of the plan.
    struct CourseGroup: Decodable, Sendable {
        struct Courses: Decodable, Sendable {
            @AtomLinks var course: [AtomLink]
        }

        @AtomNonEmpty var code: String?
        @AtomLocalized var name: String?
        /// `Z`, `PV`, `V`.
        @AtomText var role: String?
        @AtomInt var creditsMinLimit: Int64?
        @AtomInt var coursesMinLimit: Int64?
        @AtomRow<Courses> var courses: Courses?
    }
}

/// Repeated `<capacity for="…">n</capacity>`: seats by purpose, `default` without one.
@propertyWrapper struct AtomCapacities: AtomField {
    var wrappedValue: [String: Int64]
    static func read(_ nodes: [XMLNode], language: String) -> [String: Int64] {
        var capacity: [String: Int64] = [:]
        for node in nodes {
            guard let n = Int64(node.trimmedText) else { continue }
            capacity[node.attribute("for") ?? "default"] = n
        }
        return capacity
    }
}
