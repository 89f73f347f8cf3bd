import Foundation
import PluginKit

/// The contract's output: UTC instants (`…Z`) with `*_local` wall times and `tz`; dates for all-day.
enum TaskJSON {
    /// A task as a value (`TaskRow` writes the fields); `current` when the caller has it already.
    static func task(_ t: TaskItem, now: Date, defaultChannels: [String], current known: Occurrence?? = nil) -> JSONValue {
        TaskRow(t, now: now, defaultChannels: defaultChannels, current: known).json
    }

    static func occurrenceText(_ wall: WallTime, zone: Zone) -> JSONValue {
        .string(wall.isDate ? wall.text : TimeInput.utcString(zone.instant(wall)))
    }
}
