/// Rules rewritten into an equivalent form before libical 3.0.16 sees them, for bugs the
/// python-dateutil oracle found (Tests/TasksTests/RecurrenceOracleTests.swift):
/// - a weekday given twice in BYDAY (`BYDAY=WE,SA,SA`) makes WEEKLY;INTERVAL=n step wrong weeks;
///   repeated values in any BYxxx list are dropped, which does not change the set;
/// - `FREQ=YEARLY` from 29 February stops after the first year instead of skipping to the next
///   leap year; the implicit month and day are written out (RFC 5545 §3.3.10 derives them from
///   DTSTART anyway);
/// - BYWEEKNO skips the year after a 53-week year; those rules go to `WeekNumberExpansion`;
/// - `FREQ=WEEKLY;INTERVAL=n` ignores a WKST other than Monday when it picks the weeks; those
///   rules go to `WeeklyExpansion`.
enum LibicalWorkarounds {
    static func normalize(_ rule: RecurrenceRule, anchor: WallTime) -> String {
        var pieces: [String] = []
        var names: Set<String> = []
        for piece in rule.text.split(separator: ";") {
            let kv = piece.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            names.insert(kv[0])
            if kv[0].hasPrefix("BY") {
                var seen: Set<String> = []
                let values = kv[1].split(separator: ",").map { $0.hasPrefix("+") ? String($0.dropFirst()) : String($0) }
                    .filter { seen.insert($0).inserted }
                pieces.append("\(kv[0])=\(values.joined(separator: ","))")
            } else {
                pieces.append(String(piece))
            }
        }
        if rule.part("FREQ") == "YEARLY" && !names.contains(where: { $0.hasPrefix("BY") }) {
            pieces.append("BYMONTH=\(anchor.month)")
            pieces.append("BYMONTHDAY=\(anchor.day)")
        }
        return pieces.joined(separator: ";")
    }
}

/// `FREQ=YEARLY;BYWEEKNO=…` expanded here rather than by libical (see `LibicalWorkarounds`): week 1
/// is the first week, starting on WKST, with at least four days of the year (RFC 5545 §3.3.10).
struct WeekNumberExpansion {
    let rule: RecurrenceRule
    let anchor: WallTime

    static let weekdayCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// 0 = Monday … 6 = Sunday.
    static func weekday(ofDay day: Int) -> Int { ((day % 7) + 7 + 3) % 7 }

    private func weekOneStart(_ year: Int, wkst: Int) -> Int {
        let jan4 = WallTime.daysFromCivil(year, 1, 4)
        return jan4 - ((Self.weekday(ofDay: jan4) - wkst + 7) % 7)
    }

    private func list(_ name: String) -> [Int] {
        rule.part(name)?.split(separator: ",").compactMap { Int($0) } ?? []
    }

    func occurrences(before: WallTime?, limit: Int) -> [WallTime] { expansion(before: before, limit: limit).instances }

    func expansion(before: WallTime?, limit: Int) -> (instances: [WallTime], startIsAMatch: Bool) {
        let wkst = Self.weekdayCodes.firstIndex(of: rule.part("WKST") ?? "MO") ?? 0
        let interval = Int(rule.part("INTERVAL") ?? "1") ?? 1
        let weeks = list("BYWEEKNO")
        let days = rule.part("BYDAY").map { $0.split(separator: ",").compactMap { Self.weekdayCodes.firstIndex(of: String($0.suffix(2))) } }
        let months = Set(list("BYMONTH"))
        let monthDays = list("BYMONTHDAY")
        let yearDays = list("BYYEARDAY")
        return DayGrid(rule: rule, anchor: anchor).expand(before: before, limit: limit, maxEmptyPeriods: 400) { period in
            let year = anchor.year + period * interval
            let start = weekOneStart(year, wkst: wkst)
            let weekCount = (weekOneStart(year + 1, wkst: wkst) - start) / 7
            var candidates: Set<Int> = []
            for w in weeks {
                let number = w > 0 ? w : weekCount + 1 + w
                guard (1...weekCount).contains(number) else { continue }
                for offset in 0..<7 {
                    let day = start + (number - 1) * 7 + offset
                    if let days, !days.contains(Self.weekday(ofDay: day)) { continue }
                    let (y, m, d) = WallTime.civilFromDays(day)
                    if !months.isEmpty && !months.contains(m) { continue }
                    if !monthDays.isEmpty {
                        let length = WallTime.daysIn(month: m, year: y)
                        guard monthDays.contains(where: { $0 > 0 ? $0 == d : length + 1 + $0 == d }) else { continue }
                    }
                    if !yearDays.isEmpty {
                        let ordinal = day - WallTime.daysFromCivil(y, 1, 1) + 1
                        let length = WallTime.daysFromCivil(y + 1, 1, 1) - WallTime.daysFromCivil(y, 1, 1)
                        guard yearDays.contains(where: { $0 > 0 ? $0 == ordinal : length + 1 + $0 == ordinal }) else { continue }
                    }
                    candidates.insert(day)
                }
            }
            return candidates.sorted()
        }
    }
}

/// `FREQ=WEEKLY` with a WKST other than Monday (see `LibicalWorkarounds`): the weeks start on WKST,
/// the anchor's week is the first, then every INTERVAL-th week.
struct WeeklyExpansion {
    let rule: RecurrenceRule
    let anchor: WallTime

    func occurrences(before: WallTime?, limit: Int) -> [WallTime] { expansion(before: before, limit: limit).instances }

    func expansion(before: WallTime?, limit: Int) -> (instances: [WallTime], startIsAMatch: Bool) {
        let codes = WeekNumberExpansion.weekdayCodes
        let wkst = codes.firstIndex(of: rule.part("WKST") ?? "MO") ?? 0
        let interval = Int(rule.part("INTERVAL") ?? "1") ?? 1
        let anchorDay = WallTime.daysFromCivil(anchor.year, anchor.month, anchor.day)
        let days =
            rule.part("BYDAY").map { $0.split(separator: ",").compactMap { codes.firstIndex(of: String($0.suffix(2))) } }
            ?? [WeekNumberExpansion.weekday(ofDay: anchorDay)]
        let months = Set(rule.part("BYMONTH")?.split(separator: ",").compactMap { Int($0) } ?? [])
        let firstWeek = anchorDay - ((WeekNumberExpansion.weekday(ofDay: anchorDay) - wkst + 7) % 7)
        return DayGrid(rule: rule, anchor: anchor).expand(before: before, limit: limit, maxEmptyPeriods: 5000) { period in
            let weekStart = firstWeek + 7 * interval * period
            return (0..<7).map { weekStart + $0 }.filter { day in
                days.contains(WeekNumberExpansion.weekday(ofDay: day))
                    && (months.isEmpty || months.contains(WallTime.civilFromDays(day).1))
            }
        }
    }
}

/// What both hand-written expansions share: per period (a year, a week) the candidate days in
/// order, BYSETPOS applied, then UNTIL, `before` and `limit`; DTSTART first and COUNT through
/// `SeriesInstances`, as on the libical path.
struct DayGrid {
    let rule: RecurrenceRule
    let anchor: WallTime

    func occurrences(before: WallTime?, limit: Int, maxEmptyPeriods: Int, periodDays: (Int) -> [Int]) -> [WallTime] {
        expand(before: before, limit: limit, maxEmptyPeriods: maxEmptyPeriods, periodDays: periodDays).instances
    }

    /// The instances, and whether the rule matched DTSTART itself.
    func expand(before: WallTime?, limit: Int, maxEmptyPeriods: Int, periodDays: (Int) -> [Int]) -> (instances: [WallTime], startIsAMatch: Bool) {
        let count = rule.part("COUNT").flatMap(Int.init)
        let until = rule.part("UNTIL").flatMap { WallTime($0) }
        let setPositions = rule.part("BYSETPOS")?.split(separator: ",").compactMap { Int($0) } ?? []
        let anchorDay = WallTime.daysFromCivil(anchor.year, anchor.month, anchor.day)
        var instances = SeriesInstances(anchor: anchor, count: count)
        var result: [WallTime] = [instances.first()]
        var emptyPeriods = 0
        var period = 0
        outer: while result.count < limit && emptyPeriods < maxEmptyPeriods {
            if instances.isComplete { break }
            var candidates = periodDays(period)
            period += 1
            if !setPositions.isEmpty {
                candidates = setPositions.compactMap { p in
                    let i = p > 0 ? p - 1 : candidates.count + p
                    return candidates.indices.contains(i) ? candidates[i] : nil
                }.sorted()
            }
            emptyPeriods = candidates.isEmpty ? emptyPeriods + 1 : 0
            if candidates.contains(anchorDay) { _ = instances.admit(anchor) }
            for day in candidates where day > anchorDay {
                let (y, m, d) = WallTime.civilFromDays(day)
                let wall = WallTime(
                    year: y, month: m, day: d, hour: anchor.hour, minute: anchor.minute, second: anchor.second,
                    isDate: anchor.isDate)
                if let until, wall > until { break outer }
                if let before, wall >= before { break outer }
                guard let instance = instances.admit(wall) else { break outer }
                result.append(instance)
                if result.count >= limit { break outer }
            }
        }
        return (result, instances.startIsAMatch)
    }
}
