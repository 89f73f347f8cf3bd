import PluginKit

/// Every notice the logbook posts, declared once.
enum LogbookTopic: String, PluginTopic {
    case certificateExpiring = "logbook.certificate.expiring"
    case currencyExpiring = "logbook.currency.expiring"
    case limitApproaching = "logbook.limit.approaching"
    case ratingRevalidation = "logbook.rating.revalidation"
    case report = "logbook.report"

    var summary: String {
        switch self {
        case .certificateExpiring: "a medical or other certificate expires within 30/14/7/1 days"
        case .currencyExpiring: "passenger, night or LAPL recency lapses within 30/14/7/1 days"
        case .limitApproaching: "flight or duty time reached 90% of an ORO.FTL.210 limit"
        case .ratingRevalidation: "a class rating expires within 90 or 30 days and the logbook does not yet revalidate it (FCL.740.A)"
        case .report: "a logbook PDF mailed with logbook.report.mail"
        }
    }

    var severity: Severity { self == .report ? .info : .warning }
}
