import Foundation
import PluginKit

/// One data row of an import, read through the format's header aliases.
struct MappedRow {
    let line: Int
    let fields: [String]
    let columns: [String: Int]
    /// Keys whose column holds local time at the airport (the header says "local").
    let localKeys: Set<String>
    /// The native format's cells carry the export's formula guard, taken away here.
    var guardedFormulas = false

    func text(_ key: String) -> String? {
        guard let i = columns[key], i < fields.count else { return nil }
        let v = guardedFormulas ? FormulaGuard.restored(fields[i].trimmedFast) : fields[i].trimmedFast
        return v.isEmpty ? nil : v
    }
}

/// Resolves header names to the logbook's fields once per file.
struct HeaderMap {
    var columns: [String: Int] = [:]
    var localKeys: Set<String> = []
    var headerNames: [String: String] = [:]

    init(header: [String], aliases: [String: [String]]) {
        var index: [String: Int] = [:]
        for (i, h) in header.enumerated() {
            let key = h.trimmingCharacters(in: .whitespaces).lowercased()
            if index[key] == nil { index[key] = i }
        }
        func resolve(_ names: [String]) -> (name: String, index: Int)? {
            names.lazy.compactMap { n in index[n.lowercased()].map { (n, $0) } }.first
        }
        // UTC columns first; a "(Local)" twin is used only when the UTC column is absent.
        for (field, names) in aliases where !field.hasSuffix("_local") {
            guard let (name, i) = resolve(names) else { continue }
            columns[field] = i
            headerNames[field] = name
            if name.lowercased().contains("local") { localKeys.insert(field) }
        }
        for (field, names) in aliases where field.hasSuffix("_local") {
            let target = String(field.dropLast(6))
            guard columns[target] == nil, let (name, i) = resolve(names) else { continue }
            columns[target] = i
            headerNames[target] = name
            localKeys.insert(target)
        }
    }

    /// Set for the native format, whose text cells went through `FormulaGuard` on export.
    var guardedFormulas = false

    func row(line: Int, fields: [String]) -> MappedRow {
        MappedRow(line: line, fields: fields, columns: columns, localKeys: localKeys, guardedFormulas: guardedFormulas)
    }
}

/// Turns source values into logbook values, naming the source column when one is wrong.
struct ValueReader {
    let format: ImportFormat
    let headerNames: [String: String]

    func column(_ key: String) -> String { headerNames[key] ?? key }

    func minutes(_ row: MappedRow, _ key: String) throws(RPCError) -> Int? {
        guard let t = row.text(key) else { return nil }
        let v: Int?
        switch format.durationUnit {
        case .minutes: v = Int(t) ?? Minutes.parse(text: t)
        case .hours: v = Minutes.parse(text: t)
        }
        guard let v else { throw RPCError.invalidParam(column(key), "is not a duration") }
        return v
    }

    func count(_ row: MappedRow, _ key: String) throws(RPCError) -> Int? {
        guard let t = row.text(key) else { return nil }
        guard let v = Int(t), v >= 0 else { throw RPCError.invalidParam(column(key), "is not a count (a whole number, 0 or more)") }
        return v
    }

    func bool(_ row: MappedRow, _ key: String) -> Bool {
        guard let t = row.text(key)?.lowercased() else { return false }
        return ["1", "true", "yes", "y", "x"].contains(t)
    }

    /// `YYYY-MM-DD`, `YYYY/MM/DD`, `DD.MM.YYYY`, and for MyFlightbook (US) `M/D/YYYY`.
    func date(_ row: MappedRow, _ key: String) throws(RPCError) -> Day {
        guard let t = row.text(key) else { throw RPCError.invalidParam(column(key), "is empty (the date is required)") }
        let s = t.split(separator: " ").first.map(String.init) ?? t
        if let d = Day(s) ?? Day(s.replacingOccurrences(of: "/", with: "-")) { return d }
        let dotted = s.split(separator: ".")
        if dotted.count == 3, let d = Int(dotted[0]), let m = Int(dotted[1]), let y = Int(dotted[2]),
            let day = Day(String(format: "%04d-%02d-%02d", y, m, d))
        {
            return day
        }
        let slashed = s.split(separator: "/")
        if format == .myflightbook, slashed.count == 3, let m = Int(slashed[0]), let d = Int(slashed[1]), let y = Int(slashed[2]),
            let day = Day(String(format: "%04d-%02d-%02d", y, m, d))
        {
            return day
        }
        throw RPCError.invalidParam(column(key), "is not a date (YYYY-MM-DD)")
    }

    /// A clock time on `day`, or a full date and time; in UTC unless the column is local time,
    /// then converted with the airport's time zone.
    func time(_ row: MappedRow, _ key: String, day: Day, airport: Airport?) throws(RPCError) -> UTCMinute? {
        guard let t = row.text(key) else { return nil }
        var value: (Day, Int)?
        if let iso = UTCMinute.parseISO(t) {
            value = (iso.day, iso.minuteOfDay)
        } else if let m = UTCMinute.clockMinutes(t) {
            value = (day, m)
        } else {
            let parts = t.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let d = Day(parts[0]), let m = UTCMinute.clockMinutes(parts[1]) { value = (d, m) }
        }
        guard let (d, m) = value else { throw RPCError.invalidParam(column(key), "is not a time (HH:MM or YYYY-MM-DD HH:MM)") }
        guard row.localKeys.contains(key) else { return UTCMinute(day: d, minuteOfDay: m) }
        guard let airport, let zone = TimeZone(identifier: airport.timeZone) else {
            throw RPCError.invalidParam(column(key), "is local time but the airport's time zone is unknown")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = d.components
        guard let local = calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day, hour: m / 60, minute: m % 60)) else {
            throw RPCError.invalidParam(column(key), "is a local time that does not exist in \(airport.timeZone) (the clocks went forward)")
        }
        return UTCMinute(Int((local.timeIntervalSince1970 / 60).rounded()))
    }
}
