import Foundation

/// Readable text for a terminal: key/value lines for objects, aligned tables for lists of
/// objects, plain text for strings. Scripts get JSON instead (see `assistantctl --json`).
public enum HumanOutput {
    /// `timeZone`: UTC timestamps (`2026-11-22T20:11:03Z`) are shown in this zone, the daemon's
    /// configured one; JSON output always keeps UTC.
    public static func render(_ value: JSONValue, timeZone: TimeZone? = nil) -> String {
        var lines: [String] = []
        render(timeZone.map { localize(value, $0) } ?? value, indent: "", into: &lines)
        return lines.joined(separator: "\n")
    }

    public static func localize(_ value: JSONValue, _ zone: TimeZone) -> JSONValue {
        switch value {
        case .string(let s) where s.count == 20 && s.hasSuffix("Z") && s.dropFirst(10).hasPrefix("T"):
            guard let date = ISO8601.date(s) else { return value }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss zzz"
            return .string(formatter.string(from: date))
        case .array(let items): return .array(items.map { localize($0, zone) })
        case .object(let object): return .object(object.mapValues { localize($0, zone) })
        default: return value
        }
    }

    static func render(_ value: JSONValue, indent: String, into lines: inout [String]) {
        switch value {
        case .object(let object):
            if object.isEmpty {
                lines.append(indent + "(empty)")
                return
            }
            let width = object.keys.map(\.count).max() ?? 0
            for key in orderedKeys(object.keys) {
                let item = object[key]!
                switch item {
                case .object(let o) where !o.isEmpty:
                    lines.append("\(indent)\(key):")
                    render(item, indent: indent + "  ", into: &lines)
                case .array(let a) where !a.isEmpty && !a.allSatisfy(isScalar):
                    lines.append("\(indent)\(key):")
                    render(item, indent: indent + "  ", into: &lines)
                default:
                    lines.append("\(indent)\(key.padding(toLength: width, withPad: " ", startingAt: 0))  \(scalar(item))")
                }
            }
        case .array(let items):
            if items.isEmpty {
                lines.append(indent + "(none)")
            } else if items.allSatisfy({ $0.objectValue != nil }) {
                lines.append(contentsOf: table(items.compactMap(\.objectValue)).map { indent + $0 })
            } else {
                for item in items {
                    if isScalar(item) { lines.append(indent + scalar(item)) } else { render(item, indent: indent + "  ", into: &lines) }
                }
            }
        default:
            lines.append(indent + scalar(value))
        }
    }

    static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: false
        default: true
        }
    }

    public static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .null: "-"
        case .array(let a) where a.isEmpty: "(none)"
        case .array(let a) where a.allSatisfy(isScalar): a.map(scalar).joined(separator: ", ")
        default: value.encodedString()
        }
    }

    static let leadingKeys = ["id", "name", "title", "state", "topic"]

    static func orderedKeys(_ keys: some Sequence<String>) -> [String] {
        keys.sorted { a, b in
            let ia = leadingKeys.firstIndex(of: a) ?? Int.max
            let ib = leadingKeys.firstIndex(of: b) ?? Int.max
            return ia != ib ? ia < ib : a < b
        }
    }

    static func table(_ rows: [[String: JSONValue]]) -> [String] {
        var columns: [String] = []
        for key in orderedKeys(Set(rows.flatMap(\.keys))) where rows.contains(where: { $0[key].map(isScalar) ?? false }) {
            columns.append(key)
        }
        let cells = rows.map { row in columns.map { truncate(row[$0].map(scalar) ?? "-", 48) } }
        let widths = columns.indices.map { i in max(columns[i].count, cells.map { $0[i].count }.max() ?? 0) }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacing(/\s+$/, with: "")
        }
        return [line(columns.map { $0.uppercased() })] + cells.map(line)
    }

    static func truncate(_ text: String, _ limit: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count <= limit ? flat : String(flat.prefix(limit - 1)) + "…"
    }
}
