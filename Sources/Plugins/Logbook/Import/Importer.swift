import Foundation
import HostCore

/// Reads a whole export into entries, collecting every bad row with its line and reason.
struct Importer {
    struct Outcome {
        var format: ImportFormat
        var entries: [(line: Int, entry: Entry)] = []
        var aircraftCreated: [Aircraft] = []
        var duplicates = 0
        var badRows: [JSONValue] = []
    }

    let format: ImportFormat
    var context: DraftContext
    /// Identities already in the logbook (and, as rows are read, in the file).
    var known: Set<String>

    static func load(path: String) throws -> String {
        let data: Data
        do throws(SafeFile.Failure) { data = try SafeFile.read(path, limit: SafeFile.Limit.importFile) } catch { throw LogbookError.file(path, "it \(error.problem)") }
        guard var text = try decode(data, path: path) else { throw LogbookError.file(path, "it is not text") }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text
    }

    /// UTF-8, or Latin-1 for a file with no UTF-8 in it at all (older Windows exports). A file
    /// that is UTF-8 except for some bytes is refused, naming the first bad line: read as
    /// Latin-1 it would come in with every accented name in it garbled, and silently.
    static func decode(_ data: Data, path: String) throws -> String? {
        if let text = String(data: data, encoding: .utf8) { return text }
        var bytes = data.makeIterator()
        var decoder = UTF8()
        var line = 1
        var sawMultibyte = false
        var firstBadLine: Int?
        decoding: while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                if scalar.value >= 0x80 { sawMultibyte = true }
            case .error:
                if firstBadLine == nil { firstBadLine = line }
            case .emptyInput:
                break decoding
            }
        }
        if sawMultibyte, let firstBadLine {
            throw LogbookError.file(path, "line \(firstBadLine) is not valid UTF-8 (the rest of the file is); save the file as UTF-8")
        }
        return String(data: data, encoding: .isoLatin1)
    }

    mutating func run(text: String) throws -> Outcome {
        var outcome = Outcome(format: format)
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r" }
        switch format {
        case .foreflight:
            let table = try CSVTable.parse(text, delimiter: ",")
            try readForeFlight(table, into: &outcome)
        default:
            let table = try CSVTable.parse(text, delimiter: CSVTable.delimiter(of: firstLine))
            guard let header = table.rows.first else { return outcome }
            var map = HeaderMap(header: header.fields, aliases: format.aliases)
            map.guardedFormulas = format == .native
            try requireColumns(map, header: header.fields)
            for row in table.rows.dropFirst() where !row.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                read(map.row(line: row.line, fields: row.fields), map: map, aircraftInfo: [:], into: &outcome)
            }
        }
        return outcome
    }

    func requireColumns(_ map: HeaderMap, header: [String]) throws {
        let needed = format == .native ? ["kind", "date"] : ["date", "registration"]
        for key in needed where map.columns[key] == nil {
            let expected = format.aliases[key]?.joined(separator: " or ") ?? key
            throw RPCError.invalidParam("path", "the \(format.rawValue) file has no \(expected) column (its header: \(header.prefix(12).joined(separator: ", ")))")
        }
    }

    /// ForeFlight: an "Aircraft Table" section, then a "Flights Table" section, each with a header
    /// and a row of data types to skip.
    mutating func readForeFlight(_ table: CSVTable, into outcome: inout Outcome) throws {
        let dataTypes: Set<String> = ["text", "hhmm", "decimal", "boolean", "date", "integer", "number", "datetime", "packed detail", "yyyy", "yyyy-mm-dd", "hh:mm", ""]
        func isTypeRow(_ f: [String]) -> Bool { f.allSatisfy { dataTypes.contains($0.trimmingCharacters(in: .whitespaces).lowercased()) } }
        var section = "", header: [String]? = nil
        var aircraftHeader: [String: Int] = [:]
        var aircraftInfo: [String: Aircraft] = [:]
        var map: HeaderMap?
        for row in table.rows {
            let first = row.fields.first?.trimmingCharacters(in: .whitespaces) ?? ""
            if first == "Aircraft Table" || first == "Flights Table" {
                section = first
                header = nil
                continue
            }
            if isTypeRow(row.fields) { continue }
            if header == nil {
                header = row.fields
                if section == "Aircraft Table" {
                    for (i, h) in row.fields.enumerated() { aircraftHeader[h.trimmingCharacters(in: .whitespaces)] = i }
                } else if section == "Flights Table" {
                    let m = HeaderMap(header: row.fields, aliases: format.aliases)
                    try requireColumns(m, header: row.fields)
                    map = m
                }
                continue
            }
            if section == "Aircraft Table" {
                func v(_ k: String) -> String? {
                    guard let i = aircraftHeader[k], i < row.fields.count else { return nil }
                    let s = row.fields[i].trimmingCharacters(in: .whitespaces)
                    return s.isEmpty ? nil : s
                }
                guard let id = v("AircraftID") else { continue }
                var a = Aircraft(registration: Aircraft.normalized(id))
                a.make = v("Make")
                a.model = v("Model")
                a.typeDesignator = v("TypeCode")?.uppercased()
                let cls = (v("Class") ?? v("EquipType") ?? "").lowercased()
                if cls.contains("multi") { a.engine = "me" }
                aircraftInfo[a.registration] = a
            } else if section == "Flights Table", let map {
                read(map.row(line: row.line, fields: row.fields), map: map, aircraftInfo: aircraftInfo, into: &outcome)
            }
        }
    }

    mutating func read(_ row: MappedRow, map: HeaderMap, aircraftInfo: [String: Aircraft], into outcome: inout Outcome) {
        do throws(RPCError) {
            let entry = try entry(row, map: map, aircraftInfo: aircraftInfo, outcome: &outcome)
            if known.insert(entry.identity).inserted {
                outcome.entries.append((row.line, entry))
            } else {
                outcome.duplicates += 1
            }
        } catch {
            outcome.badRows.append([
                "line": .count(row.line), "field": error.data?["param"] ?? .null,
                "reason": .string(error.message.replacingOccurrences(of: "Invalid params: ", with: "")),
            ])
        }
    }

    mutating func entry(_ row: MappedRow, map: HeaderMap, aircraftInfo: [String: Aircraft], outcome: inout Outcome) throws(RPCError) -> Entry {
        let values = ValueReader(format: format, headerNames: map.headerNames)
        let date = try values.date(row, "date")

        let isFSTD: Bool
        if format == .native {
            guard let kind = row.text("kind"), let k = EntryKind(rawValue: kind) else {
                throw RPCError.invalidParam("kind", "must be flight or fstd")
            }
            isFSTD = k == .fstd
        } else {
            let sim = try values.minutes(row, "sim") ?? 0
            let total = try values.minutes(row, "total") ?? 0
            isFSTD = values.bool(row, "is_sim") || (sim > 0 && total == 0)
        }
        if isFSTD {
            var e = Entry(kind: .fstd, date: date)
            let device = row.text("registration").flatMap { aircraftInfo[Aircraft.normalized($0)] }
            e.fstdType = row.text("fstd_type") ?? row.text("model") ?? device.map(\.displayModel) ?? row.text("type") ?? row.text("registration") ?? "FSTD"
            e.fstdQualification = row.text("fstd_qualification")
            var total = try values.minutes(row, format == .native ? "total_min" : "sim") ?? 0
            if total == 0 { total = try values.minutes(row, "total") ?? 0 }
            guard total > 0 else { throw RPCError.invalidParam(values.column("total"), "an FSTD session needs its time") }
            e[.total] = total
            e.remarks = row.text("remarks") ?? ""
            return e
        }

        // The aircraft: known, or created from what the file says about it.
        guard let rawReg = row.text("registration") else { throw RPCError.invalidParam(values.column("registration"), "is empty") }
        let reg = try LogbookService.validRegistration(rawReg, field: values.column("registration"))
        if context.aircraft[reg] == nil {
            var a = aircraftInfo[reg] ?? Aircraft(registration: reg)
            if format == .native {
                a.make = row.text("aircraft_make")
                a.model = row.text("aircraft_model")
                a.variant = row.text("aircraft_variant")
                a.typeDesignator = row.text("aircraft_type")
                a.engine = row.text("aircraft_engine") == "me" ? "me" : "se"
                a.operation = row.text("aircraft_operation") == "mp" ? "mp" : "sp"
                a.category = row.text("aircraft_category") ?? "aeroplane"
                a.classRating = row.text("aircraft_class")
            } else {
                if a.model == nil { a.model = row.text("model") }
                if a.typeDesignator == nil { a.typeDesignator = row.text("type")?.uppercased() }
                // Co-pilot time exists only in multi-pilot operations.
                let multiPilot = try values.minutes(row, "mp") ?? 0
                let coPilot = try values.minutes(row, "copilot") ?? 0
                if multiPilot > 0 || coPilot > 0 { a.operation = "mp" }
            }
            context.aircraft[reg] = a
            outcome.aircraftCreated.append(a)
        }

        var draft = FlightDraft()
        draft.registration = reg
        draft.dep = row.text("dep")
        draft.arr = row.text("arr")
        if format == .myflightbook, draft.dep == nil || draft.arr == nil, let route = row.text("route") {
            let stops = route.split(whereSeparator: { $0 == " " || $0 == "-" })
            draft.dep = draft.dep ?? stops.first.map(String.init)
            draft.arr = draft.arr ?? stops.last.map(String.init)
        }
        let depAirport = draft.dep.flatMap { context.airports.airport($0) }
        let arrAirport = draft.arr.flatMap { context.airports.airport($0) }
        if format == .native {
            for (key, field) in [("out", "out"), ("off", "off"), ("on", "on"), ("in", "in"), ("duty_start", "duty_start"), ("duty_end", "duty_end")] {
                guard let t = row.text(key) else { continue }
                guard let v = UTCMinute.parseISO(t) else { throw RPCError.invalidParam(field, "'\(t)' is not an ISO 8601 UTC time") }
                switch key {
                case "out": draft.out = v
                case "off": draft.off = v
                case "on": draft.on = v
                case "in": draft.inAt = v
                case "duty_start": draft.dutyStart = v
                default: draft.dutyEnd = v
                }
            }
        } else {
            guard let out = try values.time(row, "out", day: date, airport: depAirport) else {
                throw RPCError.invalidParam(values.column("out"), "is empty: a logbook line needs block off and on times (EASA columns 2 and 3)")
            }
            func after(_ t: UTCMinute?) -> UTCMinute? {
                guard let t else { return nil }
                var v = t
                while v < out { v = UTCMinute(v.value + 1440) }
                return v
            }
            draft.out = out
            draft.off = after(try values.time(row, "off", day: date, airport: depAirport))
            draft.on = after(try values.time(row, "on", day: date, airport: arrAirport))
            draft.inAt = after(try values.time(row, "in", day: date, airport: arrAirport))
            guard draft.inAt != nil else {
                throw RPCError.invalidParam(values.column("in"), "is empty: a logbook line needs block off and on times (EASA columns 2 and 3)")
            }
            draft.dutyStart = try values.time(row, "duty_start", day: date, airport: depAirport)
            draft.dutyEnd = after(try values.time(row, "duty_end", day: date, airport: arrAirport))
        }

        let suffix = format == .native ? "_min" : ""
        for c in TimeColumn.allCases {
            if let v = try values.minutes(row, c.name + suffix) { draft.times[c] = v }
        }
        if format != .native, let mp = draft.times[.mp], mp == 0 { draft.times[.mp] = nil }
        for c in CountColumn.allCases {
            if let v = try values.count(row, c.name) { draft.counts[c] = v }
        }
        if draft.counts[.landingsDay] == nil, let all = try values.count(row, "landings_all") {
            draft.counts[.landingsDay] = max(0, all - (draft.counts[.landingsNight] ?? 0))
        }
        // ForeFlight lists approaches as "count;type;runway;airport;remarks" in Approach1…6.
        if format == .foreflight, draft.counts[.approaches] == nil {
            let counts = (1...6).compactMap { row.text("approach\($0)")?.split(separator: ";").first.flatMap { Int($0) } }
            if !counts.isEmpty { draft.counts[.approaches] = counts.reduce(0, +) }
        }
        draft.function = "none"
        draft.picName = row.text("pic_name").map { format == .foreflight ? String($0.split(separator: ";").first ?? "") : $0 }
        draft.remarks = row.text("remarks")
        if format == .native {
            draft.date = date
        }
        return try draft.complete(context)
    }
}
