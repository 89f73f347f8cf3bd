import Foundation
import PluginKit

/// Query values KOSapi takes, checked before anything is sent.
enum KOSQuery {
    /// `sem`: a semester code (`B261`: century A/B, two-digit year, 1 winter / 2 summer), or
    /// `current`, `next`, `prev`, `none`. Anything else is -32602.
    static func semester(_ given: String?, default fallback: String = "current") throws(RPCError) -> String {
        guard let value = given else { return fallback }
        let lower = value.lowercased()
        if ["current", "next", "prev", "none"].contains(lower) { return lower }
        let upper = value.uppercased()
        let chars = Array(upper)
        guard chars.count == 4, chars[0] == "A" || chars[0] == "B", chars[1].isNumber, chars[2].isNumber, chars[3] == "1" || chars[3] == "2" else {
            throw KOSParams.semester.invalid("'\(value)' is not a semester: a code such as B261, or current, next, prev or none")
        }
        return upper
    }

    /// A course code (`BI-OPT`, `A4B33OPT`), upper-cased.
    static func courseCode(_ text: String, param: String) throws(RPCError) -> String {
        let code = text.uppercased()
        guard !code.isEmpty, code.count <= 20, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw RPCError.invalidParam(param, "'\(text)' is not a course code such as BI-OPT")
        }
        return code
    }

    /// An RSQL argument, quoted: KOSapi's grammar takes `'…'` or `"…"`; the quote not in the
    /// value is chosen (a name with an apostrophe goes in double quotes), and a value with both
    /// has its double quotes dropped to a search wildcard `_`.
    static func quoted(_ value: String) -> String {
        if !value.contains("'") { return "'\(value)'" }
        if !value.contains("\"") { return "\"\(value)\"" }
        return "'\(value.replacingOccurrences(of: "'", with: "_"))'"
    }

    /// The last path segment of a reference (`courses/A4B33OPT/` → `A4B33OPT`).
    static func code(fromHref href: String) -> String? {
        href.split(separator: "/").last.map(String.init)?.removingPercentEncoding
    }
}

/// The teaching-hour grid (reference §10): hour n's start and end; FIT's by default.
struct HourGrid: Sendable {
    var starts: [String]
    var minutes: Int

    static let fit = HourGrid(
        starts: [
            "07:30", "08:15", "09:15", "10:00", "11:00", "11:45", "12:45", "13:30", "14:30", "15:15", "16:15", "17:00", "18:00", "18:45", "19:45",
        ],
        minutes: 45)

    private init(starts: [String], minutes: Int) {
        self.starts = starts
        self.minutes = minutes
    }

    /// A configured grid: every start `HH:MM`, in order, hours not overlapping, the last ending
    /// before midnight.
    static func configured(_ starts: [String], minutes: Int) -> Result<HourGrid, RPCError> {
        func problem(_ text: String) -> Result<HourGrid, RPCError> { .failure(RPCError.invalidParam(KOSConfig.hourGrid.key, text)) }
        guard !starts.isEmpty else { return problem("is empty: give the start of each teaching hour") }
        var previous = -1
        for (index, start) in starts.enumerated() {
            guard let value = Self.minutes(start) else { return problem("hour \(index + 1)'s start '\(start)' is not HH:MM") }
            guard value >= previous + (previous < 0 ? 0 : minutes) else {
                return problem("hour \(index + 1) (\(start)) starts before hour \(index) ends")
            }
            guard value + minutes < 24 * 60 else { return problem("hour \(index + 1) (\(start)) ends after midnight") }
            previous = value
        }
        return .success(HourGrid(starts: starts, minutes: minutes))
    }

    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h),
            (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }

    func start(ofHour hour: Int) -> String? { (1...starts.count).contains(hour) ? starts[hour - 1] : nil }

    func end(ofHour hour: Int) -> String? {
        guard let start = start(ofHour: hour), let value = Self.minutes(start) else { return nil }
        let total = value + minutes
        return String(format: "%02d:%02d", total / 60, total % 60)
    }
}
