import Foundation
import PluginKit

/// The ZČU canteen menu (reference §3.19): a separate, anonymous ZČU service, not STAG.
extension StagService {
    func canteen(_ params: Params) async throws -> JSONValue {
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
            let menu: [String: JSONValue]
            do {
                guard let object = try response.decodedJSON()?.objectValue else { throw StagError.canteen("\(client.origin) answered no JSON menu") }
                menu = object
            } catch let error as JSONParseError {
                throw StagError.canteen("\(client.origin) answered no JSON menu (\(error))")
            }
            return [
                "canteen": .string(which), "day": .int(day), "soups": .array((menu["soups"]?.arrayValue ?? []).map(Self.meal)),
                "main_courses": .array((menu["mainCourses"]?.arrayValue ?? []).map(Self.meal)),
            ]
        }
    }

    static func meal(_ json: JSONValue) -> JSONValue {
        [
            "number": StagValue.int(json["number"]).map(JSONValue.int) ?? .null,
            "name": field(json["name"]),
            "allergens": .array(
                (json["allergens"]?.arrayValue ?? []).map {
                    ["number": StagValue.int($0["number"]).map(JSONValue.int) ?? .null, "name": field($0["name"])]
                }),
            "prices": .array(
                (json["prices"]?.arrayValue ?? []).map {
                    ["type": field($0["type"]), "price": $0["price"]?.doubleValue.map(JSONValue.double) ?? .null]
                }),
        ]
    }
}
