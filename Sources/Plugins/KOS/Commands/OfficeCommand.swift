import Foundation
import PluginKit

/// `kos.office`: the study office's hours. KOSapi does not serve them, so they come from the
/// config (`[plugins.kos.office_hours]`, weekday → hours text), checked when the plugin starts.
extension KOSService {
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The configured table in weekday order, or a message naming the key that is wrong.
    static func officeHours(_ table: JSONValue) -> Result<[(day: String, hours: String)], RPCError> {
        guard let object = table.objectValue else {
            return .failure(RPCError.invalidParam(KOSConfig.officeHours.key, "is not a table of weekday → hours"))
        }
        var rows: [(day: String, hours: String)] = []
        for (key, value) in object {
            let lower = key.lowercased()
            guard let day = weekdays.first(where: { $0 == lower || ($0.prefix(3) == lower && lower.count == 3) }) else {
                return .failure(RPCError.invalidParam(KOSConfig.officeHours.key, "'\(key)' is not a weekday (monday … sunday, or mon … sun)"))
            }
            guard let hours = value.stringValue else {
                return .failure(RPCError.invalidParam(KOSConfig.officeHours.key, "\(key)'s hours are not text"))
            }
            rows.append((day, hours))
        }
        return .success(rows.sorted { weekdays.firstIndex(of: $0.day)! < weekdays.firstIndex(of: $1.day)! })
    }

    func office() throws -> OfficeHours {
        let rows = try Self.officeHours(context.config[KOSConfig.officeHours]).get()
        guard !rows.isEmpty else {
            return OfficeHours(
                configured: false, hours: [],
                message:
                    "KOSapi does not serve the study office's hours. "
                    + "Set them in the config: [plugins.kos.office_hours] monday = \"9:00–11:00, 13:00–15:00\""
            )
        }
        return OfficeHours(
            configured: true, hours: rows.map { .init(day: $0.day, weekday: Self.weekdays.firstIndex(of: $0.day)! + 1, hours: $0.hours) })
    }
}
