import Foundation

/// `today` as a person reads a day: the date, then each item on one line (its time, what, where,
/// and the plugin it comes from), overdue tasks first, exams of the coming days with their day,
/// warnings last, and the plugins that could not be read.
public enum DayView {
    public static func render(_ day: JSONValue, timeZone fallback: TimeZone? = nil) -> String {
        let zone = day["time_zone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? fallback ?? .current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = day["date"]?.stringValue ?? "?"
        // The teaching week by each study system: "Monday 6 October 2025 · KOS: teaching week 3 (odd)".
        let weeks = (day["weeks"]?.arrayValue ?? []).compactMap { week -> String? in
            guard let plugin = week["plugin"]?.stringValue, let number = week["teaching_week"]?.intValue else { return nil }
            return "\(plugin.uppercased()): teaching week \(number)" + (week["parity"]?.stringValue.map { " (\($0))" } ?? "")
        }
        var lines = [([heading(date, calendar: calendar)] + weeks).joined(separator: " · ")]
        let items = day["items"]?.arrayValue ?? []
        let timed = items.filter { $0["start"] != .null && $0["start"] != nil }
        let warnings = items.filter { $0["start"] == .null || $0["start"] == nil }
        if items.isEmpty { lines.append("  Nothing planned.") }
        let rows = timed.map { item -> [String] in
            [when(item, date: date, calendar: calendar), text(item), item["place"]?.stringValue ?? "", item["plugin"]?.stringValue ?? ""]
        }
        lines += table(rows)
        for warning in warnings {
            let detail = warning["detail"]?.stringValue.map { ": \($0)" } ?? ""
            lines.append("  ! \(warning["title"]?.stringValue ?? "")\(detail)  (\(warning["plugin"]?.stringValue ?? ""))")
        }
        for problem in day["problems"]?.arrayValue ?? [] {
            lines.append("  ? \(problem["plugin"]?.stringValue ?? "?") could not be read: \(problem["message"]?.stringValue ?? "")")
        }
        return lines.joined(separator: "\n")
    }

    /// "Thursday 26 November 2026".
    static func heading(_ date: String, calendar: Calendar) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)) else {
            return date
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "EEEE d MMMM yyyy"
        return formatter.string(from: day)
    }

    /// "09:20–11:00", "overdue Tue 24 Nov", "all day", "Fri 27 Nov 09:00" for a later day.
    static func when(_ item: JSONValue, date: String, calendar: Calendar) -> String {
        guard let start = item["start"]?.stringValue.flatMap(instant) else { return "" }
        let allDay = item["all_day"] == true
        let sameDay = dayText(start, calendar: calendar) == date
        let clock =
            allDay
            ? "all day" : hm(start, calendar: calendar) + (item["end"]?.stringValue.flatMap(instant).map { "–" + hm($0, calendar: calendar) } ?? "")
        if item["overdue"] == true, !sameDay { return "overdue since \(shortDay(start, calendar: calendar))" }
        if item["kind"] == "print" { return "done ~\(hm(start, calendar: calendar))" + (sameDay ? "" : " " + shortDay(start, calendar: calendar)) }
        return sameDay
            ? clock : "\(shortDay(start, calendar: calendar)) \(allDay ? "" : hm(start, calendar: calendar))".trimmingCharacters(in: .whitespaces)
    }

    static func text(_ item: JSONValue) -> String {
        let title = item["title"]?.stringValue ?? ""
        let prefix: String =
            switch item["kind"]?.stringValue {
            case "exam": "Exam: "
            case "task": item["overdue"] == true ? "[ ] ! " : "[ ] "
            default: ""
            }
        let detail = item["kind"] == "print" ? item["detail"]?.stringValue.map { " (\($0))" } ?? "" : ""
        let account = item["account"]?.stringValue.map { " [\($0)]" } ?? ""
        return prefix + title + detail + account
    }

    /// Columns padded to their widest cell; the last column is not padded.
    static func table(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            "  "
                + row.enumerated().map { c, cell in c == columns - 1 ? cell : cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
    }

    static func instant(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }

    static func hm(_ date: Date, calendar: Calendar) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    static func dayText(_ date: Date, calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// "Tue 24 Nov".
    static func shortDay(_ date: Date, calendar: Calendar) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "EEE d MMM"
        return formatter.string(from: date)
    }
}
