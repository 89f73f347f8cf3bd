import Foundation

/// Parameters after validation against a command's `ParamSpec`s: named, typed, defaults applied.
public struct Params: Sendable {
    public let values: [String: JSONValue]

    public init(_ values: [String: JSONValue]) { self.values = values }

    public subscript(name: String) -> JSONValue? {
        guard let v = values[name], v != .null else { return nil }
        return v
    }

    public func string(_ name: String) -> String? { self[name]?.stringValue }
    public func int(_ name: String) -> Int64? { self[name]?.intValue }
    public func double(_ name: String) -> Double? { self[name]?.doubleValue }
    public func bool(_ name: String) -> Bool? { self[name]?.boolValue }
    public func array(_ name: String) -> [JSONValue]? { self[name]?.arrayValue }
    public func object(_ name: String) -> [String: JSONValue]? { self[name]?.objectValue }

    // Required parameters, typed. The validator has normally checked them against the command's
    // `ParamSpec`; these never trust that and never crash: a missing or mistyped value is the
    // same -32602 naming the parameter that the validator would give.

    public func requiredString(_ name: String) throws(RPCError) -> String {
        try required(name, "a string") { $0.stringValue }
    }
    public func requiredInt(_ name: String) throws(RPCError) -> Int64 {
        try required(name, "an integer") { $0.intValue }
    }
    public func requiredDouble(_ name: String) throws(RPCError) -> Double {
        try required(name, "a number") { $0.doubleValue }
    }
    public func requiredBool(_ name: String) throws(RPCError) -> Bool {
        try required(name, "true or false") { $0.boolValue }
    }
    public func requiredArray(_ name: String) throws(RPCError) -> [JSONValue] {
        try required(name, "an array") { $0.arrayValue }
    }
    public func requiredObject(_ name: String) throws(RPCError) -> [String: JSONValue] {
        try required(name, "an object") { $0.objectValue }
    }

    private func required<T>(_ name: String, _ what: String, _ read: (JSONValue) -> T?) throws(RPCError) -> T {
        guard let value = self[name] else { throw RPCError.invalidParam(name, "is required") }
        guard let typed = read(value) else { throw RPCError.invalidParam(name, "must be \(what), got \(value.typeName)") }
        return typed
    }

    /// All parameters as a `Decodable` struct (its `CodingKeys` are the parameter names). A value
    /// that does not fit is a -32602 naming the parameter.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(RPCError) -> T {
        do {
            return try JSONValue.object(values).decode(as: T.self)
        } catch let error as DecodingError {
            let (path, reason): ([any CodingKey], String) =
                switch error {
                case .keyNotFound(let key, let c): (c.codingPath + [key], "is required")
                case .typeMismatch(let type, let c): (c.codingPath, "must be \(Self.describe(type))")
                case .valueNotFound(let type, let c): (c.codingPath, "must be \(Self.describe(type)), got null")
                case .dataCorrupted(let c): (c.codingPath, c.debugDescription)
                @unknown default: ([], "is not valid")
                }
            let name = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
            throw RPCError.invalidParam(name.isEmpty ? "params" : name, reason)
        } catch {
            throw RPCError.invalidParams(ErrorText.sentence(error))
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        default: "a \(type)"
        }
    }
}

public enum ParamValidator {
    /// Validates `raw` (an object, an array, or absent) against `specs`.
    public static func validate(_ raw: JSONValue?, against specs: [ParamSpec], method: String) throws(RPCError) -> Params {
        var named: [String: JSONValue] = [:]
        switch raw {
        case nil, .null?:
            break
        case .object(let object)?:
            let known = Set(specs.map(\.name))
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                let list = specs.isEmpty ? "none" : specs.map(\.name).joined(separator: ", ")
                throw RPCError.invalidParam(unknown, "is not a parameter of '\(method)' (parameters: \(list))")
            }
            named = object
        case .array(let items)?:
            if items.count > specs.count {
                throw RPCError.invalidParams(
                    "'\(method)' takes at most \(specs.count) positional parameter\(specs.count == 1 ? "" : "s"), got \(items.count)")
            }
            for (spec, item) in zip(specs, items) where item != .null {
                named[spec.name] = item
            }
        case let other?:
            throw RPCError.invalidRequest("params must be an object or an array, got \(other.typeName)")
        }

        var result: [String: JSONValue] = [:]
        for spec in specs {
            if let value = named[spec.name], value != .null {
                result[spec.name] = try check(value, spec.type, name: spec.name)
            } else if spec.required {
                throw RPCError.invalidParam(spec.name, "is required (\(spec.help))")
            } else if let d = spec.defaultValue {
                result[spec.name] = d
            }
        }
        return Params(result)
    }

    package static func check(_ value: JSONValue, _ type: ParamType, name: String) throws(RPCError) -> JSONValue {
        func wrong(_ expected: String) -> RPCError {
            RPCError.invalidParam(name, "must be \(expected), got \(value.typeName)")
        }
        switch type {
        case .any:
            return value
        case .string, .path, .secret:
            guard case .string(let s) = value else { throw wrong("a string") }
            if type == .path && s.isEmpty { throw RPCError.invalidParam(name, "must be a non-empty path") }
            if type == .path && !s.hasPrefix("/") {
                throw RPCError.invalidParam(name, "must be an absolute path (the daemon does not know your working directory)")
            }
            return value
        case .integer(let min, let max):
            guard case .int(let i) = value else { throw wrong("an integer") }
            if let min, i < min { throw RPCError.invalidParam(name, "must be at least \(min), got \(i)") }
            if let max, i > max { throw RPCError.invalidParam(name, "must be at most \(max), got \(i)") }
            return value
        case .number(let min, let max):
            guard let d = value.doubleValue else { throw wrong("a number") }
            if let min, d < min { throw RPCError.invalidParam(name, "must be at least \(min.formatted()), got \(d.formatted())") }
            if let max, d > max { throw RPCError.invalidParam(name, "must be at most \(max.formatted()), got \(d.formatted())") }
            return value
        case .boolean:
            guard case .bool = value else { throw wrong("true or false") }
            return value
        case .object:
            guard case .object = value else { throw wrong("an object") }
            return value
        case .array(let element):
            guard case .array(let items) = value else { throw wrong("an array") }
            if let element {
                for (i, item) in items.enumerated() { _ = try check(item, element, name: "\(name)[\(i)]") }
            }
            return value
        case .oneOf(let choices):
            guard case .string(let s) = value else { throw wrong("one of \(choices.joined(separator: ", "))") }
            guard choices.contains(s) else {
                // The choices are all listed: the closest is named unless nothing in it is kept.
                let guess = Nearest.word(to: s, among: choices, within: s.count - 1).map { "; did you mean \($0)?" } ?? ""
                throw RPCError.invalidParam(name, "must be one of \(choices.joined(separator: ", ")), got '\(s)'\(guess)")
            }
            return value
        case .duration:
            switch value {
            case .int(let i) where i >= 0: return value
            case .int: throw RPCError.invalidParam(name, "must not be negative")
            case .string: return value
            case .double:
                throw RPCError.invalidParam(
                    name, "is a non-integer number; give whole minutes as an integer (90) or hours as a string (\"1:30\" or \"1.5\")")
            default: throw wrong("a duration: minutes as an integer, or hours as a string like \"1:30\"")
            }
        case .date:
            guard case .string(let s) = value, DateOnly(s) != nil else { throw RPCError.invalidParam(name, "must be a date YYYY-MM-DD") }
            return value
        case .dateTime:
            guard case .string(let s) = value, ISO8601.date(s) != nil else {
                throw RPCError.invalidParam(name, "must be an ISO 8601 date-time such as 2026-01-31T14:05:00Z")
            }
            return value
        }
    }
}

/// A calendar date without a time, as `YYYY-MM-DD`.
public struct DateOnly: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int, month: Int, day: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), d >= 1
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: y, month: m, day: d)),
            calendar.component(.day, from: date) == d
        else { return nil }
        year = y
        month = m
        day = d
    }

    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }
    public static func < (a: DateOnly, b: DateOnly) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// A date known to be valid (from a calendar computation).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The calendar date of `date` in `zone`.
    public init(_ date: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: c.year!, month: c.month!, day: c.day!)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private var noonUTC: Date { Self.utc.date(from: DateComponents(year: year, month: month, day: day, hour: 12))! }

    public func adding(days: Int) -> DateOnly {
        DateOnly(Self.utc.date(byAdding: .day, value: days, to: noonUTC)!, in: Self.utc.timeZone)
    }

    /// Whole days from this date to `other` (negative when `other` is earlier).
    public func days(to other: DateOnly) -> Int {
        Int((other.noonUTC.timeIntervalSince(noonUTC) / 86_400).rounded())
    }

    /// Monday = 0 … Sunday = 6.
    public var weekdayFromMonday: Int { (Self.utc.component(.weekday, from: noonUTC) + 5) % 7 }

    /// The instant of wall-clock time `HH:MM` on this date in `zone`; nil for a malformed time.
    /// A time inside a spring-forward gap is the one Foundation picks (after the gap).
    public func at(_ time: String, in zone: TimeZone) -> Date? {
        let hm = time.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2 || hm.count == 3, hm[0].count == 2, hm[1].count == 2, let hour = Int(hm[0]), let minute = Int(hm[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))
    }

    /// `YYYY-MM-DDTHH:MM` (or with seconds) on the wall clock of `zone` → an instant.
    public static func instant(_ text: String, in zone: TimeZone) -> Date? {
        let parts = text.split(separator: "T")
        guard parts.count == 2, let day = DateOnly(String(parts[0])) else { return nil }
        return day.at(String(parts[1].prefix(5)), in: zone)
    }
}
