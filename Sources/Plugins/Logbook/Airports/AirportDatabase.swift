import Foundation
import PluginKit
import Synchronization

struct Airport: Sendable, Hashable {
    var icao: String
    var iata: String?
    var name: String
    var city: String?
    var country: String?
    var latitude: Double
    var longitude: Double
    var elevationFeet: Int
    var timeZone: String
    var userDefined: Bool
}

/// The bundled airport table, compiled into the binary (`AirportTable.swift`, generated from the
/// MIT-licensed `airportsdata` by `scripts/logbook/generate-airports.py`), so an installed daemon
/// reads no resource file and cannot miss one.
///
/// The rows stay where the compiler put them, in the binary's read-only pages. On first use only
/// two small indexes are built (row offsets, and IATA code to row); an airport is parsed from its
/// row when asked for. That keeps the daemon's private memory at about 0.4 MB for the table
/// instead of a dictionary of 28 000 parsed airports.
final class BundledAirports: Sendable {
    static let shared = BundledAirports(bundledAirportRows)

    /// Start offset of each row, in file order (sorted by ICAO code).
    private let rowStarts: [UInt32]
    private let rowByIATA: [String: Int32]
    private let table: StaticString
    /// Each row's position as a unit vector, made on the first nearest-airport question: 28 000
    /// rows parsed once (about 0.45 MB), rather than on every question.
    private let positions = Mutex<[SIMD3<Float>]?>(nil)

    var count: Int { rowStarts.count }

    init(_ table: StaticString) {
        self.table = table
        var starts: [UInt32] = []
        var iata: [String: Int32] = [:]
        table.withUTF8Buffer { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if end > offset, bytes[offset] != UInt8(ascii: "#") {
                    let row = Int32(starts.count)
                    starts.append(UInt32(offset))
                    // The IATA code is the second field.
                    if let tab = bytes[offset..<end].firstIndex(of: UInt8(ascii: "\t")),
                        let next = bytes[(tab + 1)..<end].firstIndex(of: UInt8(ascii: "\t")), next > tab + 1
                    {
                        iata[String(decoding: bytes[(tab + 1)..<next], as: UTF8.self)] = row
                    }
                }
                offset = end + 1
            }
        }
        rowStarts = starts
        rowByIATA = iata
    }

    /// The airport with this ICAO code (binary search over the sorted rows).
    func airport(icao: String) -> Airport? {
        let key = Array(icao.utf8)
        return table.withUTF8Buffer { bytes -> Airport? in
            var low = 0
            var high = rowStarts.count
            while low < high {
                let mid = (low + high) / 2
                let start = Int(rowStarts[mid])
                let tab = bytes[start...].firstIndex(of: UInt8(ascii: "\t")) ?? start
                let code = bytes[start..<tab]
                if code.elementsEqual(key) { return parse(row: mid, bytes) }
                if code.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
            }
            return nil
        }
    }

    func icao(iata: String) -> String? {
        guard let row = rowByIATA[iata] else { return nil }
        return table.withUTF8Buffer { parse(row: Int(row), $0)?.icao }
    }

    /// Every airport in ICAO order, parsed one at a time as the caller walks. With an ASCII
    /// `candidatesFor` query, rows whose code, name and city cannot match it (ASCII letters
    /// compared without case) are skipped before parsing, so a search parses a handful of rows,
    /// not 28 000.
    func forEach(candidatesFor query: String? = nil, _ body: (Airport) -> Bool) {
        let needle: [UInt8]? = query.flatMap { q in q.utf8.allSatisfy { $0 < 0x80 } ? Array(q.uppercased().utf8) : nil }
        table.withUTF8Buffer { bytes in
            for row in rowStarts.indices {
                if let needle, !mightMatch(row: row, needle, bytes) { continue }
                guard let airport = parse(row: row, bytes) else { continue }
                if !body(airport) { return }
            }
        }
    }

    /// The `limit` airports nearest `point` (a unit vector), nearest first, each with the angle
    /// between them in radians.
    func nearest(to point: SIMD3<Double>, limit: Int) -> [(airport: Airport, angle: Double)] {
        let all = positions.withLock { cached in
            if let cached { return cached }
            let made = table.withUTF8Buffer { bytes in
                rowStarts.indices.map { row -> SIMD3<Float> in
                    // A row that does not parse is put where no question can be nearer to it than to a real airport.
                    guard let a = parse(row: row, bytes) else { return SIMD3(0, 0, 0) }
                    return SIMD3<Float>(GreatCircle.vector(a.latitude, a.longitude))
                }
            }
            cached = made
            return made
        }
        let target = SIMD3<Float>(point)
        // The largest dot products are the smallest angles; a short sorted list of the best so far.
        var best: [(row: Int, dot: Float)] = []
        for (row, position) in all.enumerated() {
            let dot = (position * target).sum()
            guard best.count < limit || dot > best[best.count - 1].dot else { continue }
            let at = best.firstIndex { dot > $0.dot } ?? best.count
            best.insert((row, dot), at: at)
            if best.count > limit { best.removeLast() }
        }
        return table.withUTF8Buffer { bytes in
            best.compactMap { candidate in
                parse(row: candidate.row, bytes).map { a in
                    let dot = min(1, max(-1, (GreatCircle.vector(a.latitude, a.longitude) * point).sum()))
                    return (a, acos(dot))
                }
            }
        }
    }

    private func mightMatch(row: Int, _ needle: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(rowStarts[row])
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        // Fields 0 (ICAO), 2 (name) and 3 (city); the ICAO code only by prefix.
        var field = 0
        var fieldStart = start
        for index in start...end {
            guard index == end || bytes[index] == UInt8(ascii: "\t") else { continue }
            let value = bytes[fieldStart..<index]
            switch field {
            case 0: if value.starts(with: needle) { return true }
            case 2, 3: if Self.containsIgnoringASCIICase(value, needle) { return true }
            default: break
            }
            field += 1
            if field > 3 { return false }
            fieldStart = index + 1
        }
        return false
    }

    private static func containsIgnoringASCIICase(_ haystack: Slice<UnsafeBufferPointer<UInt8>>, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            var j = 0
            while j < needle.count {
                var b = haystack[i + j]
                if b >= 0x61 && b <= 0x7A { b -= 0x20 }
                if b != needle[j] { break }
                j += 1
            }
            if j == needle.count { return true }
            i += 1
        }
        return false
    }

    private func parse(row: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Airport? {
        let start = Int(rowStarts[row])
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        let f = bytes[start..<end].split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        guard f.count == 9 else { return nil }
        func text(_ i: Int) -> String { String(decoding: f[i], as: UTF8.self) }
        func optional(_ i: Int) -> String? { f[i].isEmpty ? nil : text(i) }
        guard let lat = Double(text(5)), let lon = Double(text(6)) else { return nil }
        return Airport(
            icao: text(0), iata: optional(1), name: text(2), city: optional(3), country: optional(4), latitude: lat,
            longitude: lon, elevationFeet: Int(text(7)) ?? 0, timeZone: text(8), userDefined: false)
    }
}

/// A memo of bundled airports by ICAO code (a miss is remembered too).
final class ParsedAirports: Sendable {
    private let memo = Mutex<[String: Airport?]>([:])

    func airport(_ icao: String) -> Airport? {
        if let known = memo.withLock({ $0[icao] }) { return known }
        let found = BundledAirports.shared.airport(icao: icao)
        memo.withLock { $0[icao] = .some(found) }
        return found
    }
}

/// Bundled airports plus the pilot's own (private strips), which win on a clash.
struct AirportLookup: Sendable {
    var user: [String: Airport]

    static func load(_ db: Database) throws -> AirportLookup {
        var user: [String: Airport] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM logbook_airports") {
            let a = Airport(
                icao: row["icao"], iata: row["iata"], name: row["name"], city: nil, country: nil, latitude: row["latitude"],
                longitude: row["longitude"], elevationFeet: row["elevation_ft"], timeZone: row["tz"], userDefined: true)
            user[a.icao] = a
        }
        return AirportLookup(user: user)
    }

    /// Bundled airports already parsed by this lookup: an import asks for the same few airports
    /// on every row, and parsing a row each time cost more than the dictionary this replaced.
    let parsed = ParsedAirports()

    func airport(_ code: String) -> Airport? {
        let key = Aircraft.normalized(code)
        if let own = user[key] { return own }
        return parsed.airport(key)
    }

    /// Resolves an ICAO code (or an IATA code, which logbook exports often use) or fails naming the field.
    func require(_ code: String, field: String) throws(RPCError) -> Airport {
        let key = Aircraft.normalized(code)
        if let a = airport(key) { return a }
        if key.count == 3, let icao = BundledAirports.shared.icao(iata: key), let a = airport(icao) { return a }
        throw RPCError.invalidParam(
            field, "'\(code)' is not a known airport (add a private strip with logbook.airports.add, or search with logbook.airports.search)")
    }

    /// The airports nearest a position, the person's own among the bundled ones (an own airport
    /// replaces the bundled one of its code), nearest first, with their distance in nautical miles.
    func near(latitude: Double, longitude: Double, limit: Int) -> [(airport: Airport, nauticalMiles: Double)] {
        let point = GreatCircle.vector(latitude, longitude)
        let bundled = BundledAirports.shared.nearest(to: point, limit: limit + user.count).filter { user[$0.airport.icao] == nil }
        let own = user.values.map { a in (airport: a, angle: acos(min(1, max(-1, (GreatCircle.vector(a.latitude, a.longitude) * point).sum())))) }
        return (bundled + own).sorted { ($0.angle, $0.airport.icao) < ($1.angle, $1.airport.icao) }.prefix(limit).map {
            ($0.airport, $0.angle * Self.earthRadiusNM)
        }
    }

    /// The mean Earth radius in nautical miles (6 371 km / 1.852).
    static let earthRadiusNM = 3440.065

    func search(_ query: String, limit: Int) -> [Airport] {
        let q = query.trimmingCharacters(in: .whitespaces).uppercased()
        guard !q.isEmpty else { return [] }
        var exact: [Airport] = []
        var prefix: [Airport] = []
        var named: [Airport] = []
        var seen = Set<String>()
        func add(_ a: Airport, to list: inout [Airport]) {
            if seen.insert(a.icao).inserted { list.append(a) }
        }
        if let a = airport(q) { add(a, to: &exact) }
        if let icao = BundledAirports.shared.icao(iata: q), let a = airport(icao) { add(a, to: &exact) }
        func consider(_ a: Airport) -> Bool {
            if a.icao.hasPrefix(q) {
                add(a, to: &prefix)
            } else if a.name.uppercased().contains(q) || (a.city?.uppercased().contains(q) ?? false) {
                add(a, to: &named)
            }
            return exact.count + prefix.count + named.count < limit * 4
        }
        var more = true
        for a in user.values.sorted(by: { $0.icao < $1.icao }) where more { more = consider(a) }
        if more { BundledAirports.shared.forEach(candidatesFor: q) { a in user[a.icao] == nil ? consider(a) : true } }
        return Array((exact + prefix + named).prefix(limit))
    }
}
