import PluginKit

/// Every notice the OctoPrint plugin posts, declared once.
enum OctoPrintTopic: String, PluginTopic {
    case printStarted = "octoprint.print.started"
    case printProgress = "octoprint.print.progress"
    case printPaused = "octoprint.print.paused"
    case printResumed = "octoprint.print.resumed"
    case printDone = "octoprint.print.done"
    case printFailed = "octoprint.print.failed"
    case printCancelled = "octoprint.print.cancelled"
    case printerError = "octoprint.printer.error"
    case printerDisconnected = "octoprint.printer.disconnected"
    case printerOffline = "octoprint.printer.offline"
    case bedCooled = "octoprint.bed.cooled"

    var summary: String {
        switch self {
        case .printStarted: "a print started"
        case .printProgress: "a print reached a milestone (progress_milestones, default 25/50/75 %)"
        case .printPaused: "a print was paused"
        case .printResumed: "a print was resumed"
        case .printDone: "a print finished (with its duration and a webcam snapshot)"
        case .printFailed: "a print failed (with a webcam snapshot)"
        case .printCancelled: "a print was cancelled"
        case .printerError: "the printer reported an error"
        case .printerDisconnected: "OctoPrint lost the printer"
        case .printerOffline: "OctoPrint has been unreachable longer than offline_after_s"
        case .bedCooled: "after a print the bed is below bed_cooled_below"
        }
    }

    var severity: Severity {
        switch self {
        case .printerError, .printFailed: .error
        case .printCancelled, .printerDisconnected, .printerOffline: .warning
        default: .info
        }
    }
}
