import Foundation
import PluginKit

/// STAG's value quirks (reference §1.5), read once here so nothing past the client sees them:
/// dates as `{"value": "d.M.yyyy"}` objects or zero-padded strings, times as `{"value": "HH:mm"}`
/// or `"HH:mm:ss"`, numbers as ints or strings (and `"null"`), flags as `A`/`N`, `ANO`/`NE` or
/// JSON booleans.
enum StagValue {
    /// The text inside a `{"value": …}` object, or a plain string.
    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s)?: return s
        case .object(let o)?: return o["value"]?.stringValue
        case .int(let i)?: return String(i)
        default: return nil
        }
    }

    /// `d.M.yyyy` (padded or not, with an optional time after it) → `YYYY-MM-DD`.
    static func date(_ value: JSONValue?) -> String? {
        guard let text = text(value)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return dayMonthYear(String(text.split(separator: " ").first ?? ""))?.iso
    }

    /// `d.M.yyyy H:mm` → `YYYY-MM-DDTHH:MM` (the university's wall clock).
    static func dateTime(_ value: JSONValue?) -> String? {
        guard let text = text(value)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let parts = text.split(separator: " ")
        guard let day = dayMonthYear(String(parts[0]))?.iso else { return nil }
        guard parts.count > 1, let time = time(.string(String(parts[1]))) else { return day + "T00:00" }
        return day + "T" + time
    }

    /// `HH:mm`, `H:mm` or `HH:mm:ss` → `HH:MM`.
    static func time(_ value: JSONValue?) -> String? {
        guard let text = text(value) else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count >= 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return String(format: "%02d:%02d", h, m)
    }

    static func dayMonthYear(_ text: String) -> (year: Int, month: Int, day: Int, iso: String)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let d = Int(parts[0]), let m = Int(parts[1]), let y = Int(parts[2]), (1...31).contains(d), (1...12).contains(m),
            (1900...2999).contains(y)
        else { return nil }
        return (y, m, d, String(format: "%04d-%02d-%02d", y, m, d))
    }

    /// An int, a numeric string, or nil (`null`, `"null"`, `""`).
    static func int(_ value: JSONValue?) -> Int64? {
        switch value {
        case .int(let i)?: return i
        case .double(let d)?: return Int64(d)
        case .string(let s)?: return Int64(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// `A`, `ANO`, `true` → true; `N`, `NE`, `false` → false.
    static func flag(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let b)?: return b
        case .string(let s)?:
            switch s.uppercased() {
            case "A", "ANO", "TRUE": return true
            case "N", "NE", "FALSE": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// A non-empty string.
    static func string(_ value: JSONValue?) -> String? {
        guard let s = value?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty, s != "null" else { return nil }
        return s
    }

    /// STAG's name lists: `'RNDr. Jan Novák, Ph.D.' (100), 'C D' (100)`. The quotes are what
    /// separates names (a title after a comma belongs to its name).
    static func quotedNames(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        var names: [String] = []
        var current: String?
        for character in text {
            if character == "'" {
                if let name = current {
                    names.append(name)
                    current = nil
                } else {
                    current = ""
                }
            } else if current != nil {
                current!.append(character)
            }
        }
        return names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A person object (`ucitel`) as "titles first last, titles".
    static func personName(_ value: JSONValue?) -> String? {
        guard let o = value?.objectValue else { return nil }
        let core = [string(o["titulPred"]), string(o["jmeno"]), string(o["prijmeni"])].compactMap { $0 }.joined(separator: " ")
        guard !core.isEmpty else { return nil }
        return string(o["titulZa"]).map { "\(core), \($0)" } ?? core
    }

    /// A date for STAG's input parameters: `d.M.yyyy` (an ISO date gives STAG's 500).
    static func parameter(_ day: DateOnly) -> String { "\(day.day).\(day.month).\(day.year)" }
}
