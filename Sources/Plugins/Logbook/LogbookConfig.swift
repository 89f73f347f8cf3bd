import PluginKit

/// The logbook's configuration, declared once with its defaults.
@dynamicMemberLookup
struct LogbookConfig: PluginOptions {
    let reminderDays = ConfigKey<[Int64]>(
        "reminder_days", .array(of: .integer(min: 1, max: 365)), default: [30, 14, 7, 1], help: "days before an expiry at which to notify")
    let limitWarningPercent = ConfigKey<Int64>(
        "limit_warning_percent", .integer(min: 1, max: 100), default: 90, help: "notify when a flight or duty time limit reaches this share")
    let pdfRowsPerPage = ConfigKey<Int64>(
        "pdf_rows_per_page", .integer(min: 5, max: 40), default: 14, help: "lines per PDF logbook page")
}
