import Foundation
import PluginKit

/// The iCalendar reader as the parser fuzz target (`Fuzz/ParserFuzz`) feeds it (imports, feeds
/// and CalDAV all read through it). One `package` entry, so the reader stays internal.
package enum TasksFuzzing {
    private static let now = Date(timeIntervalSince1970: 1_780_000_000)
    private static let utc = Zone(TimeZone(identifier: "UTC") ?? .current)

    package static func parseCalendar(_ body: [UInt8]) {
        let reader = ICSReader(text: String(decoding: body, as: UTF8.self), defaultZone: utc, now: now)
        _ = reader.items.count + reader.problems.count
    }
}
