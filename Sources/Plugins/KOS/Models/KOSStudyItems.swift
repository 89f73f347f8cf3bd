import Foundation
import PluginKit

/// A slot of one of my parallels (`students/{username}/parallels`, its `timetableSlot`s), times
/// from the teaching-hour grid unless the slot carries its own. The result is its encoding; the
/// `.ics` export reads the fields.
struct KOSTimetableSlot: JSONModel, Equatable {
    enum Parity: String, Codable, Sendable, CaseIterable {
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
    var parity: Parity
    var room: String?
    var teachers: [String]
    /// KOSapi's week list ("1-7,9"), when the slot is not in every teaching week.
    var weeks: String?

    enum CodingKeys: String, CodingKey {
        case day, start, end, course, kind, parallel, parity, room, teachers, weeks
        case courseName = "course_name"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeOrNull(day, forKey: .day)
        try c.encodeOrNull(start, forKey: .start)
        try c.encodeOrNull(end, forKey: .end)
        try c.encodeOrNull(course, forKey: .course)
        try c.encodeOrNull(courseName, forKey: .courseName)
        try c.encodeOrNull(kind, forKey: .kind)
        try c.encodeOrNull(parallel, forKey: .parallel)
        try c.encode(parity, forKey: .parity)
        try c.encodeOrNull(room, forKey: .room)
        try c.encode(teachers, forKey: .teachers)
        try c.encodeOrNull(weeks, forKey: .weeks)
    }

    /// Whether the slot takes place in a week of this parity.
    func isIn(_ weekParity: Parity) -> Bool { parity == .both || parity == weekParity }

    /// Day, start, course: the result's order, slots without a day last.
    var sortKey: (Int64, String, String) { (day ?? 9, start ?? "", course ?? "") }
}

/// A course event (a test, a presentation: `courses/{code}/events`), decoded from its Atom entry.
struct KOSCourseEvent: JSONModel, Equatable {
    var id: String
    var course: String?
    var name: String?
    /// `YYYY-MM-DDTHH:MM`, Prague wall time.
    var start: String?
    var end: String?
    var room: String?
    var capacity: Int64?
    var occupied: Int64?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeOrNull(course, forKey: .course)
        try c.encodeOrNull(name, forKey: .name)
        try c.encodeOrNull(start, forKey: .start)
        try c.encodeOrNull(end, forKey: .end)
        try c.encodeOrNull(room, forKey: .room)
        try c.encodeOrNull(capacity, forKey: .capacity)
        try c.encodeOrNull(occupied, forKey: .occupied)
    }

    /// "2026-12-03 14:30–16:00", as notices write it.
    var when: String {
        guard let start else { return "?" }
        return start.replacingOccurrences(of: "T", with: " ") + (end.map { "–" + $0.suffix(5) } ?? "")
    }
    var inRoom: String { room.map { " in \($0)" } ?? "" }
    var seats: String {
        guard let capacity else { return "\(occupied ?? 0) registered" }
        return "\(occupied ?? 0)/\(capacity) seats taken"
    }
}

/// One course enrolment (`students/{username}/enrolledCourses`), with the course's name, credits
/// and completion from `courses` (or, for a course at another school, from the enrolment).
struct KOSEnrolment: JSONModel, Equatable {
    var code: String?
    var name: String?
    var credits: Int64?
    /// KOSapi's completion in lower case (`credit_exam`, `clfd_credit`, …).
    var completion: String?
    var completed: Bool
    var assessment: Bool
    var semester: String?
    /// Enrolled at another faculty or school.
    var external: Bool

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeOrNull(code, forKey: .code)
        try c.encodeOrNull(name, forKey: .name)
        try c.encodeOrNull(credits, forKey: .credits)
        try c.encodeOrNull(completion, forKey: .completion)
        try c.encode(completed, forKey: .completed)
        try c.encode(assessment, forKey: .assessment)
        try c.encodeOrNull(semester, forKey: .semester)
        try c.encode(external, forKey: .external)
    }

    /// The refresh's baseline key, as earlier versions stored it.
    var snapshotKey: String { "\(semester ?? "")|\(code ?? "external:\(name ?? "?")")" }
    /// "BI-PA1 Programming 1", for notices.
    var title: String { [code, name].compactMap { $0 }.joined(separator: " ") }
}
