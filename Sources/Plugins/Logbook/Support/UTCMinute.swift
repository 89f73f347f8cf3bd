import Foundation

/// An instant to the minute, as minutes since 1970-01-01T00:00Z: block and takeoff times are
/// logged to the minute, and integers make night sampling and duty windows cheap.
struct UTCMinute: Hashable, Comparable, Sendable, CustomStringConvertible {
    let value: Int

    init(_ value: Int) { self.value = value }
    init(day: Day, minuteOfDay: Int) { value = day.number * 1440 + minuteOfDay }

    var day: Day { Day(number: value >= 0 ? value / 1440 : (value - 1439) / 1440) }
    var minuteOfDay: Int { value - day.number * 1440 }
    var date: Date { Date(timeIntervalSince1970: Double(value) * 60) }

    /// `2026-03-01T14:05:00Z`.
    var description: String { "\(day)T\(clock):00Z" }

    /// `HH:MM`, as printed in the logbook's time columns.
    var clock: String {
        let m = minuteOfDay
        var bytes = [UInt8](repeating: UInt8(ascii: ":"), count: 5)
        Day.digits(m / 60, count: 2, into: &bytes, at: 0)
        Day.digits(m % 60, count: 2, into: &bytes, at: 3)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func < (a: UTCMinute, b: UTCMinute) -> Bool { a.value < b.value }

    /// ISO 8601 in UTC (`…Z` or `…+00:00`), seconds optional and truncated.
    static func parseISO(_ text: String) -> UTCMinute? {
        let s = text.trimmedFast
        guard s.count >= 16 else { return nil }
        let datePart = s.prefix(10)
        let sep = s[s.index(s.startIndex, offsetBy: 10)]
        guard let day = Day(datePart), sep == "T" || sep == " " else { return nil }
        var rest = s.dropFirst(11)
        if rest.hasSuffix("Z") { rest = rest.dropLast() } else if rest.hasSuffix("+00:00") { rest = rest.dropLast(6) } else { return nil }
        guard let minute = clockMinutes(rest, allowSeconds: true) else { return nil }
        return UTCMinute(day: day, minuteOfDay: minute)
    }

    /// `HH:MM`, `HHMM` or `HH:MM:SS` → minute of the day.
    static func clockMinutes(_ text: some StringProtocol, allowSeconds: Bool = true) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var h: Int?
        var m: Int?
        if parts.count == 1, parts[0].count == 4, parts[0].allSatisfy(\.isASCIIDigitChar) {
            h = Int(parts[0].prefix(2))
            m = Int(parts[0].suffix(2))
        } else if parts.count == 2 || (allowSeconds && parts.count == 3) {
            guard parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigitChar) }), parts[1].count == 2
            else { return nil }
            h = Int(parts[0])
            m = Int(parts[1])
            if parts.count == 3, let sec = Int(parts[2]), sec >= 60 { return nil }
        }
        guard let h, let m, h < 24, m < 60 else { return nil }
        return h * 60 + m
    }
}
