import Foundation
import PluginKit

/// Reads an export into entries, a batch of rows at a time, collecting every bad row with its line
/// and reason. What it reads goes to `sink`, which the import points at the logbook.
struct Importer {
    /// Bad rows listed in a reply; all are counted.
    static let listedBadRows = 1_000

    /// Where entries go: `add` answers false for an entry the logbook (or the file) already has.
    struct Sink {
        var add: (Entry) throws -> Bool
        var addAircraft: (Aircraft) throws -> Void
    }

    struct Outcome {
        var format: ImportFormat
        var imported = 0
        var sample: [Entry] = []
        var aircraftCreated: [String] = []
        var duplicates = 0
        var badRows: [JSONValue] = []
        var badRowCount = 0
        var rowsRead: Int { imported + duplicates + badRowCount }
    }

    let format: ImportFormat
    var context: DraftContext
    let sink: Sink
    private(set) var outcome: Outcome
    /// The header of a one-table file, once read.
    private var map: HeaderMap?
    private var foreFlight = ForeFlightSections()
    /// An aircraft the last row named for the first time (saved even when the row is bad, as it
    /// always was: later rows of the file use it).
    private var pendingAircraft: Aircraft?

    init(format: ImportFormat, context: DraftContext, sink: Sink) {
        self.format = format
        self.context = context
        self.sink = sink
        outcome = Outcome(format: format)
    }

    /// The next rows of the file (the first batch begins with its header).
    mutating func read(_ rows: [(line: Int, fields: [String])]) throws {
        if format == .foreflight {
            for row in rows { try readForeFlight(row) }
            return
        }
        for row in rows {
            guard let map else {
                var header = HeaderMap(header: row.fields, aliases: format.aliases)
                header.guardedFormulas = format == .native
                try requireColumns(header, header: row.fields)
                map = header
                continue
            }
            guard !row.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else { continue }
            try read(map.row(line: row.line, fields: row.fields), map: map, aircraftInfo: [:])
        }
    }

    func requireColumns(_ map: HeaderMap, header: [String]) throws {
        let needed = format == .native ? ["kind", "date"] : ["date", "registration"]
        for key in needed where map.columns[key] == nil {
            let expected = format.aliases[key]?.joined(separator: " or ") ?? key
            // The header is the file's own text: it is counted, never quoted (an error must not
            // carry a file's content back to whoever named it).
            throw LogbookParams.importPath.invalid(
                "the \(format.rawValue) file has no \(expected) column (line 1 holds \(header.count) column\(header.count == 1 ? "" : "s"))")
        }
    }

    /// ForeFlight: an "Aircraft Table" section, then a "Flights Table" section, each with a header
    /// and a row of data types to skip.
    struct ForeFlightSections {
        var section = ""
        var header: [String]?
        var aircraftHeader: [String: Int] = [:]
        var aircraftInfo: [String: Aircraft] = [:]
        var map: HeaderMap?
    }

    static let foreFlightDataTypes: Set<String> = [
        "text", "hhmm", "decimal", "boolean", "date", "integer", "number", "datetime", "packed detail", "yyyy", "yyyy-mm-dd", "hh:mm", "",
    ]

    mutating func readForeFlight(_ row: (line: Int, fields: [String])) throws {
        let first = row.fields.first?.trimmingCharacters(in: .whitespaces) ?? ""
        if first == "Aircraft Table" || first == "Flights Table" {
            foreFlight.section = first
            foreFlight.header = nil
            return
        }
        if row.fields.allSatisfy({ Self.foreFlightDataTypes.contains($0.trimmingCharacters(in: .whitespaces).lowercased()) }) { return }
        if foreFlight.header == nil {
            foreFlight.header = row.fields
            if foreFlight.section == "Aircraft Table" {
                for (i, h) in row.fields.enumerated() { foreFlight.aircraftHeader[h.trimmingCharacters(in: .whitespaces)] = i }
            } else if foreFlight.section == "Flights Table" {
                let m = HeaderMap(header: row.fields, aliases: format.aliases)
                try requireColumns(m, header: row.fields)
                foreFlight.map = m
            }
            return
        }
        if foreFlight.section == "Aircraft Table" {
            func v(_ k: String) -> String? {
                guard let i = foreFlight.aircraftHeader[k], i < row.fields.count else { return nil }
                let s = row.fields[i].trimmingCharacters(in: .whitespaces)
                return s.isEmpty ? nil : s
            }
            guard let id = v("AircraftID") else { return }
            var a = Aircraft(registration: Aircraft.normalized(id))
            a.make = v("Make")
            a.model = v("Model")
            a.typeDesignator = v("TypeCode")?.uppercased()
            let cls = (v("Class") ?? v("EquipType") ?? "").lowercased()
            if cls.contains("multi") { a.engine = "me" }
            foreFlight.aircraftInfo[a.registration] = a
        } else if foreFlight.section == "Flights Table", let map = foreFlight.map {
            try read(map.row(line: row.line, fields: row.fields), map: map, aircraftInfo: foreFlight.aircraftInfo)
        }
    }

    mutating func read(_ row: MappedRow, map: HeaderMap, aircraftInfo: [String: Aircraft]) throws {
        let read: Result<Entry, RPCError>
        do throws(RPCError) {
            read = .success(try self.entry(row, map: map, aircraftInfo: aircraftInfo))
        } catch {
            read = .failure(error)
        }
        if let aircraft = pendingAircraft {
            pendingAircraft = nil
            try sink.addAircraft(aircraft)
            outcome.aircraftCreated.append(aircraft.registration)
        }
        let entry: Entry
        switch read {
        case .success(let read): entry = read
        case .failure(let error):
            outcome.badRowCount += 1
            if outcome.badRows.count < Self.listedBadRows {
                outcome.badRows.append([
                    "line": .count(row.line), "field": error.data?["param"] ?? .null,
                    "reason": .string(error.message.replacingOccurrences(of: "Invalid params: ", with: "")),
                ])
            }
            return
        }
        if try sink.add(entry) {
            outcome.imported += 1
            if outcome.sample.count < 5 { outcome.sample.append(entry) }
        } else {
            outcome.duplicates += 1
        }
    }

    mutating func entry(_ row: MappedRow, map: HeaderMap, aircraftInfo: [String: Aircraft]) throws(RPCError) -> Entry {
        let values = ValueReader(format: format, headerNames: map.headerNames)
        let date = try values.date(row, "date")

        let isFSTD: Bool
        if format == .native {
            guard let kind = row.text("kind"), let k = EntryKind(rawValue: kind) else {
                throw LogbookParams.kind.invalid("must be flight or fstd")
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
            e.fstdType =
                row.text("fstd_type") ?? row.text("model") ?? device.map(\.displayModel) ?? row.text("type") ?? row.text("registration") ?? "FSTD"
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
            pendingAircraft = a
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
                guard let v = UTCMinute.parseISO(t) else { throw RPCError.invalidParam(field, "is not an ISO 8601 UTC time") }
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
