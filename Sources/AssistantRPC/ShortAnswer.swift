import Foundation

/// What a command that changes something says it did, in a line or two and in the person's
/// terms: "Added 55d1f2 “Linear algebra”: Mon 8 Jan 2035 10:00", "Logged flight 31: LKPR → LKTB,
/// 1:05". Declared with the command (`PluginCommand.says`), published by `help` (`says`) and
/// `rpc.discover` (`x-says`), so the CLI, the web app and the reference pages say the same.
///
/// The templates are `ConfirmSentence`'s: `{name}` is the result's member of that name (a dotted
/// path, `next.start`), else the call's argument; `{#}` is the whole result; `[…]` is left out
/// when a value in it is missing (null, false, empty); the first sentence that fills is said.
/// Formats: `short` (an id's first 6 characters), `day` ("Mon 8 Jan 2035"), `when` ("Mon 8 Jan
/// 2035 10:00", in the daemon's zone), `until` (the end of a span begun by the `when` before it:
/// "11:30" on the same day), `time` ("10:00"), `hm` (minutes as "1:05"), `count` (a list's
/// length), `bytes` ("34 KB"), `list` (items joined), `rule` (a recurrence rule said: "every
/// Monday"), `link` (an address whole, on one line: any other value is cut at 120 characters).
public struct ShortAnswer: Sendable, Equatable {
    public var sentences: [String]

    public init(_ sentences: [String]) { self.sentences = sentences }

    public var json: JSONValue { .array(sentences.map { .string($0) }) }

    public init?(json: JSONValue?) {
        guard let sentences = json?.arrayValue?.compactMap(\.stringValue), !sentences.isEmpty else { return nil }
        self.init(sentences)
    }

    /// The names a sentence reads (each `{name}` or `{name:format}`), for checking declarations.
    public static func names(in sentence: String) -> [(name: String, format: String?)] {
        var names: [(String, String?)] = []
        var rest = Substring(sentence)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let token = rest[rest.index(after: open)..<close].split(separator: ":", maxSplits: 1).map(String.init)
            if let name = token.first { names.append((name, token.count > 1 ? token[1] : nil)) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    public static let formats: Set<String> = ["short", "day", "when", "until", "time", "hm", "count", "bytes", "list", "link", "rule", "if"]

    /// What the call did: the first sentence that fills from its result and its arguments; nil
    /// when none does (the caller then shows the record).
    public func said(result: JSONValue, arguments: [String: JSONValue], zone: TimeZone) -> String? {
        for sentence in sentences {
            // The day the last `day` or `when` value fell on, so that an `until` on the same day says only its time.
            var spanDay: Int?
            let lookup = { (name: String, format: String?) -> String? in
                guard let value = name == "#" ? result : Self.member(name, of: result) ?? arguments[name] else { return nil }
                if format == "until" { return Self.until(value, sameDayAs: spanDay, zone) }
                if format == "when" || format == "day" { spanDay = value.stringValue.flatMap { Self.local($0, zone)?.day } }
                return Self.text(value, format, zone)
            }
            if let text = ConfirmSentence.fill(sentence, lookup) { return text }
        }
        return nil
    }

    /// The end of a span: its time alone on the day the span began, else its day and time; nil for
    /// a date alone (an all-day end, exclusive in iCalendar, would name the day after).
    static func until(_ value: JSONValue, sameDayAs start: Int?, _ zone: TimeZone) -> String? {
        guard let text = value.stringValue, let (day, minute) = local(text, zone), let minute else { return nil }
        let time = String(format: "%02d:%02d", minute / 60, minute % 60)
        return day == start ? time : CivilDate.spoken(days: day) + " " + time
    }

    /// A dotted path's member (`next.start`), nil when any step is missing.
    public static func member(_ path: String, of value: JSONValue) -> JSONValue? {
        var current = value
        for part in path.split(separator: ".") {
            guard let next = current[String(part)] else { return nil }
            current = next
        }
        return current
    }

    /// A value in a sentence; nil for one that is missing (null, false, empty).
    static func text(_ value: JSONValue, _ format: String?, _ zone: TimeZone) -> String? {
        switch (format, value) {
        case (_, .null), (_, .bool(false)): return nil
        // Shows nothing, so that a sentence is said only when a value is there (`{dry_run:if}`).
        case ("if", _): return ""
        case ("count", .array(let items)): return String(items.count)
        case ("short", .string(let id)): return id.isEmpty ? nil : OneLine.flattened(String(id.prefix(6)))
        // Bounded all the same: an address is no place for a novel.
        case ("link", .string(let address)): return address.isEmpty ? nil : OneLine.bounded(address, 4096)
        case ("rule", .string(let rule)): return rule.isEmpty ? nil : RuleSpeech.spoken(rule) ?? "repeats " + OneLine.bounded(rule, 120)
        case ("hm", _):
            guard let minutes = value.intValue ?? value.doubleValue.map({ Int64($0.rounded()) }) else { return nil }
            return "\(minutes / 60):" + String(format: "%02d", abs(minutes % 60))
        case ("bytes", _):
            guard let bytes = value.intValue else { return nil }
            return bytes < 1024 ? "\(bytes) B" : bytes < 1024 * 1024 ? "\(bytes / 1024) KB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
        case ("day", .string(let text)), ("when", .string(let text)), ("time", .string(let text)):
            guard let (day, minute) = Self.local(text, zone) else { return OneLine.bounded(text, ConfirmSentence.valueLimit) }
            let time = minute.map { String(format: "%02d:%02d", $0 / 60, $0 % 60) }
            switch format {
            case "time": return time ?? "all day"
            case "when": return CivilDate.spoken(days: day) + (time.map { " " + $0 } ?? "")
            default: return CivilDate.spoken(days: day)
            }
        default:
            return ConfirmSentence.text(value, nil, isPath: false, { $0 })
        }
    }

    /// A date, an instant (in `zone`) or a wall time without a zone, as a day number and, when it
    /// has one, the minute of that day.
    static func local(_ text: String, _ zone: TimeZone) -> (day: Int, minute: Int?)? {
        if text.count == 10 { return CivilDate.days(iso: text).map { ($0, nil) } }
        guard let day = CivilDate.days(iso: String(text.prefix(10))) else { return nil }
        if let instant = ISO8601.date(text) {
            let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
            let days = Int((Double(seconds) / 86_400).rounded(.down))
            return (days, (seconds - days * 86_400) / 60)
        }
        // A wall time (`2026-12-01T09:00`): already the zone's.
        let clock = text.dropFirst(11).split(separator: ":").prefix(2).compactMap { Int($0) }
        guard text.dropFirst(10).first == "T", clock.count == 2 else { return nil }
        return (day, clock[0] * 60 + clock[1])
    }
}
