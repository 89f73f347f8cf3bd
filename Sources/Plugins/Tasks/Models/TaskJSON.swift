import Foundation
import PluginKit

/// The contract's output: UTC instants (`…Z`) with `*_local` wall times and `tz`; dates for all-day.
enum TaskJSON {
    static func occurrenceText(_ wall: WallTime, zone: Zone) -> JSONValue {
        .string(wall.isDate ? wall.text : TimeInput.utcString(zone.instant(wall)))
    }
}
