import Foundation
import PluginKit

/// Durations travel as integer minutes. Input accepts a JSON integer (minutes), `H:MM`, or decimal
/// hours as a string (`"1.42"`, rounded to the nearest minute). A non-integer JSON number is refused
/// because `1.5` is ambiguous between hours and minutes.
enum Minutes {
    static let forms = "give minutes as a JSON integer (90) or hours as a string, \"1:30\" or \"1.5\""

    static func parse(_ value: JSONValue, field: String) throws(RPCError) -> Int {
        switch value {
        case .int(let i):
            guard i >= 0 else { throw RPCError.invalidParam(field, "must not be negative, got \(i)") }
            guard i <= 100_000_000 else { throw RPCError.invalidParam(field, "is implausibly large (\(i) minutes)") }
            return Int(i)
        case .double(let d):
            throw RPCError.invalidParam(field, "is a non-integer number (\(d)); \(forms)")
        case .string(let s):
            guard let minutes = parse(text: s) else {
                throw RPCError.invalidParam(field, "'\(s)' is not a duration; \(forms)")
            }
            return minutes
        default:
            throw RPCError.invalidParam(field, "must be a duration, got \(value.typeName); \(forms)")
        }
    }

    /// `H:MM` / `HH:MM` / `HHH:MM`, decimal hours `1.42`, or whole hours `2`; nil when malformed.
    static func parse(text raw: String) -> Int? {
        let s = raw.trimmedFast
        if s.isEmpty { return nil }
        if let colon = s.firstIndex(of: ":") {
            let h = s[..<colon]
            let m = s[s.index(after: colon)...]
            guard !h.isEmpty, h.allSatisfy(\.isASCIIDigitChar), m.count == 2, m.allSatisfy(\.isASCIIDigitChar),
                let hours = Int(h), let minutes = Int(m), minutes < 60, hours < 1_000_000
            else { return nil }
            return hours * 60 + minutes
        }
        guard s.allSatisfy({ $0.isASCIIDigitChar || $0 == "." }), s.filter({ $0 == "." }).count <= 1,
            s.first != ".", let hours = Double(s), hours < 1_000_000
        else { return nil }
        return Int((hours * 60).rounded())
    }

    static func hhmm(_ minutes: Int) -> String {
        "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
    }
}

extension Character {
    var isASCIIDigitChar: Bool { isASCII && isNumber }
}

extension String {
    /// Spaces and tabs trimmed; returns the string itself when there are none, which is nearly
    /// always the case in imports (Foundation's `trimmingCharacters` bridges every call).
    var trimmedFast: String {
        let u = utf8
        guard let first = u.first, let last = u.last else { return "" }
        if first != 32 && first != 9 && last != 32 && last != 9 { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}
