import PluginKit

/// Every notice the tasks plugin posts, declared once.
enum TasksTopic: String, PluginTopic {
    case reminder = "tasks.reminder"
    case remindersMissed = "tasks.reminders.missed"
    case digest = "tasks.digest"
    case caldavAuthFailed = "tasks.caldav.auth_failed"
    case feedFailed = "tasks.feed.failed"

    var summary: String {
        switch self {
        case .reminder: "a task's reminder (its title; when, where and the notes in the body)"
        case .remindersMissed: "reminders missed while the daemon was down, older than missed_grace_h, counted"
        case .digest: "today's agenda and the overdue list (config digest, digest_at)"
        case .caldavAuthFailed: "a CalDAV server rejected an account's password"
        case .feedFailed: "an ICS feed could not be read"
        }
    }

    var severity: Severity {
        switch self {
        case .reminder, .digest: .info
        case .remindersMissed, .caldavAuthFailed, .feedFailed: .warning
        }
    }
}
