import PluginKit

/// Every notice the Stag plugin posts, declared once (the last three are posted by the kit's
/// accounts and refresh parts in the plugin's name).
enum StagTopic: String, PluginTopic {
    case examNew = "stag.exam.new"
    case gradeNew = "stag.grade.new"
    case timetableChanged = "stag.timetable.changed"
    case examTomorrow = "stag.exam.tomorrow"
    case examDeadline = "stag.exam.deadline"
    case examSeatFreed = "stag.exam.seat_freed"
    case examSignupClosing = "stag.exam.signup_closing"
    case classSoon = "stag.class.soon"
    case studentsMailed = "stag.students.mailed"
    case authExpired = "stag.auth.expired"
    case upstreamUnreachable = "stag.upstream.unreachable"
    case upstreamRecovered = "stag.upstream.recovered"

    var summary: String {
        switch self {
        case .examNew: "a new exam term for one of my subjects"
        case .gradeNew: "a new or changed grade"
        case .timetableChanged: "a room change or a cancelled class within the next 14 days"
        case .examTomorrow: "a registered exam tomorrow (at evening_at)"
        case .examDeadline: "the unregister deadline of a registered term is within 24 hours"
        case .examSeatFreed: "a watched full term has a free seat (and what auto-register did)"
        case .examSignupClosing: "registration for a term with free seats closes within signup_warning_h, and no term of its subject is mine"
        case .classSoon: "a class begins in class_reminder_min minutes (off unless set)"
        case .studentsMailed: "the message stag.students.mail sent to a class's students (in Bcc)"
        case .authExpired: "STAG refused an account's ticket: log in again"
        case .upstreamUnreachable: "STAG cannot be reached (cached data is served, marked stale)"
        case .upstreamRecovered: "STAG answers again"
        }
    }

    var severity: Severity {
        switch self {
        case .examDeadline, .authExpired, .upstreamUnreachable, .timetableChanged: .warning
        default: .info
        }
    }
}
