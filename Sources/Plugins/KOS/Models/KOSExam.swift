import Foundation
import PluginKit
import StudyKit

/// What kind of date an exam is: an exam, or an assessment (`termType` ASSESSMENT).
enum KOSExamKind: String, Codable, Sendable, CaseIterable, ResultDescribing {
    case exam, assessment
}

/// An exam date from KOSapi's Atom entry (`exams/{id}`, reference: content with `startDate`,
/// `capacity`, `occupied`, `examiners`, deadlines), decoded into fields. Jobs, notices and the
/// `.ics` export read the fields; the result is its encoding (every member present, null when
/// KOSapi gives nothing).
struct KOSExam: StoredResultObject, JSONModel, Equatable {
    var id = ""
    var course: String?
    var start = ""
    var end: String?
    var room: String?
    var capacity: Int64?
    var occupied: Int64?
    var full = false
    var kind = KOSExamKind.exam
    var examiners: [String] = []
    var signinDeadline: String?
    var cancelDeadline: String?
    var registered = false

    /// Empty, to be read back into (`StoredResultObject`).
    init() {}

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

    var courseName: String { course ?? "?" }
    /// "2027-01-20 09:00–11:30".
    var when: String { start.replacingOccurrences(of: "T", with: " ") + (end.map { "–" + $0.suffix(5) } ?? "") }
    func inRoom(_ language: LanguageCode) -> String { StudyWords.inRoom(room, language) }
    func seats(_ language: LanguageCode) -> String { NoticeWords.seats(occupied: occupied, capacity: capacity, language) }
    var startInstant: Date? { DateOnly.instant(start, in: KOSService.zone) }
    var endInstant: Date? { end.flatMap { DateOnly.instant($0, in: KOSService.zone) } }

    static let members = ResultMembers<Self>(
        .field("id", \.id),
        .field("course", \.course, "the course code"),
        .field("start", \.start, .pragueTime),
        .field("end", \.end, .pragueTime),
        .field("room", \.room),
        .field("capacity", \.capacity),
        .field("occupied", \.occupied),
        .field("full", \.full),
        .field("kind", \.kind),
        .field("examiners", \.examiners),
        .field("signin_deadline", \.signinDeadline),
        .field("cancel_deadline", \.cancelDeadline),
        .field("registered", \.registered))
}

extension JSONSchema {
    /// `YYYY-MM-DDTHH:MM`, Prague wall time, as KOSapi gives an exam's or event's time.
    static let pragueTime = JSONSchema.string.nullable.described("YYYY-MM-DDTHH:MM, Prague time")
}
