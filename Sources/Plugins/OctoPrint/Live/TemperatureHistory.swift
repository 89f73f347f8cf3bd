import Foundation
import PluginKit

/// A printer's temperatures over time, as the live monitor sees them: OctoPrint's push API
/// sends a reading about every second or two (`current.temps`), and a history when a socket
/// opens (`history.temps`); polling adds one reading each time. Kept in a ring of at most
/// `capacity` readings, so a printer left on for months costs the same as one left for an hour.
struct TemperatureHistory: Sendable {
    struct Reading: Sendable, Equatable {
        var time: Date
        /// Heater name (`tool0`, `bed`, `chamber`) → (actual, target).
        var heaters: [String: Heater]
    }

    struct Heater: Sendable, Equatable {
        var actual: Double
        var target: Double?
    }

    /// Two hours at OctoPrint's pace of about one reading a second.
    static let capacity = 7_200
    /// A reading names at most this many heaters (a printer has a few; anything more is not a printer's).
    static let heatersPerReading = 16

    private var ring: [Reading] = []
    private var next = 0

    var count: Int { ring.count }

    /// Readings from `since` on, oldest first.
    func readings(since: Date) -> [Reading] {
        let ordered = ring.count < Self.capacity ? ring : Array(ring[next...] + ring[..<next])
        return ordered.filter { $0.time >= since }
    }

    /// Keeps `reading` unless it is not newer than the newest kept (the same reading from the
    /// push API and a poll, or a history that overlaps what was seen).
    mutating func add(_ reading: Reading) {
        if let newest = newest, reading.time <= newest { return }
        if ring.count < Self.capacity {
            ring.append(reading)
        } else {
            ring[next] = reading
            next = (next + 1) % Self.capacity
        }
    }

    var newest: Date? { ring.isEmpty ? nil : ring[(next + ring.count - 1) % ring.count].time }

    /// OctoPrint's list of readings (`temps`, `history`): `[{time, tool0: {actual, target}, …}]`.
    /// Only the last `capacity` are read.
    static func readings(_ list: JSONValue?) -> [Reading] {
        (list?.arrayValue ?? []).suffix(capacity).compactMap { item -> Reading? in
            guard let time = item["time"]?.doubleValue else { return nil }
            return reading(item, at: Date(timeIntervalSince1970: time))
        }
    }

    /// One reading in OctoPrint's form (`/api/printer`'s `temperature`, or an item of `temps`).
    static func reading(_ object: JSONValue?, at time: Date) -> Reading? {
        var heaters: [String: Heater] = [:]
        for (name, value) in (object?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) where name != "time" && name.count <= 32 {
            guard heaters.count < heatersPerReading, let actual = value["actual"]?.doubleValue, actual.isFinite else { continue }
            heaters[name] = Heater(actual: actual, target: value["target"]?.doubleValue.flatMap { $0.isFinite ? $0 : nil })
        }
        return heaters.isEmpty ? nil : Reading(time: time, heaters: heaters)
    }
}
