import Foundation
import HostCore

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

    var json: JSONValue {
        [
            "icao": .string(icao), "iata": iata.map(JSONValue.string) ?? .null, "name": .string(name),
            "city": city.map(JSONValue.string) ?? .null, "country": country.map(JSONValue.string) ?? .null,
            "latitude": .double(latitude), "longitude": .double(longitude), "elevation_ft": .int(Int64(elevationFeet)),
            "tz": .string(timeZone), "source": .string(userDefined ? "user" : "bundled"),
        ]
    }
}

/// The bundled airport table (`Resources/airports.tsv`, generated from the MIT-licensed
/// `airportsdata` by `scripts/logbook/generate-airports.py`), loaded once per process.
final class BundledAirports: Sendable {
    static let shared = BundledAirports()
    static var resource: URL? { Bundle.module.url(forResource: "airports", withExtension: "tsv") }

    let byICAO: [String: Airport]
    let byIATA: [String: String]
    /// By ICAO code, for search (sorted once, not on every query).
    let sorted: [Airport]

    private init() {
        var icao: [String: Airport] = [:], iata: [String: String] = [:]
        if let url = BundledAirports.resource,
            let text = try? String(contentsOf: url, encoding: .utf8)
        {
            icao.reserveCapacity(30_000)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard f.count == 9, let lat = Double(f[5]), let lon = Double(f[6]) else { continue }
                let a = Airport(
                    icao: String(f[0]), iata: f[1].isEmpty ? nil : String(f[1]), name: String(f[2]),
                    city: f[3].isEmpty ? nil : String(f[3]), country: f[4].isEmpty ? nil : String(f[4]),
                    latitude: lat, longitude: lon, elevationFeet: Int(f[7]) ?? 0, timeZone: String(f[8]), userDefined: false)
                icao[a.icao] = a
                if let code = a.iata { iata[code] = a.icao }
            }
        }
        // A missing table is refused at setup (`LogbookPlugin.setup` checks the resource).
        byICAO = icao
        byIATA = iata
        sorted = icao.values.sorted { $0.icao < $1.icao }
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

    func airport(_ code: String) -> Airport? {
        let key = Aircraft.normalized(code)
        return user[key] ?? BundledAirports.shared.byICAO[key]
    }

    /// Resolves an ICAO code (or an IATA code, which logbook exports often use) or fails naming the field.
    func require(_ code: String, field: String) throws(RPCError) -> Airport {
        let key = Aircraft.normalized(code)
        if let a = airport(key) { return a }
        if key.count == 3, let icao = BundledAirports.shared.byIATA[key], let a = airport(icao) { return a }
        throw RPCError.invalidParam(
            field, "'\(code)' is not a known airport (add a private strip with logbook.airports.add, or search with logbook.airports.search)")
    }

    func search(_ query: String, limit: Int) -> [Airport] {
        let q = query.trimmingCharacters(in: .whitespaces).uppercased()
        guard !q.isEmpty else { return [] }
        var exact: [Airport] = [], prefix: [Airport] = [], named: [Airport] = []
        var seen = Set<String>()
        func add(_ a: Airport, to list: inout [Airport]) {
            if seen.insert(a.icao).inserted { list.append(a) }
        }
        if let a = airport(q) { add(a, to: &exact) }
        if let icao = BundledAirports.shared.byIATA[q], let a = airport(icao) { add(a, to: &exact) }
        let own = user.values.sorted { $0.icao < $1.icao }
        for a in own + BundledAirports.shared.sorted.lazy.filter({ user[$0.icao] == nil }) {
            if a.icao.hasPrefix(q) { add(a, to: &prefix) }
            else if a.name.uppercased().contains(q) || (a.city?.uppercased().contains(q) ?? false) { add(a, to: &named) }
            if exact.count + prefix.count + named.count >= limit * 4 { break }
        }
        return Array((exact + prefix + named).prefix(limit))
    }
}
