/// An RFC 5545 recurrence rule as a person says it: `FREQ=WEEKLY;BYDAY=MO` is "every Monday",
/// `FREQ=MONTHLY;BYDAY=-1FR;COUNT=6` is "monthly on the last Friday, 6 times".
///
/// Written here because libical, which expands the rules, has no words for them (rrule.js's
/// `toText` is the one known library, and it is JavaScript). It says only the common shapes
/// calendars write; a rule with any other part (`BYSETPOS`, `BYHOUR`, `BYWEEKNO`, …) gives nil and
/// is shown as written, never said wrongly.
public enum RuleSpeech {
    public static func spoken(_ rule: String) -> String? {
        var parts: [String: String] = [:]
        for part in rule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, parts[pair[0].uppercased()] == nil else { return nil }
            parts[pair[0].uppercased()] = pair[1].uppercased()
        }
        guard let frequency = parts.removeValue(forKey: "FREQ") else { return nil }
        parts["WKST"] = nil
        let interval = parts.removeValue(forKey: "INTERVAL").map { Int($0) } ?? 1
        guard let interval, interval >= 1 else { return nil }
        let days = parts.removeValue(forKey: "BYDAY").map { $0.split(separator: ",").map(weekday) } ?? []
        guard !days.contains(where: { $0 == nil }) else { return nil }
        let monthDays = parts.removeValue(forKey: "BYMONTHDAY").map { $0.split(separator: ",").map { Int($0) } } ?? []
        guard !monthDays.contains(where: { $0 == nil || $0! == 0 || abs($0!) > 31 }) else { return nil }
        let months = parts.removeValue(forKey: "BYMONTH").map { $0.split(separator: ",").map { Int($0) } } ?? []
        guard !months.contains(where: { $0 == nil || !(1...12).contains($0!) }) else { return nil }
        var ending = ""
        if let times = parts.removeValue(forKey: "COUNT") {
            guard let said = count(times) else { return nil }
            ending = ", " + said
        } else if let last = parts.removeValue(forKey: "UNTIL") {
            guard let said = until(last) else { return nil }
            ending = ", " + said
        }
        guard parts.isEmpty,
            let said = repetition(frequency, interval, days.compactMap { $0 }, monthDays.compactMap { $0 }, months.compactMap { $0 })
        else { return nil }
        return said + ending
    }

    static let dayNames = ["MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday", "FR": "Friday", "SA": "Saturday", "SU": "Sunday"]
    static let week = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `MO`, `2TU`, `-1FR` as its day and its place in the month (0 for every one).
    static func weekday(_ text: Substring) -> (day: String, ordinal: Int)? {
        let day = String(text.suffix(2))
        guard dayNames[day] != nil else { return nil }
        let number = text.dropLast(2)
        if number.isEmpty { return (day, 0) }
        guard let ordinal = Int(number), ordinal != 0, abs(ordinal) <= 5 else { return nil }
        return (day, ordinal)
    }

    static func repetition(_ frequency: String, _ interval: Int, _ days: [(day: String, ordinal: Int)], _ monthDays: [Int], _ months: [Int])
        -> String?
    {
        let plain = days.allSatisfy { $0.ordinal == 0 }
        switch frequency {
        case "DAILY" where monthDays.isEmpty && months.isEmpty && plain:
            if days.isEmpty { return interval == 1 ? "daily" : "every \(interval) days" }
            return interval == 1 ? "every " + weekdays(days.map(\.day)) : nil
        case "WEEKLY" where monthDays.isEmpty && months.isEmpty && plain:
            let on = days.isEmpty ? nil : weekdays(days.map(\.day))
            if interval == 1 { return on.map { "every " + $0 } ?? "weekly" }
            return "every \(interval) weeks" + (on.map { " on " + $0 } ?? "")
        case "MONTHLY" where months.isEmpty && (days.isEmpty || monthDays.isEmpty):
            let every = interval == 1 ? "monthly" : "every \(interval) months"
            if !monthDays.isEmpty { return every + " on the " + joined(monthDays.map(dayOfMonth)) }
            if days.isEmpty { return every }
            guard days.allSatisfy({ $0.ordinal != 0 }) else { return nil }
            return every + " on the " + joined(days.map { ordinal($0.ordinal) + " " + dayNames[$0.day]! })
        case "YEARLY" where days.isEmpty && monthDays.count <= 1 && months.count <= 1:
            let every = interval == 1 ? "yearly" : "every \(interval) years"
            guard let month = months.first else { return monthDays.isEmpty ? every : nil }
            guard let day = monthDays.first else { return every + " in " + monthNames[month - 1] }
            return day > 0 ? every + " on \(day) \(monthNames[month - 1])" : nil
        default:
            return nil
        }
    }

    /// "Monday", "Mon and Wed", "weekday" for Monday to Friday.
    static func weekdays(_ days: [String]) -> String {
        let ordered = week.filter(days.contains)
        if ordered == Array(week.prefix(5)) { return "weekday" }
        if ordered.count == 1 { return dayNames[ordered[0]]! }
        return joined(ordered.map { String(dayNames[$0]!.prefix(3)) })
    }

    static func dayOfMonth(_ day: Int) -> String { day == -1 ? "last day" : day < 0 ? "\(-day)\(suffix(-day)) last day" : "\(day)\(suffix(day))" }

    static func suffix(_ number: Int) -> String {
        if (11...13).contains(number % 100) { return "th" }
        return [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
    }

    static func ordinal(_ number: Int) -> String {
        number == -1 ? "last" : number < 0 ? "\(-number)\(suffix(-number)) last" : ["first", "second", "third", "fourth", "fifth"][number - 1]
    }

    static func joined(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    static func count(_ text: String) -> String? {
        guard let times = Int(text), times > 0 else { return nil }
        return times == 1 ? "once" : "\(times) times"
    }

    /// `UNTIL=20350601` or `20350601T000000Z` as "until Fri 1 Jun 2035".
    static func until(_ text: String) -> String? {
        let digits = text.prefix(8)
        guard digits.count == 8, digits.allSatisfy(\.isNumber),
            let day = CivilDate.days(iso: "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))")
        else { return nil }
        return "until " + CivilDate.spoken(days: day)
    }
}
