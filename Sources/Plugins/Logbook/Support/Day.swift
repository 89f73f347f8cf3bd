import Foundation
import PluginKit

/// A UTC calendar date as a day number (days since 1970-01-01).
///
/// Windows (28 days, 90 days, 12 calendar months) are reckoned on UTC dates over 100 000 flights,
/// so the arithmetic is done on integers with Howard Hinnant's civil-date algorithms instead of
/// `Calendar`, which is two orders of magnitude slower per call.
struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    let number: Int

    init(number: Int) { self.number = number }

    init(year: Int, month: Int, day: Int) { number = CivilDate.days(year: year, month: month, day: day) }

    /// Parses `YYYY-MM-DD` strictly (real calendar dates only).
    init?(_ text: some StringProtocol) {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-") else { return nil }
        func digits(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r {
                guard u[i] >= 48, u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let y = digits(0..<4), let m = digits(5..<7), let d = digits(8..<10), (1...12).contains(m), d >= 1,
            d <= Day.daysIn(year: y, month: m)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    init(_ date: Date) {
        number = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    var components: (year: Int, month: Int, day: Int) { CivilDate.civil(days: number) }

    var year: Int { components.year }
    var startDate: Date { Date(timeIntervalSince1970: Double(number) * 86_400) }

    /// `YYYY-MM-DD`, built from digits (`String(format:)` showed in import profiles).
    var description: String {
        let c = components
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 10)
        Day.digits(c.year, count: 4, into: &bytes, at: 0)
        Day.digits(c.month, count: 2, into: &bytes, at: 5)
        Day.digits(c.day, count: 2, into: &bytes, at: 8)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func digits(_ value: Int, count: Int, into bytes: inout [UInt8], at offset: Int) {
        var v = abs(value)
        for i in stride(from: offset + count - 1, through: offset, by: -1) {
            bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
    }

    func adding(days: Int) -> Day { Day(number: number + days) }

    /// Day-for-day months: the same day of the month `months` later, clamped to the month's end
    /// (31 January + 1 month = 28 or 29 February), as Part-MED counts validity.
    func adding(months: Int) -> Day {
        let c = components
        let total = c.year * 12 + (c.month - 1) + months
        let y = total >= 0 ? total / 12 : (total - 11) / 12
        let m = total - y * 12 + 1
        return Day(year: y, month: m, day: min(c.day, Day.daysIn(year: y, month: m)))
    }

    func adding(years: Int) -> Day { adding(months: years * 12) }

    /// The first day of this day's month.
    var firstOfMonth: Day {
        let c = components
        return Day(year: c.year, month: c.month, day: 1)
    }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func < (a: Day, b: Day) -> Bool { a.number < b.number }

    /// Whole years of age on `day` for someone born on `birth` (a 29 February birthday falls on
    /// 28 February in common years).
    static func age(on day: Day, bornOn birth: Day) -> Int {
        let b = birth.components
        let d = day.components
        var age = d.year - b.year
        if (d.month, d.day) < (b.month, b.day) {
            age -= 1
            if b.month == 2, b.day == 29, d.month == 2, d.day == 28, !Day.isLeap(d.year) { age += 1 }
        }
        return age
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
}

/// A day in a result is its date, `YYYY-MM-DD`.
extension Day: Encodable, ResultDescribing {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static var resultSchema: JSONSchema { .date }
}
