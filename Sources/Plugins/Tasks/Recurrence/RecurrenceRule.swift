import CICal
import Foundation
import PluginKit

/// An RRULE, checked part by part, expanded by libical.
///
/// Why libical: it is the iCalendar engine behind Evolution, it implements every RFC 5545 part
/// the contract lists (BYSETPOS, BYWEEKNO, negative BYMONTHDAY, WKST), and it is packaged by
/// Debian. Foundation's `Calendar.RecurrenceRule` has no RRULE parser and gets BYSETPOS wrong on
/// Linux (the issue measured it). libical runs on wall-clock times here; this type turns an
/// UTC `UNTIL` into the task's wall clock first, because libical compares a floating start with
/// an UTC `UNTIL` field by field and would be off by the zone offset.
struct RecurrenceRule: Sendable, Hashable {
    let text: String

    private static let known: Set<String> = [
        "FREQ", "INTERVAL", "COUNT", "UNTIL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY", "BYYEARDAY",
        "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST",
    ]
    private static let weekdays: Set<String> = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Checks every part and names the first bad one (libical only says "malformed").
    init(_ raw: String, param: String = "rrule") throws(RPCError) {
        var text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.uppercased().hasPrefix("RRULE:") { text = String(text.dropFirst(6)) }
        guard !text.isEmpty else { throw RPCError.invalidParam(param, "is empty") }
        var seen: [String: String] = [:]
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2, !pieces[1].isEmpty else {
                throw RPCError.invalidParam(param, "part '\(part)' is not NAME=VALUE")
            }
            let name = pieces[0].uppercased()
            let value = pieces[1].uppercased()
            guard Self.known.contains(name) else { throw RPCError.invalidParam(param, "has an unknown part '\(pieces[0])'") }
            guard seen[name] == nil else { throw RPCError.invalidParam(param, "gives \(name) twice") }
            if let problem = Self.problem(name: name, value: value) {
                throw RPCError.invalidParam(param, "part \(name)=\(pieces[1]): \(problem)")
            }
            seen[name] = value
        }
        guard let freq = seen["FREQ"] else { throw RPCError.invalidParam(param, "has no FREQ part") }
        // Nothing a person keeps repeats more often than once a minute, and a year of a rule that
        // does is tens of millions of occurrences: refused here, so neither a feed nor an import
        // can bring one in.
        if freq == "SECONDLY", Int(seen["INTERVAL"] ?? "1") ?? 1 < 60 {
            throw RPCError.invalidParam(param, "repeats more often than once a minute (FREQ=SECONDLY); the shortest repeat is every minute")
        }
        if let seconds = seen["BYSECOND"], seconds.contains(",") {
            throw RPCError.invalidParam(param, "part BYSECOND=\(seconds) repeats more often than once a minute; the shortest repeat is every minute")
        }
        if seen["COUNT"] != nil && seen["UNTIL"] != nil {
            throw RPCError.invalidParam(param, "gives both COUNT and UNTIL; RFC 5545 allows one")
        }
        if seen["BYWEEKNO"] != nil && freq != "YEARLY" {
            throw RPCError.invalidParam(param, "part BYWEEKNO is only allowed with FREQ=YEARLY")
        }
        if seen["BYYEARDAY"] != nil && ["DAILY", "WEEKLY", "MONTHLY"].contains(freq) {
            throw RPCError.invalidParam(param, "part BYYEARDAY is not allowed with FREQ=\(freq)")
        }
        if seen["BYMONTHDAY"] != nil && freq == "WEEKLY" {
            throw RPCError.invalidParam(param, "part BYMONTHDAY is not allowed with FREQ=WEEKLY")
        }
        if let byday = seen["BYDAY"], byday.contains(where: { $0.isNumber }), !["MONTHLY", "YEARLY"].contains(freq) {
            throw RPCError.invalidParam(param, "part BYDAY=\(byday): an ordinal weekday needs FREQ=MONTHLY or YEARLY")
        }
        if let byday = seen["BYDAY"], byday.contains(where: { $0.isNumber }), freq == "YEARLY", seen["BYWEEKNO"] != nil {
            throw RPCError.invalidParam(param, "part BYDAY=\(byday): an ordinal weekday is not allowed with BYWEEKNO")
        }
        if seen["BYSETPOS"] != nil && seen.keys.filter({ $0.hasPrefix("BY") && $0 != "BYSETPOS" }).isEmpty {
            throw RPCError.invalidParam(param, "part BYSETPOS needs another BYxxx part")
        }
        let normalized = text.uppercased()
        let parsed = normalized.withCString { icalrecurrencetype_from_string($0) }
        guard parsed.freq != ICAL_NO_RECURRENCE else { throw RPCError.invalidParam(param, "is not a valid RRULE") }
        self.text = normalized
    }

    private static func problem(name: String, value: String) -> String? {
        func integers(_ range: ClosedRange<Int>, signed: Bool) -> String? {
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let n = Int(item), range.contains(abs(n)), signed || n >= 0, n != 0 || range.lowerBound == 0 else {
                    return "'\(item)' is not \(signed ? "±" : "")\(range.lowerBound)…\(range.upperBound)"
                }
            }
            return nil
        }
        switch name {
        case "FREQ":
            return ["DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY", "MINUTELY", "SECONDLY"].contains(value)
                ? nil : "must be DAILY, WEEKLY, MONTHLY or YEARLY"
        case "INTERVAL": return Int(value).map { $0 >= 1 && $0 <= 10_000 } == true ? nil : "must be a positive integer"
        case "COUNT": return Int(value).map { $0 >= 1 && $0 <= 100_000 } == true ? nil : "must be a positive integer"
        case "UNTIL":
            let body = value.hasSuffix("Z") ? String(value.dropLast()) : value
            return WallTime(body) == nil ? "must be YYYYMMDD or YYYYMMDDTHHMMSSZ" : nil
        case "BYSECOND": return integers(0...60, signed: false)
        case "BYMINUTE": return integers(0...59, signed: false)
        case "BYHOUR": return integers(0...23, signed: false)
        case "BYMONTHDAY": return integers(1...31, signed: true)
        case "BYYEARDAY": return integers(1...366, signed: true)
        case "BYWEEKNO": return integers(1...53, signed: true)
        case "BYMONTH": return integers(1...12, signed: false)
        case "BYSETPOS": return integers(1...366, signed: true)
        case "WKST": return weekdays.contains(value) ? nil : "must be MO, TU, WE, TH, FR, SA or SU"
        case "BYDAY":
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                let day = String(item.suffix(2))
                let ordinal = item.dropLast(2)
                guard weekdays.contains(day) else { return "'\(item)' does not end in a weekday (MO…SU)" }
                if !ordinal.isEmpty {
                    guard let n = Int(ordinal.hasPrefix("+") ? ordinal.dropFirst() : ordinal), (1...53).contains(abs(n)) else {
                        return "'\(item)' has a bad ordinal"
                    }
                }
            }
            return nil
        default: return nil
        }
    }

    /// A rule already checked (as stored, or built here from a checked one).
    init(trusted text: String) { self.text = text }

    var hasCount: Bool { text.contains("COUNT=") }

    /// The value of one part, as written.
    func part(_ name: String) -> String? {
        for piece in text.split(separator: ";") where piece.hasPrefix(name + "=") { return String(piece.dropFirst(name.count + 1)) }
        return nil
    }

    /// The rule with one part replaced (nil removes it).
    func replacing(_ name: String, with value: String?) -> String {
        var pieces = text.split(separator: ";").map(String.init).filter { !$0.hasPrefix(name + "=") }
        if let value { pieces.append("\(name)=\(value)") }
        return pieces.joined(separator: ";")
    }

    /// Wall-clock occurrences from `anchor` (always the first, as RFC 5545 says), in order, until
    /// one reaches `before` or `limit` were produced.
    /// Occurrences before `from` are stepped over without being kept (they do not count toward
    /// `limit`), so "the next one after now" of a series that began years ago stays cheap.
    func occurrences(anchor: WallTime, zone: Zone, before: WallTime? = nil, from: WallTime? = nil, limit: Int = 100_000) -> [WallTime] {
        expansion(anchor: anchor, zone: zone, before: before, from: from, limit: limit).instances
    }

    /// A wall time as libical's time type (a date when the series is all-day).
    static func icalTime(_ wall: WallTime, isDate: Bool) -> icaltimetype {
        var t = icaltime_null_time()
        t.year = Int32(wall.year)
        t.month = Int32(wall.month)
        t.day = Int32(wall.day)
        t.hour = Int32(wall.hour)
        t.minute = Int32(wall.minute)
        t.second = Int32(wall.second)
        t.is_date = isDate ? 1 : 0
        return t
    }

    /// Whether DTSTART is one of the rule's own matches. When it is not, readers differ (see
    /// `SeriesInstances`), and the export writes the set so that they cannot (`ICSWriter`).
    func startIsOnRule(anchor: WallTime, zone: Zone) -> Bool {
        // Without COUNT and UNTIL, the expansion looks at the rule's first matches however short the series.
        let open = RecurrenceRule(trusted: RecurrenceRule(trusted: replacing("COUNT", with: nil)).replacing("UNTIL", with: nil))
        return open.expansion(anchor: anchor, zone: zone, before: nil, from: nil, limit: 2).startIsAMatch
    }

    func expansion(anchor: WallTime, zone: Zone, before: WallTime?, from: WallTime?, limit: Int) -> (instances: [WallTime], startIsAMatch: Bool) {
        var rule = LibicalWorkarounds.normalize(self, anchor: anchor)
        if let until = part("UNTIL") {
            // UNTIL as the series' own wall clock: UTC → zone, a date for a date-time series → end of that day.
            let utc = until.hasSuffix("Z")
            let body = utc ? String(until.dropLast()) : until
            if var wall = WallTime(body) {
                if utc && !anchor.isDate {
                    wall = zone.wall(Zone.utc.instant(wall))
                } else if utc && anchor.isDate {
                    wall = zone.wall(Zone.utc.instant(wall)).asDate
                } else if wall.isDate && !anchor.isDate {
                    wall = WallTime(year: wall.year, month: wall.month, day: wall.day, hour: 23, minute: 59, second: 59)
                }
                rule = RecurrenceRule(trusted: rule).replacing("UNTIL", with: wall.icalText)
            }
        }
        func keep(_ all: [WallTime]) -> [WallTime] { Array(all.filter { from == nil || $0 >= from! }.prefix(limit)) }
        let wide = from == nil ? limit : 1_000_000
        if part("FREQ") == "WEEKLY", let wkst = part("WKST"), wkst != "MO", part("BYDAY")?.contains(",") == true {
            let grid = WeeklyExpansion(rule: RecurrenceRule(trusted: rule), anchor: anchor).expansion(before: before, limit: wide)
            return (keep(grid.instances), grid.startIsAMatch)
        }
        if part("BYWEEKNO") != nil {
            let grid = WeekNumberExpansion(rule: RecurrenceRule(trusted: rule), anchor: anchor).expansion(before: before, limit: wide)
            return (keep(grid.instances), grid.startIsAMatch)
        }
        let recurrence = rule.withCString { icalrecurrencetype_from_string($0) }
        let start = Self.icalTime(anchor, isDate: anchor.isDate)
        guard let iterator = icalrecur_iterator_new(recurrence, start) else { return ([anchor], false) }
        defer { icalrecur_iterator_free(iterator) }
        var result: [WallTime] = []
        // libical starts with the rule's first match; DTSTART is instance 1 whether or not it is
        // one, and COUNT counts it (SeriesInstances, shared with DayGrid).
        var instances = SeriesInstances(anchor: anchor, count: part("COUNT").flatMap(Int.init))
        let first = instances.first()
        if from == nil || first >= from! { result.append(first) }
        // Each libical step is ICU calendar arithmetic: jump to the window instead of walking from
        // DTSTART (libical allows this only without COUNT, which must count from the start).
        if let from, from > anchor, !hasCount {
            let jump = Self.icalTime(from, isDate: anchor.isDate)
            _ = icalrecur_iterator_set_start(iterator, jump)
        }
        var steps = 0
        while result.count < limit && steps < 10_000_000 && !instances.isComplete {
            steps += 1
            let t = icalrecur_iterator_next(iterator)
            if icaltime_is_null_time(t) != 0 { break }
            var wall = WallTime(
                year: Int(t.year), month: Int(t.month), day: Int(t.day), hour: Int(t.hour),
                minute: Int(t.minute), second: Int(t.second), isDate: anchor.isDate)
            if anchor.isDate { wall = wall.asDate }
            if let before, wall >= before { break }
            guard let instance = instances.admit(wall) else { continue }
            if from == nil || instance >= from! { result.append(instance) }
        }
        return (result, instances.startIsAMatch)
    }
}
