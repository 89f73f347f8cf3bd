import Foundation
import PluginKit
import StudyKit

/// A slot of one of my parallels (`students/{username}/parallels`, its `timetableSlot`s), times
/// from the teaching-hour grid unless the slot carries its own. The result is its encoding; the
/// `.ics` export reads the fields.
struct KOSTimetableSlot: StoredResultObject, JSONModel, Equatable {
    enum Parity: String, Codable, Sendable, CaseIterable, ResultDescribing {
        case both, odd, even
    }

    /// 1 = Monday.
    var day: Int64?
    /// `HH:MM`.
    var start: String?
    var end: String?
    var course: String?
    var courseName: String?
    /// `lecture`, `tutorial`, `lab`, or KOSapi's own type in lower case.
    var kind: String?
    var parallel: String?
    var parity = Parity.both
    var room: String?
    var teachers: [String] = []
    /// KOSapi's week list ("1-7,9"), when the slot is not in every teaching week.
    var weeks: String?

    static let members = ResultMembers<Self>(
        .field("day", \.day, "1 = Monday"), .field("start", \.start, .clock), .field("end", \.end, .clock), .field("course", \.course),
        .field("course_name", \.courseName), .field("kind", \.kind), .field("parallel", \.parallel), .field("parity", \.parity),
        .field("room", \.room), .field("teachers", \.teachers), .field("weeks", \.weeks))

    /// Whether the slot takes place in a week of this parity.
    func isIn(_ weekParity: Parity) -> Bool { parity == .both || parity == weekParity }

    /// Day, start, course: the result's order, slots without a day last.
    var sortKey: (Int64, String, String) { (day ?? 9, start ?? "", course ?? "") }
}

/// A course event (a test, a presentation: `courses/{code}/events`), decoded from its Atom entry.
struct KOSCourseEvent: StoredResultObject, JSONModel, Equatable {
    var id = ""
    var course: String?
    var name: String?
    /// `YYYY-MM-DDTHH:MM`, Prague wall time.
    var start: String?
    var end: String?
    var room: String?
    var capacity: Int64?
    var occupied: Int64?
    /// Left out where KOSapi gives none (and in what an older version stored).
    var note: String?
    var signinDeadline: String?

    static let members = ResultMembers<Self>(
        .field("id", \.id), .field("course", \.course), .field("name", \.name), .field("start", \.start, .pragueTime),
        .field("end", \.end, .pragueTime), .field("room", \.room), .field("capacity", \.capacity), .field("occupied", \.occupied),
        .omittedWhenNil("note", \.note), .omittedWhenNil("signin_deadline", \.signinDeadline, .date, "the last day to sign up"))

    /// "2026-12-03 14:30–16:00", as notices write it.
    var when: String {
        guard let start else { return "?" }
        return start.replacingOccurrences(of: "T", with: " ") + (end.map { "–" + $0.suffix(5) } ?? "")
    }
    func inRoom(_ language: LanguageCode) -> String { StudyWords.inRoom(room, language) }
    func seats(_ language: LanguageCode) -> String { NoticeWords.seats(occupied: occupied, capacity: capacity, language) }
}

/// One course enrolment (`students/{username}/enrolledCourses`), with the course's name, credits
/// and completion from `courses` (or, for a course at another school, from the enrolment).
struct KOSEnrolment: StoredResultObject, JSONModel, Equatable {
    var code: String?
    var name: String?
    var credits: Int64?
    /// KOSapi's completion in lower case (`credit_exam`, `clfd_credit`, …).
    var completion: String?
    var completed = false
    var assessment = false
    var semester: String?
    var external = false

    static let members = ResultMembers<Self>(
        .field("code", \.code), .field("name", \.name), .field("credits", \.credits), .field("completion", \.completion),
        .field("completed", \.completed), .field("assessment", \.assessment), .field("semester", \.semester),
        .field("external", \.external, "enrolled at another faculty or school"))

    /// The refresh's baseline key, as earlier versions stored it.
    var snapshotKey: String { "\(semester ?? "")|\(code ?? "external:\(name ?? "?")")" }
    /// "BI-PA1 Programming 1", for notices.
    var title: String { [code, name].compactMap { $0 }.joined(separator: " ") }
}
