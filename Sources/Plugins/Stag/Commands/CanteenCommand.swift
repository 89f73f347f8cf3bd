import Foundation
import PluginKit

/// The ZČU canteen menu (reference §3.19): a separate, anonymous ZČU service, not STAG.
extension StagService {
    func canteen(_ params: Params) async throws -> Cached<CanteenMenu> {
        let which = try params[StagParams.canteen].uppercased()
        let day = params[StagParams.day] ?? 0
        let base = context.config[StagConfig.canteenURL]
        let client = try UpstreamClient(
            plugin: "stag", configuration: .init(baseURL: base, timeout: context.httpTimeout), http: context.http, clock: context.clock)
        return try await context.cache.read(
            account: nil, key: ReadCache.key("canteen", ["canteen": .string(which), "day": .int(day), "lang": .string(language)])
        ) {
            let response = try await client.get(
                which, query: [("daysShift", String(day)), ("lang", language)], headers: ["Accept": "application/json"])
            guard (200..<300).contains(response.status) else {
                if response.status >= 500 { throw client.unreachable("answered \(response.status)", status: response.status) }
                throw StagError.canteen("\(client.origin) answered \(response.status)")
            }
            let menu: StagRow.Menu
            do {
                guard let json = try response.decodedJSON(), let decoded = JSONTreeDecoder.row(json, as: StagRow.Menu.self) else {
                    throw StagError.canteen("\(client.origin) answered no JSON menu")
                }
                menu = decoded
            } catch let error as JSONParseError {
                throw StagError.canteen("\(client.origin) answered no JSON menu (\(error))")
            }
            return CanteenMenu(
                canteen: which, day: day, soups: menu.soups.map(CanteenMenu.Meal.init), mainCourses: menu.mainCourses.map(CanteenMenu.Meal.init))
        }
    }
}
