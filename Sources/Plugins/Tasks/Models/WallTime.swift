import Foundation
import NIOConcurrencyHelpers
import PluginKit

/// A wall-clock reading (what a calendar shows), or a whole day when `isDate`. Recurrence is
/// computed on these, so 09:00 stays 09:00 across daylight-saving changes; an instant is only
/// derived at the end, in the task's time zone.
struct WallTime: Hashable, Comparable, Sendable {
    var year: Int, month: Int, day: Int
    var hour = 0, minute = 0, second = 0
    var isDate = false

    /// "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SS": sortable text, as stored.
    var text: String { format(dateSeparator: UInt8(ascii: "-"), timeSeparator: UInt8(ascii: ":")) }

    /// `text` with a `Z`: this wall reading taken as UTC.
    var utcText: String { format(dateSeparator: UInt8(ascii: "-"), timeSeparator: UInt8(ascii: ":"), suffix: UInt8(ascii: "Z")) }

    /// iCalendar's basic form: "YYYYMMDD" or "YYYYMMDDTHHMMSS".
    var icalText: String { format(dateSeparator: nil, timeSeparator: nil) }

    /// Digits written by hand straight into the string: `String(format:)` goes through
    /// CoreFoundation on Linux and was a measurable share of an agenda of thousands of occurrences.
    private func format(dateSeparator: UInt8?, timeSeparator: UInt8?, suffix: UInt8? = nil) -> String {
        String(unsafeUninitializedCapacity: 21) { bytes in
            var count = 0
            func digits(_ value: Int, _ width: Int) {
                var v = value
                for i in stride(from: width - 1, through: 0, by: -1) {
                    bytes[count + i] = UInt8(48 + v % 10)
                    v /= 10
                }
                count += width
            }
            func byte(_ b: UInt8?) {
                guard let b else { return }
                bytes[count] = b
                count += 1
            }
            digits(year, 4)
            byte(dateSeparator)
            digits(month, 2)
            byte(dateSeparator)
            digits(day, 2)
            if !isDate {
                byte(UInt8(ascii: "T"))
                digits(hour, 2)
                byte(timeSeparator)
                digits(minute, 2)
                byte(timeSeparator)
                digits(second, 2)
            }
            byte(suffix)
            return count
        }
    }

    var asDate: WallTime { WallTime(year: year, month: month, day: day, isDate: true) }

    static func < (a: WallTime, b: WallTime) -> Bool {
        (a.year, a.month, a.day, a.hour, a.minute, a.second) < (b.year, b.month, b.day, b.hour, b.minute, b.second)
    }

    /// Seconds since 1970-01-01T00:00:00 on the wall clock (no zone): for wall-clock arithmetic.
    var wallSeconds: Int64 {
        Int64(Self.daysFromCivil(year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, isDate: Bool = false) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.isDate) =
            (year, month, day, hour, minute, second, isDate)
    }

    init(wallSeconds: Int64, isDate: Bool = false) {
        let days = Int(wallSeconds.floorDiv(86_400))
        let rest = Int(wallSeconds - Int64(days) * 86_400)
        let (y, m, d) = Self.civilFromDays(days)
        self.init(year: y, month: m, day: d, hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60, isDate: isDate)
    }

    func adding(seconds: Int64) -> WallTime { WallTime(wallSeconds: wallSeconds + seconds, isDate: isDate) }
    func adding(days: Int) -> WallTime { WallTime(wallSeconds: wallSeconds + Int64(days) * 86_400, isDate: isDate) }

    /// Parses the stored forms and iCalendar's basic forms (a trailing `Z` is not accepted here).
    init?(_ text: some StringProtocol) {
        // The stored forms, byte by byte (every row read has a few).
        let u = Array(text.utf8)
        if (u.count == 10 || (u.count == 19 && u[10] == UInt8(ascii: "T") && u[13] == 58 && u[16] == 58)) && u[4] == 45 && u[7] == 45 {
            func n(_ r: Range<Int>) -> Int? {
                var v = 0
                for i in r {
                    guard (48...57).contains(u[i]) else { return nil }
                    v = v * 10 + Int(u[i] - 48)
                }
                return v
            }
            if let y = n(0..<4), let m = n(5..<7), let d = n(8..<10) {
                if u.count == 10 {
                    self.init(year: y, month: m, day: d, isDate: true)
                } else if let h = n(11..<13), let mi = n(14..<16), let se = n(17..<19) {
                    self.init(year: y, month: m, day: d, hour: h, minute: mi, second: se)
                } else {
                    return nil
                }
                guard isValid else { return nil }
                return
            }
        }
        let digits = text.filter { $0.isASCII && $0.isNumber }
        let hasTime = text.contains("T") || text.contains(" ")
        let parts = digits.compactMap(\.wholeNumberValue)
        func number(_ range: Range<Int>) -> Int { parts[range].reduce(0) { $0 * 10 + $1 } }
        let allowed = text.allSatisfy { $0.isNumber || $0 == "-" || $0 == ":" || $0 == "T" || $0 == " " }
        guard allowed else { return nil }
        switch (parts.count, hasTime) {
        case (8, false): self.init(year: number(0..<4), month: number(4..<6), day: number(6..<8), isDate: true)
        case (12, true): self.init(year: number(0..<4), month: number(4..<6), day: number(6..<8), hour: number(8..<10), minute: number(10..<12))
        case (14, true):
            self.init(
                year: number(0..<4), month: number(4..<6), day: number(6..<8), hour: number(8..<10),
                minute: number(10..<12), second: number(12..<14))
        default: return nil
        }
        guard isValid else { return nil }
    }

    var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month) && (1...Self.daysIn(month: month, year: year)).contains(day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysFromCivil(_ y: Int, _ m: Int, _ d: Int) -> Int { CivilDate.days(year: y, month: m, day: d) }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) { CivilDate.civil(days: days) }
}

extension Int64 {
    fileprivate func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}

/// Wall clock ⇄ instant in one IANA zone, by RFC 5545 §3.3.5: a time inside a spring-forward gap
/// uses the offset from before the gap; a time that occurs twice is the first one.
struct Zone: Sendable, Hashable {
    let timeZone: TimeZone
    private let offsets: ZoneOffsets
    var identifier: String { timeZone.identifier }

    init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
        offsets = ZoneOffsets.shared(timeZone)
    }

    init?(identifier: String) {
        // Foundation accepts abbreviations ("CET", "EST") and GMT offsets; a task's zone must be a
        // real IANA id so other calendars can read its TZID.
        guard identifier.utf8.contains(UInt8(ascii: "/")) || identifier == "UTC" else { return nil }
        // Every task names its zone; making a TimeZone (ICU) per use was most of a list's time.
        guard let known = ZoneOffsets.zone(identifier) else { return nil }
        self = known
    }

    static let utc = Zone(identifier: "UTC")!

    static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier }
    func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    func offset(at seconds: Int64) -> Int64 { offsets.offset(at: seconds) }

    func instant(_ wall: WallTime) -> Date {
        let naive = wall.wallSeconds
        let before = offset(at: naive - 86_400)
        let after = offset(at: naive + 86_400)
        for candidate in [before, after] where offset(at: naive - candidate) == candidate {
            return Date(timeIntervalSince1970: TimeInterval(naive - candidate))
        }
        return Date(timeIntervalSince1970: TimeInterval(naive - before))
    }

    func wall(_ instant: Date, isDate: Bool = false) -> WallTime {
        let utc = Int64(instant.timeIntervalSince1970.rounded(.down))
        let w = WallTime(wallSeconds: utc + offset(at: utc))
        return isDate ? w.asDate : w
    }
}

/// A zone's UTC offsets as a sorted table of transitions, read once from Foundation (ICU), then
/// looked up by binary search: `TimeZone.secondsFromGMT(for:)` goes through an ICU calendar on
/// every call and dominated a month's agenda (measured with perf in tasks-bench).
final class ZoneOffsets: Sendable {
    private let starts: [Int64]
    private let values: [Int64]
    private let first: Int64
    private let timeZone: TimeZone
    /// The table covers 1900…2200; outside it Foundation answers.
    private static let low: Int64 = -2_208_988_800, high: Int64 = 7_258_118_400

    /// Zones by IANA id (nil: not a zone) and offset tables by id, each made once.
    private static let cache = NIOLockedValueBox<(zones: [String: Zone?], tables: [String: ZoneOffsets])>(([:], [:]))

    /// The zone for an IANA id, made once.
    static func zone(_ identifier: String) -> Zone? {
        if let cached = cache.withLockedValue({ $0.zones[identifier] }) { return cached }
        // Made outside the lock: Zone.init takes it again for the offset table.
        let made = TimeZone(identifier: identifier).map(Zone.init)
        cache.withLockedValue { $0.zones[identifier] = made }
        return made
    }

    static func shared(_ tz: TimeZone) -> ZoneOffsets {
        cache.withLockedValue { c in
            if let t = c.tables[tz.identifier] { return t }
            let t = ZoneOffsets(tz)
            c.tables[tz.identifier] = t
            return t
        }
    }

    private init(_ tz: TimeZone) {
        timeZone = tz
        var starts: [Int64] = []
        var values: [Int64] = []
        var t = Date(timeIntervalSince1970: TimeInterval(Self.low))
        first = Int64(tz.secondsFromGMT(for: t))
        while let next = tz.nextDaylightSavingTimeTransition(after: t), next.timeIntervalSince1970 < TimeInterval(Self.high) {
            starts.append(Int64(next.timeIntervalSince1970))
            values.append(Int64(tz.secondsFromGMT(for: next)))
            t = next
        }
        self.starts = starts
        self.values = values
    }

    func offset(at seconds: Int64) -> Int64 {
        guard seconds >= Self.low, seconds < Self.high else {
            return Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
        var lo = 0
        var hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= seconds { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? first : values[lo - 1]
    }
}

/// The contract's time input: "YYYY-MM-DD[T ]HH:MM[:SS]" (wall clock in `tz`), an ISO 8601 instant
/// with an offset or Z, or "YYYY-MM-DD" for a whole day.
enum TimeInput {
    static func parse(_ text: String, param: String, zone: Zone) throws(RPCError) -> WallTime {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let instant = instant(trimmed) { return zone.wall(instant) }
        if let wall = WallTime(trimmed), trimmed.count >= 10, trimmed.contains("-") || !trimmed.contains(where: { $0 == "T" }) {
            return wall
        }
        throw RPCError.invalidParam(
            param, "must be YYYY-MM-DD, 'YYYY-MM-DD HH:MM[:SS]' (wall clock in tz) or an ISO 8601 instant with an offset, got '\(text)'")
    }

    /// An instant with an explicit offset or `Z`, or nil.
    static func instant(_ text: String) -> Date? {
        guard text.count >= 16 else { return nil }
        let hasZone =
            text.hasSuffix("Z") || text.hasSuffix("z")
            || text.dropFirst(16).contains(where: { $0 == "+" }) || text.dropFirst(16).contains(where: { $0 == "-" })
        guard hasZone else { return nil }
        let normalized = text.replacingOccurrences(of: " ", with: "T")
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let f = ISO8601DateFormatter()
            f.formatOptions = options
            if let d = f.date(from: normalized) { return d }
        }
        // "…THH:MMZ" without seconds.
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate, .withTimeZone]
        return f.date(from: normalized)
    }

    static func utcString(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return WallTime(wallSeconds: seconds).utcText
    }
}
