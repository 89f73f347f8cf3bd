import PluginKit

/// Every notice the KOS plugin posts, declared once (the last two are posted by the kit's
/// refresh part in the plugin's name).
enum KOSTopic: String, PluginTopic {
    case examNew = "kos.exam.new"
    case eventNew = "kos.event.new"
    case resultChanged = "kos.result.changed"
    case examTomorrow = "kos.exam.tomorrow"
    case examDeadline = "kos.exam.deadline"
    case examSeatFreed = "kos.exam.seat_freed"
    case examSignupClosing = "kos.exam.signup_closing"
    case classSoon = "kos.class.soon"
    case authExpired = "kos.auth.expired"
    case upstreamUnreachable = "kos.upstream.unreachable"
    case upstreamRecovered = "kos.upstream.recovered"

    var summary: String {
        switch self {
        case .examNew: "a new exam date of one of my enrolled courses"
        case .eventNew: "a new course event (a test) of one of my courses"
        case .resultChanged: "a course became completed, or its assessment was granted"
        case .examTomorrow: "a registered exam tomorrow (at evening_at)"
        case .examDeadline: "the cancel deadline of a registered exam is within 24 hours"
        case .examSeatFreed: "a watched full exam has a free seat (register in KOS)"
        case .examSignupClosing: "sign-up for an exam with free seats closes within signup_warning_h, and no exam of its course is mine"
        case .classSoon: "a class begins in class_reminder_min minutes (off unless set)"
        case .authExpired: "the KOS login can no longer be refreshed: log in again"
        case .upstreamUnreachable: "KOSapi cannot be reached (cached data is served, marked stale)"
        case .upstreamRecovered: "KOSapi answers again"
        }
    }

    var severity: Severity {
        switch self {
        case .examDeadline, .authExpired, .upstreamUnreachable: .warning
        default: .info
        }
    }
}
