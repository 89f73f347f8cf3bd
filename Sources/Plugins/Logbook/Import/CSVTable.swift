import CSV
import Foundation

/// A CSV file as rows with their physical line numbers (for error reports).
struct CSVTable {
    var rows: [(line: Int, fields: [String])]

    static func delimiter(of headerLine: Substring) -> UnicodeScalar {
        let candidates: [UnicodeScalar] = [",", ";", "\t"]
        return candidates.max { a, b in
            headerLine.unicodeScalars.filter { $0 == a }.count < headerLine.unicodeScalars.filter { $0 == b }.count
        }!
    }

    static func parse(_ text: String, delimiter: UnicodeScalar) throws -> CSVTable {
        let reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: false, delimiter: delimiter)
        var rows: [(Int, [String])] = []
        var line = 1
        while let fields = reader.next() {
            rows.append((line, fields))
            // A row spans one line plus the line breaks inside its quoted fields.
            line += 1 + fields.reduce(0) { $0 + $1.utf8.lazy.filter { $0 == 10 }.count }
        }
        if let error = reader.error { throw error }
        return CSVTable(rows: rows)
    }
}
