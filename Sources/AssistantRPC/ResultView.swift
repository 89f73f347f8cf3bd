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

    /// The result's member that holds the rows; nil when the result is the list itself.
    public var rows: String?
    public var columns: [Column]
    /// A member by whose day (in the daemon's zone) rows are grouped under a heading.
    public var groupByDay: String?
    /// The first that matches a row colours it.
    public var highlights: [Highlight]

    public init(rows: String? = nil, columns: [Column], groupByDay: String? = nil, highlights: [Highlight] = []) {
        (self.rows, self.columns, self.groupByDay, self.highlights) = (rows, columns, groupByDay, highlights)
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
        if let groupByDay { object["group_by_day"] = .string(groupByDay) }
        if !highlights.isEmpty {
            object["highlights"] = .array(highlights.map { ["key": .string($0.key), "is": $0.value, "colour": .string($0.colour.rawValue)] })
        }
        return .object(object)
    }

    public init?(json: JSONValue) {
        guard let columns = json["columns"]?.arrayValue else { return nil }
        self.columns = columns.compactMap { c in
            guard let key = c["key"]?.stringValue, let header = c["header"]?.stringValue else { return nil }
            return Column(
                key, header, Format(rawValue: c["format"]?.stringValue ?? "") ?? .text, optional: c["optional"] == true,
                until: c["until"]?.stringValue)
        }
        rows = json["rows"]?.stringValue
        groupByDay = json["group_by_day"]?.stringValue
        highlights = (json["highlights"]?.arrayValue ?? []).compactMap { h in
            guard let key = h["key"]?.stringValue, let value = h["is"], let colour = h["colour"]?.stringValue.flatMap(Highlight.Colour.init)
            else { return nil }
            return Highlight(key, is: value, colour)
        }
    }

    /// Its JSON Schema (for `help`'s result schema).
    public static let schemaDescription = "how assistantctl shows the result: rows, columns with their formats, grouping"
}
