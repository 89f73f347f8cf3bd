import Foundation

/// A result shown through its command's declared view (`ResultView`): the chosen columns, each
/// formatted for a person, fitted to the terminal's width (the longest text column shortened
/// with "…", optional columns dropped right to left; a row never wraps), grouped by day where
/// the view says so. `-o wide` and JSON keep every field and exact ISO times.
public struct ViewRenderer {
    public var view: ResultView
    public var width: Int
    public var zone: TimeZone
    public var now: Date

    /// Colour for highlighted rows and stale answers (a terminal that wants it: see `wantsColour`).
    public var colour: Bool

    public init(view: ResultView, width: Int, zone: TimeZone, now: Date, colour: Bool = false) {
        (self.view, self.width, self.zone, self.now, self.colour) = (view, width, zone, now, colour)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        self.calendar = calendar
        // Made once: a formatter per cell was most of a 500-row list's rendering.
        formatters = Dictionary(
            uniqueKeysWithValues: ["HH:mm", "EEE d MMM", "d MMM yyyy"].map { pattern in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = zone
                formatter.dateFormat = pattern
                return (pattern, formatter)
            })
    }

    let calendar: Calendar
    let formatters: [String: DateFormatter]

    /// Colour only on a terminal, never with `NO_COLOR` set (no-color.org) or `--no-color`.
    public static func wantsColour(noColorFlag: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard !noColorFlag, environment["NO_COLOR"].map({ $0.isEmpty }) ?? true, environment["TERM"] != "dumb" else { return false }
        return isatty(STDOUT_FILENO) != 0
    }

    static func paint(_ text: String, _ colour: ResultView.Highlight.Colour) -> String {
        let code =
            switch colour {
            case .red: "31"
            case .yellow: "33"
            case .bold: "1"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// The text, or nil when the result has no rows where the view says (shown the generic way).
    public func render(_ result: JSONValue) -> String? {
        var parts: [String] = []
        if !view.fields.isEmpty { parts.append(fields(result)) }
        if !view.columns.isEmpty || view.grid != nil {
            let found = view.rows.map { result[$0] } ?? result
            if let rows = found?.arrayValue?.compactMap(\.objectValue), found?.arrayValue?.count == rows.count {
                parts.append(rows.isEmpty ? "(none)" : view.grid.map { grid(rows, $0) } ?? table(rows))
            } else if parts.isEmpty {
                return nil
            }
        }
        guard !parts.isEmpty else { return nil }
        // A cached answer given because the upstream could not be reached says so, with its age.
        if result["stale"] == true {
            let note = "(stale: the service could not be reached; fetched \(result["fetched_at"]?.stringValue.map(when) ?? "earlier"))"
            parts[parts.count - 1] += "\n" + (colour ? Self.paint(note, .yellow) : note)
        }
        return parts.joined(separator: "\n\n")
    }

    /// "Label  value" lines, headings on their own after a blank line; a line never wraps. A field
    /// with nothing to say (missing, empty, or false unless it is a yes/no field) is left out, and
    /// so is a heading with nothing under it: a card shows what a person reads.
    func fields(_ result: JSONValue) -> String {
        let object = result.objectValue ?? [:]
        let shown = view.fields.compactMap { field -> (field: ResultView.Field, value: String?)? in
            guard let key = field.key else { return (field, nil) }
            let member = Self.member(object, key)
            if member == false, field.format != .flag { return nil }
            let value = Self.oneLine(formatted(member, field.format))
            return value.isEmpty ? nil : (field, value)
        }
        let labelWidth = shown.filter { $0.value != nil }.map(\.field.label.count).max() ?? 0
        var lines: [String] = []
        for (index, (field, value)) in shown.enumerated() {
            guard let value else {
                guard index + 1 < shown.count, shown[index + 1].value != nil else { continue }
                if !lines.isEmpty { lines.append("") }
                lines.append(colour ? Self.paint(field.label, .bold) : field.label)
                continue
            }
            lines.append(Self.shorten(field.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + value, max(width, 2)))
        }
        return lines.joined(separator: "\n")
    }

    /// The rows as a table of the view's columns.
    func table(_ rows: [[String: JSONValue]]) -> String {
        let columns = view.columns
        // Each id column's shortest unique starts, worked out once for all rows.
        let shortIDs = Dictionary(
            columns.filter { $0.format == .shortID }.map { column in
                (column.key, Self.shortestUnique(rows.compactMap { Self.member($0, column.key)?.stringValue }))
            }, uniquingKeysWith: { a, _ in a })
        var cells = rows.map { row in columns.map { cell(row, $0, shortIDs: shortIDs[$0.key] ?? [:]) } }
        // An optional column empty in every row is not shown (a list without start times).
        var shown = columns.indices.filter { i in !columns[i].optional || cells.contains { !$0[i].isEmpty } }
        var widths = columns.indices.map { i in max(columns[i].header.count, cells.map { $0[i].count }.max() ?? 0) }
        func total() -> Int { shown.map { widths[$0] }.reduce(0, +) + 2 * max(shown.count - 1, 0) }
        // Narrow: optional columns go, right to left, while the widest text column cannot give
        // enough; then that column is shortened, never below 8 characters.
        while total() > width, let drop = shown.last(where: { columns[$0].optional }) {
            let flexible = flexibleColumn(shown, widths)
            if let flexible, widths[flexible] - (total() - width) >= 16 { break }
            shown.removeAll { $0 == drop }
        }
        if total() > width, let flexible = flexibleColumn(shown, widths) {
            widths[flexible] = max(8, widths[flexible] - (total() - width))
            for r in cells.indices { cells[r][flexible] = Self.shorten(cells[r][flexible], widths[flexible]) }
        }
        // Narrower than the columns that must stay (a 20-column terminal): each line is cut, so
        // none wraps.
        func line(_ values: [String]) -> String {
            Self.shorten(
                shown.map { values[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .replacing(/\s+$/, with: ""), max(width, 2))
        }
        var lines = [line(columns.map(\.header))]
        var lastDay: String?
        for (index, row) in rows.enumerated() {
            if let key = view.groupByDay, let day = day(of: row[key]) {
                if day != lastDay { lines.append((lastDay == nil ? "" : "\n") + day) }
                lastDay = day
            }
            let text = line(cells[index])
            let highlight = view.highlights.first { Self.member(row, $0.key) == $0.value }
            lines.append(colour && highlight != nil ? Self.paint(text, highlight!.colour) : text)
        }
        return lines.joined(separator: "\n")
    }

    /// One timetable entry placed in the week.
    struct GridEntry {
        var week: Date?
        var weekday: Int
        var start: String
        var lines: [String]
    }

    /// The rows as a week grid: a column per day (Monday to Friday, and the weekend when
    /// anything falls on it), a line per start time, each cell the title (and mark) then the
    /// place and end. Dated rows spanning weeks give a grid per week.
    func grid(_ rows: [[String: JSONValue]], _ grid: ResultView.WeekGrid) -> String {
        let entries = rows.compactMap { row -> GridEntry? in
            let dayValue = Self.member(row, grid.day)
            var week: Date?
            let weekday: Int
            if let number = dayValue?.intValue {
                weekday = Int(number)
            } else if let text = dayValue?.stringValue, let (date, _) = parse(text) {
                // Monday = 1 (the calendar's Sunday = 1).
                weekday = (calendar.component(.weekday, from: date) + 5) % 7 + 1
                week = calendar.date(byAdding: .day, value: 1 - weekday, to: calendar.startOfDay(for: date))
            } else {
                return nil
            }
            guard (1...7).contains(weekday) else { return nil }
            let start = Self.member(row, grid.start).map { clock(HumanOutput.scalar($0)) } ?? ""
            let end = Self.member(row, grid.end).map { clock(HumanOutput.scalar($0)) } ?? ""
            let title = [Self.member(row, grid.title), grid.mark.flatMap { Self.member(row, $0) }].compactMap { $0.map(HumanOutput.scalar) }
                .filter { !$0.isEmpty }.joined(separator: " ")
            let place = Self.member(row, grid.place).map(HumanOutput.scalar) ?? ""
            let second = [place, end.isEmpty ? "" : "–\(end)"].filter { !$0.isEmpty }.joined(separator: " ")
            return GridEntry(week: week, weekday: weekday, start: start, lines: [Self.oneLine(title), Self.oneLine(second)])
        }
        guard !entries.isEmpty else { return "(none)" }
        let weeks = Dictionary(grouping: entries, by: \.week).sorted { ($0.key ?? .distantPast) < ($1.key ?? .distantPast) }
        return weeks.map { week, entries in
            let table = weekTable(entries, week: week)
            guard weeks.count > 1, let week else { return table }
            return "Week of \(format(week, "EEE d MMM"))\n" + table
        }.joined(separator: "\n\n")
    }

    func weekTable(_ entries: [GridEntry], week: Date?) -> String {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let days = Array(1...5) + [6, 7].filter { day in entries.contains { $0.weekday == day } }
        let starts = Set(entries.map(\.start)).sorted()
        let timeWidth = max(5, starts.map(\.count).max() ?? 0)
        let natural = entries.flatMap(\.lines).map(\.count).max() ?? 8
        let room = (width - timeWidth - 2 * days.count) / days.count
        let columnWidth = max(8, min(natural, room))
        func line(_ time: String, _ cells: [String]) -> String {
            let text =
                ([time.padding(toLength: timeWidth, withPad: " ", startingAt: 0)]
                + cells.map {
                    Self.shorten($0, columnWidth).padding(toLength: columnWidth, withPad: " ", startingAt: 0)
                }).joined(separator: "  ")
            return Self.shorten(text.replacing(/\s+$/, with: ""), max(width, 2))
        }
        let headings = days.map { day in
            let name = names[day - 1]
            guard let week, let date = calendar.date(byAdding: .day, value: day - 1, to: week) else { return name }
            return format(date, "EEE d MMM")
        }
        var lines = [line("", headings)]
        for start in starts {
            let cells = days.map { day in entries.filter { $0.weekday == day && $0.start == start }.flatMap(\.lines) }
            let height = cells.map(\.count).max() ?? 0
            for index in 0..<height {
                lines.append(line(index == 0 ? start : "", cells.map { index < $0.count ? $0[index] : "" }))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The text column with the most room to give.
    func flexibleColumn(_ shown: [Int], _ widths: [Int]) -> Int? {
        shown.filter { view.columns[$0].format == .text }.max { widths[$0] < widths[$1] }
    }

    func cell(_ row: [String: JSONValue], _ column: ResultView.Column, shortIDs: [String: String]) -> String {
        let value = Self.member(row, column.key)
        switch column.format {
        case .text:
            let text = Self.oneLine(value.map(HumanOutput.scalar) ?? "")
            // `occupied` with `until: "limit"` reads "12/20".
            guard let until = column.until, let second = Self.member(row, until).map(HumanOutput.scalar) else { return text }
            return "\(text)/\(second)"
        case .time:
            let start = value?.stringValue.map(clock) ?? ""
            guard let until = column.until, let end = Self.member(row, until)?.stringValue.map(clock), !end.isEmpty, end != start else {
                return start
            }
            return start == "all day" ? start : "\(start)–\(end)"
        case .shortID:
            guard let id = value?.stringValue else { return "" }
            return shortIDs[id] ?? id
        case .list, .priority, .duration, .when, .bar, .seconds, .temperatures, .flag, .count, .rule, .qr: return formatted(value, column.format)
        }
    }

    /// A value in a format that needs nothing but the value.
    func formatted(_ value: JSONValue?, _ format: ResultView.Format) -> String {
        guard let value else { return "" }
        switch format {
        case .bar:
            guard let percent = value.doubleValue else { return "" }
            let filled = Int((min(max(percent, 0), 100) / 5).rounded())
            return String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled) + String(format: " %3.0f %%", percent)
        case .seconds:
            guard let seconds = value.doubleValue.map({ Int($0) }) else { return "" }
            if seconds < 60 { return "\(seconds) s" }
            if seconds < 3600 { return "\(seconds / 60) min" }
            return String(format: "%d h %02d min", seconds / 3600, seconds % 3600 / 60)
        case .temperatures:
            return (value.objectValue ?? [:]).sorted { $0.key < $1.key }.compactMap { name, heater -> String? in
                guard let actual = heater["actual"]?.doubleValue else { return nil }
                let target = heater["target"]?.doubleValue.map { String(format: "/%.0f", $0) } ?? ""
                return "\(name) \(String(format: "%.1f", actual))\(target) °C"
            }.joined(separator: ", ")
        case .flag: return value.boolValue.map { $0 ? "yes" : "no" } ?? HumanOutput.scalar(value)
        case .duration: return value.intValue.map { String(format: "%d:%02d", $0 / 60, $0 % 60) } ?? ""
        case .when: return value.stringValue.map(when) ?? ""
        case .time: return value.stringValue.map(clock) ?? ""
        case .list: return value.arrayValue?.map(HumanOutput.scalar).joined(separator: ", ") ?? ""
        case .count: return value.arrayValue.map { String($0.count) } ?? ""
        case .rule: return value.stringValue.map { RuleSpeech.spoken($0) ?? $0 } ?? ""
        case .priority: return value.intValue.map { $0 == 0 ? "" : String($0) } ?? ""
        case .text, .shortID, .qr: return HumanOutput.scalar(value)
        }
    }

    static func member(_ row: [String: JSONValue], _ key: String) -> JSONValue? {
        var value: JSONValue? = .object(row)
        for part in key.split(separator: ".") { value = value?[String(part)] }
        return value == .null ? nil : value
    }

    /// The shortest start of `id` that no other starts with, at least 6 characters (as git shows them).
    public static func shortestUnique(_ id: String, among others: [String], minimum: Int = 6) -> String {
        shortestUnique([id] + others.filter { $0 != id }, minimum: minimum)[id] ?? id
    }

    /// Each id's shortest unique start, at least `minimum` characters: in sorted order an id
    /// shares its longest start with a neighbour, so one pass over neighbours gives them all.
    public static func shortestUnique(_ ids: [String], minimum: Int = 6) -> [String: String] {
        let sorted = Array(Set(ids)).sorted()
        func shared(_ a: String, _ b: String) -> Int { zip(a, b).prefix { $0 == $1 }.count }
        var result: [String: String] = [:]
        for (index, id) in sorted.enumerated() {
            let before = index > 0 ? shared(id, sorted[index - 1]) : 0
            let after = index + 1 < sorted.count ? shared(id, sorted[index + 1]) : 0
            result[id] = String(id.prefix(min(id.count, max(minimum, max(before, after) + 1))))
        }
        return result
    }

    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
    }

    static func shorten(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// A date (`YYYY-MM-DD`) or an instant, and whether it has a time of day.
    func parse(_ text: String) -> (date: Date, hasTime: Bool)? {
        if text.count == 10 {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])).map { ($0, false) }
        }
        if let instant = ISO8601.date(text) { return (instant, true) }
        // A wall time without a zone (`2026-12-01T09:00`, as KOS gives them): in the daemon's zone.
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard (16...19).contains(text.count), text.dropFirst(10).first == "T", parts.count >= 5 else { return nil }
        let components = DateComponents(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts.count > 5 ? parts[5] : 0)
        return calendar.date(from: components).map { ($0, true) }
    }

    func format(_ date: Date, _ pattern: String) -> String {
        formatters[pattern]?.string(from: date) ?? ISO8601.string(date)
    }

    /// "today 18:00", "tomorrow", "yesterday 09:00", "2 h ago", "Tue 1 Dec 10:00", "3 Mar 2027".
    func when(_ text: String) -> String {
        guard let (date, hasTime) = parse(text) else { return text }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)).day ?? 0
        let time = hasTime ? " " + format(date, "HH:mm") : ""
        if hasTime, date <= now, now.timeIntervalSince(date) < 12 * 3600 {
            let minutes = Int(now.timeIntervalSince(date) / 60)
            return minutes < 60 ? "\(minutes) min ago" : "\(minutes / 60) h ago"
        }
        switch days {
        case 0: return "today" + time
        case 1: return "tomorrow" + time
        case -1: return "yesterday" + time
        case -180...180: return format(date, "EEE d MMM") + time
        default: return format(date, "d MMM yyyy") + time
        }
    }

    /// The clock time of an instant, or "all day" for a date.
    func clock(_ text: String) -> String {
        guard let (date, hasTime) = parse(text) else { return text }
        return hasTime ? format(date, "HH:mm") : "all day"
    }

    /// The day heading of a row ("Thu 26 Nov", "today" and "tomorrow" named as such).
    func day(of value: JSONValue?) -> String? {
        guard let text = value?.stringValue, let (date, _) = parse(text) else { return nil }
        let heading = format(date, "EEE d MMM")
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)).day ?? 0
        return days == 0 ? "\(heading) (today)" : days == 1 ? "\(heading) (tomorrow)" : heading
    }

    /// The terminal's width: `COLUMNS`, then the terminal's own (`TIOCGWINSZ`), else 80.
    public static func terminalWidth(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
