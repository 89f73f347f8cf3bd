/// How a person sees a command's result in a terminal (`assistantctl`), declared with the
/// command and published by `help` (`view`) and `rpc.discover` (`x-view`): which rows, which
/// columns in which order, each column's format, and how rows group. Scripts read the JSON.
public struct ResultView: Sendable, Equatable {
    public enum Format: String, Sendable {
        /// The value as text, on one line.
        case text
        /// The shortest start of the id that is unique among the rows shown, at least 6 characters.
        case shortID = "short_id"
        /// A time as people say it: "today 18:00", "tomorrow", "Tue 1 Dec", "2 h ago".
        case when
        /// The clock time of the day (the rows are grouped by day), or "all day" for a date.
        case time
        /// Minutes as `1:05`.
        case duration
        /// A list, comma-separated.
        case list
        /// 0 (none) shown empty.
        case priority
        /// A percentage as a bar: `████░░░░░░  42 %`.
        case bar
        /// Seconds as a span people read: `1 h 05 min`, `12 min`, `40 s`.
        case seconds
        /// Heaters by name, each `{actual, target}`: `tool0 210.3/210 °C, bed 60.0/60 °C`.
        case temperatures
        /// A true or false as `yes` or `no`.
        case flag
        /// How many items a list has.
        case count
        /// A recurrence rule as said: "every Monday" (as written when it cannot be said).
        case rule
        /// An address drawn as a QR code under the short answer, at a terminal (a phone's camera
        /// reads it); as text elsewhere.
        case qr
    }

    public struct Column: Sendable, Equatable {
        /// The row's member (`a.b` for a nested one).
        public var key: String
        public var header: String
        public var format: Format
        /// Dropped first (right to left) when the terminal is narrow.
        public var optional: Bool
        /// A second member shown after this one (`start`–`end`).
        public var until: String?

        public init(_ key: String, _ header: String, _ format: Format = .text, optional: Bool = false, until: String? = nil) {
            (self.key, self.header, self.format, self.optional, self.until) = (key, header, format, optional, until)
        }
    }

    /// A row shown in colour (on a terminal that has it) when its member has this value:
    /// overdue, failed, high priority.
    public struct Highlight: Sendable, Equatable {
        public enum Colour: String, Sendable { case red, yellow, bold }
        public var key: String
        public var value: JSONValue
        public var colour: Colour

        public init(_ key: String, is value: JSONValue, _ colour: Colour) {
            (self.key, self.value, self.colour) = (key, value, colour)
        }
    }

    /// A labelled value of an object result (`status`, `octoprint.status`), one per line; a
    /// field without a key is a heading.
    public struct Field: Sendable, Equatable {
        public var key: String?
        public var label: String
        public var format: Format

        public init(_ key: String, _ label: String, _ format: Format = .text) {
            (self.key, self.label, self.format) = (key, label, format)
        }

        public init(heading: String) {
            (key, label, format) = (nil, heading, .text)
        }
    }

    /// A week by day and hour (a timetable): a column per day, a line per start time, each cell
    /// the title and place of what starts then.
    public struct WeekGrid: Sendable, Equatable {
        /// A date (`YYYY-MM-DD`) or a weekday number (1 = Monday).
        public var day: String
        public var start: String
        public var end: String
        public var title: String
        public var place: String
        /// A short mark after the title (the kind: lecture, seminar).
        public var mark: String?
        /// What a tap on a class shows: its teachers, the subject's name, its weeks.
        public var details: [Field]

        public init(day: String, start: String, end: String, title: String, place: String, mark: String? = nil, details: [Field] = []) {
            (self.day, self.start, self.end, self.title, self.place, self.mark, self.details) = (day, start, end, title, place, mark, details)
        }

        var keys: [String] { [day, start, end, title, place] + (mark.map { [$0] } ?? []) + details.compactMap(\.key) }
    }

    /// The result's member that holds the rows; nil when the result is the list itself.
    public var rows: String?
    public var columns: [Column]
    /// Shown before the rows, if any.
    public var fields: [Field]
    /// The rows as a week grid instead of a table.
    public var grid: WeekGrid?
    /// A member by whose day (in the daemon's zone) rows are grouped under a heading.
    public var groupByDay: String?
    /// The first that matches a row colours it.
    public var highlights: [Highlight]

    public init(
        rows: String? = nil, columns: [Column] = [], fields: [Field] = [], grid: WeekGrid? = nil, groupByDay: String? = nil,
        highlights: [Highlight] = []
    ) {
        (self.rows, self.columns, self.fields, self.grid, self.groupByDay, self.highlights) = (rows, columns, fields, grid, groupByDay, highlights)
    }

    /// Every member the view reads, relative to a row (`columns`, `grid`, the highlights) or to
    /// the result (`fields`): for the test that holds views to their result schemas.
    public var rowKeys: [String] {
        columns.flatMap { [$0.key] + ($0.until.map { [$0] } ?? []) } + (grid?.keys ?? []) + highlights.map(\.key) + (groupByDay.map { [$0] } ?? [])
    }
    public var fieldKeys: [String] { fields.compactMap(\.key) }

    /// The same view without its fields: its rows alone.
    public var rowsOnly: ResultView {
        var rows = self
        rows.fields = []
        return rows
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "columns": .array(
                columns.map { c in
                    var column: [String: JSONValue] = ["key": .string(c.key), "header": .string(c.header), "format": .string(c.format.rawValue)]
                    if c.optional { column["optional"] = true }
                    if let until = c.until { column["until"] = .string(until) }
                    return .object(column)
                })
        ]
        if let rows { object["rows"] = .string(rows) }
        if !fields.isEmpty {
            object["fields"] = .array(
                fields.map { f in
                    var field: [String: JSONValue] = ["label": .string(f.label), "format": .string(f.format.rawValue)]
                    if let key = f.key { field["key"] = .string(key) }
                    return .object(field)
                })
        }
        if let grid {
            var gridObject: [String: JSONValue] = [
                "day": .string(grid.day), "start": .string(grid.start), "end": .string(grid.end), "title": .string(grid.title),
                "place": .string(grid.place),
            ]
            if let mark = grid.mark { gridObject["mark"] = .string(mark) }
            if !grid.details.isEmpty {
                gridObject["details"] = .array(grid.details.map { ["key": .string($0.key ?? ""), "label": .string($0.label)] })
            }
            object["grid"] = .object(gridObject)
        }
        if let groupByDay { object["group_by_day"] = .string(groupByDay) }
        if !highlights.isEmpty {
            object["highlights"] = .array(highlights.map { ["key": .string($0.key), "is": $0.value, "colour": .string($0.colour.rawValue)] })
        }
        return .object(object)
    }

    public init?(json: JSONValue) {
        guard json["columns"]?.arrayValue != nil || json["fields"]?.arrayValue != nil || json["grid"]?.objectValue != nil else { return nil }
        columns = (json["columns"]?.arrayValue ?? []).compactMap { c in
            guard let key = c["key"]?.stringValue, let header = c["header"]?.stringValue else { return nil }
            return Column(
                key, header, Format(rawValue: c["format"]?.stringValue ?? "") ?? .text, optional: c["optional"] == true,
                until: c["until"]?.stringValue)
        }
        rows = json["rows"]?.stringValue
        fields = (json["fields"]?.arrayValue ?? []).compactMap { f in
            guard let label = f["label"]?.stringValue else { return nil }
            guard let key = f["key"]?.stringValue else { return Field(heading: label) }
            return Field(key, label, Format(rawValue: f["format"]?.stringValue ?? "") ?? .text)
        }
        grid = json["grid"].flatMap { g in
            guard let day = g["day"]?.stringValue, let start = g["start"]?.stringValue, let end = g["end"]?.stringValue,
                let title = g["title"]?.stringValue, let place = g["place"]?.stringValue
            else { return nil }
            let details = (g["details"]?.arrayValue ?? []).compactMap { d in
                d["key"]?.stringValue.flatMap { key in d["label"]?.stringValue.map { Field(key, $0) } }
            }
            return WeekGrid(day: day, start: start, end: end, title: title, place: place, mark: g["mark"]?.stringValue, details: details)
        }
        groupByDay = json["group_by_day"]?.stringValue
        highlights = (json["highlights"]?.arrayValue ?? []).compactMap { h in
            guard let key = h["key"]?.stringValue, let value = h["is"], let colour = h["colour"]?.stringValue.flatMap(Highlight.Colour.init)
            else { return nil }
            return Highlight(key, is: value, colour)
        }
    }

    /// Its JSON Schema (for `help`'s result schema).
    public static let schemaDescription = "how assistantctl shows the result: fields, rows, columns with their formats, a week grid, grouping"
}
