import Foundation
import PluginKit

/// What kind of date an exam is: an exam, or an assessment (`termType` ASSESSMENT).
enum KOSExamKind: String, Codable, Sendable, CaseIterable {
    case exam, assessment
}

/// An exam date from KOSapi's Atom entry (`exams/{id}`, reference: content with `startDate`,
/// `capacity`, `occupied`, `examiners`, deadlines), decoded into fields. Jobs, notices and the
/// `.ics` export read the fields; the result is its encoding (every member present, null when
/// KOSapi gives nothing).
struct KOSExam: JSONModel, Equatable {
    var id: String
    /// The course code (from the course link).
    var course: String?
    /// `YYYY-MM-DDTHH:MM`, Prague wall time.
    var start: String
    var end: String?
    var room: String?
    var capacity: Int64?
    var occupied: Int64?
    var full: Bool
    var kind: KOSExamKind
    var examiners: [String]
    var signinDeadline: String?
    var cancelDeadline: String?
    var registered: Bool

    enum CodingKeys: String, CodingKey {
        case id, course, start, end, room, capacity, occupied, full, kind, examiners, registered
        case signinDeadline = "signin_deadline", cancelDeadline = "cancel_deadline"
    }

    /// Nil for an entry without an id or a start: of no use to anyone (and it would sort and
    /// export wrongly).
    init?(_ entry: AtomDocument.Entry, registered: Set<String>) {
        // An exam has no multilingual text: the language is not read.
        guard let id = entry.id, !id.isEmpty, let row = entry.row(KOSRow.Exam.self, language: ""), let startText = row.startDate else { return nil }
        self.id = id
        func minutes(_ text: String) -> String { String(text.prefix(16)) }
        course = row.course?.code
        start = minutes(startText)
        end = row.endDate.map(minutes)
        room = row.room
        capacity = row.capacity
        occupied = row.occupied
        full = capacity.map { [occupied] cap in (occupied ?? 0) >= cap } ?? false
        kind = row.termType == "ASSESSMENT" ? .assessment : .exam
        examiners = (row.examiners?.teacher ?? []) + row.examiner
        signinDeadline = row.signinDeadline
        cancelDeadline = row.cancelDeadline
        self.registered = registered.contains(id)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeOrNull(course, forKey: .course)
        try c.encode(start, forKey: .start)
        try c.encodeOrNull(end, forKey: .end)
        try c.encodeOrNull(room, forKey: .room)
        try c.encodeOrNull(capacity, forKey: .capacity)
        try c.encodeOrNull(occupied, forKey: .occupied)
        try c.encode(full, forKey: .full)
        try c.encode(kind, forKey: .kind)
        try c.encode(examiners, forKey: .examiners)
        try c.encodeOrNull(signinDeadline, forKey: .signinDeadline)
        try c.encodeOrNull(cancelDeadline, forKey: .cancelDeadline)
        try c.encode(registered, forKey: .registered)
    }

    var courseName: String { course ?? "?" }
    /// "2027-01-20 09:00–11:30".
    var when: String { start.replacingOccurrences(of: "T", with: " ") + (end.map { "–" + $0.suffix(5) } ?? "") }
    var inRoom: String { room.map { " in \($0)" } ?? "" }
    var seats: String {
        guard let capacity else { return "\(occupied ?? 0) registered" }
        return "\(occupied ?? 0)/\(capacity) seats taken"
    }
    var startInstant: Date? { DateOnly.instant(start, in: KOSService.zone) }
    var endInstant: Date? { end.flatMap { DateOnly.instant($0, in: KOSService.zone) } }
}
