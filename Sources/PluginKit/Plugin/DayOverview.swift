import Foundation

/// The day the host's `today` asks about, in the daemon's time zone.
public struct DayQuery: Sendable {
    public var date: DateOnly
    public var zone: TimeZone
    /// The day's first instant, and the next day's.
    public var start: Date
    public var end: Date
    public var now: Date
    /// Exams are shown from the day's start this many days ahead.
    public var examDays: Int

    public init(date: DateOnly, zone: TimeZone, now: Date, examDays: Int = 7) {
        self.date = date
        self.zone = zone
        self.now = now
        self.examDays = examDays
        start = date.at("00:00", in: zone) ?? now
        end = date.adding(days: 1).at("00:00", in: zone) ?? now
    }

    /// How old a cached upstream answer may be and still make a day without asking again: the
    /// overview is asked often (a status bar, an assistant), a timetable changes seldom.
    public static let cacheAge: Duration = .seconds(15 * 60)

    /// The end of the exam window: `examDays` after the day's start.
    public var examsUntil: Date { date.adding(days: examDays).at("00:00", in: zone) ?? end }
}

/// One entry of a day's overview (`today`): a task, an event, a class, an exam, a running print,
/// or a warning (currency, medical).
public struct DayItem: StoredResultObject, JSONModel, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable, ResultDescribing {
        case task, event, `class`, exam, print, warning
    }

    public var kind: Kind
    /// Set by the host from the contributing plugin.
    public var plugin: String
    public var title: String
    /// When it begins (a task: when it is due; a print: its estimated finish); nil when it has
    /// no time (a warning).
    public var start: Date?
    public var end: Date?
    /// A whole-day item: `start` is the day's first instant.
    public var allDay: Bool
    public var place: String?
    public var detail: String?
    public var account: String?
    /// A task past its due, a warning that has come due.
    public var overdue: Bool
    /// The item's id in its plugin, for `completes`.
    public var id: String?
    /// The method that marks it done, called with `id` (a to-do's `tasks.complete`): a page
    /// offers it as a button without knowing the plugin.
    public var completes: String?

    public init(
        kind: Kind, title: String, start: Date? = nil, end: Date? = nil, allDay: Bool = false, place: String? = nil, detail: String? = nil,
        account: String? = nil, overdue: Bool = false
    ) {
        self.kind = kind
        plugin = ""
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.place = place
        self.detail = detail
        self.account = account
        self.overdue = overdue
    }

    /// Empty, to be read back into (`StoredResultObject`).
    public init() { self.init(kind: .task, title: "") }

    public static let members = ResultMembers<Self>(
        .field("kind", \.kind), .field("plugin", \.plugin), .field("title", \.title),
        .instant("start", \.start, "when it begins; a task: when it is due; a print: its estimated finish"),
        .instant("end", \.end), .field("all_day", \.allDay), .field("place", \.place), .field("detail", \.detail),
        .field("account", \.account), .field("overdue", \.overdue), .omittedWhenNil("id", \.id, "the item's id in its plugin"),
        .omittedWhenNil("completes", \.completes, "the method that marks it done, called with id"))
}

/// A plugin's part of the day. A plugin's service conforms to it to appear in `today`; a plugin
/// that is not set up contributes nothing, and one that fails is named among the problems while
/// the others are shown.
public protocol DayContributing: Sendable {
    func dayItems(_ query: DayQuery) async throws -> [DayItem]
    /// The semester's teaching week the day falls in, for a study system (nil outside teaching,
    /// and for a plugin that is no study system): which classes apply is a student's first question.
    func studyWeek(_ query: DayQuery) async throws -> StudyWeek?
}

extension DayContributing {
    public func studyWeek(_ query: DayQuery) async throws -> StudyWeek? { nil }
}

/// A day's teaching week by one study system (`today`'s `weeks`).
public struct StudyWeek: Sendable, Equatable, ResultObject {
    public enum Parity: String, Sendable, CaseIterable, Codable, ResultDescribing {
        case odd, even
    }

    /// Set by the host from the contributing plugin.
    public var plugin: String = ""
    public var semester: String
    public var number: Int
    public var parity: Parity

    public init(semester: String, number: Int, parity: Parity) { (self.semester, self.number, self.parity) = (semester, number, parity) }

    public static let members = ResultMembers<Self>(
        .field("plugin", \.plugin), .field("semester", \.semester), .field("teaching_week", \.number, "1 for the semester's first"),
        .field("parity", \.parity))
}
