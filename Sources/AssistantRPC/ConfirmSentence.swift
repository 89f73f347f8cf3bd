import Foundation

/// The question a person answers before a destructive call runs, declared with the command and
/// published by `help` and `rpc.discover` (`x-confirm`): "Mail report.pdf (34 KB) to
/// x@example.org?", "Register for KIV/PT, exam on Mon 12 Jan 2035 09:00?".
///
/// Each sentence is a template. `{name}` is the call's argument of that name, or a member of
/// the `details` read's answer (the method named, called with the same arguments: an exam
/// term's subject and date for a call that gives only its id). `{name:day}` shows an ISO date
/// as "Mon 12 Jan 2035". `[…]` is left out when a value inside it is missing. The first
/// sentence whose every value outside `[…]` is there is the one asked. Written by hand: the
/// mustache library would need a section per value, and the templates are read by people in
/// the reference pages too.
public struct ConfirmSentence: Sendable, Equatable {
    public var sentences: [String]
    /// A read method whose answer fills the placeholders the arguments do not.
    public var details: String?
    /// A filled-in value longer than this is cut with "…": it may be a model's or a service's text.
    static let valueLimit = 120

    public init(_ sentences: [String], details: String? = nil) {
        self.sentences = sentences
        self.details = details
    }

    /// `{"sentences": [...], "details": "stag.exams.term"}`.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["sentences": .array(sentences.map { .string($0) })]
        if let details { object["details"] = .string(details) }
        return .object(object)
    }

    public init?(json: JSONValue?) {
        guard let sentences = json?["sentences"]?.arrayValue?.compactMap(\.stringValue), !sentences.isEmpty else { return nil }
        self.init(sentences, details: json?["details"]?.stringValue)
    }

    /// The question for a call: the first sentence that fills, or nil when none does.
    /// `describePath` shows a path argument (a name and its size); every other value is shown on
    /// one line and bounded, since arguments may be a model's and details a remote service's.
    public func filled(
        arguments: [String: JSONValue], details: [String: JSONValue] = [:], pathParams: Set<String> = [],
        describePath: (String) -> String = { $0 }
    ) -> String? {
        let lookup = { (name: String, format: String?) -> String? in
            if let value = arguments[name], let text = Self.text(value, format, isPath: pathParams.contains(name), describePath) {
                return text
            }
            return details[name].flatMap { Self.text($0, format, isPath: false, describePath) }
        }
        for sentence in sentences {
            if let text = Self.fill(sentence, lookup) { return text }
        }
        return nil
    }

    /// The template with its values put in, or nil when a value outside `[…]` is missing.
    static func fill(_ template: String, _ lookup: (String, String?) -> String?) -> String? {
        var output = ""
        var optional: String?
        var optionalComplete = true
        var rest = Substring(template)
        while let next = rest.first {
            rest = rest.dropFirst()
            switch next {
            case "[":
                optional = ""
                optionalComplete = true
            case "]":
                if let part = optional, optionalComplete { output += part }
                optional = nil
            case "{":
                guard let close = rest.firstIndex(of: "}") else { return nil }
                let token = rest[..<close].split(separator: ":", maxSplits: 1).map(String.init)
                rest = rest[rest.index(after: close)...]
                let value = token.first.flatMap { lookup($0, token.count > 1 ? token[1] : nil) }
                if optional != nil {
                    if let value { optional! += value } else { optionalComplete = false }
                } else {
                    guard let value else { return nil }
                    output += value
                }
            default:
                if optional != nil { optional!.append(next) } else { output.append(next) }
            }
        }
        return output
    }

    /// A value as a person reads it in one sentence; nil for a value that is missing (null, an
    /// empty list or text).
    static func text(_ value: JSONValue, _ format: String?, isPath: Bool, _ describePath: (String) -> String) -> String? {
        switch value {
        case .null: return nil
        case .array(let items):
            let parts = items.compactMap { text($0, format, isPath: isPath, describePath) }
            guard !parts.isEmpty else { return nil }
            let shown = parts.prefix(5)
            let more = parts.count > shown.count ? " and \(parts.count - shown.count) more" : ""
            if shown.count == 1 { return shown[0] + more }
            return shown.dropLast().joined(separator: ", ") + (more.isEmpty ? " and \(shown.last!)" : ", \(shown.last!)\(more)")
        case .string(let string):
            guard !string.isEmpty else { return nil }
            if isPath { return describePath(string) }
            if format == "day", let day = CivilDate.days(iso: String(string.prefix(10))) { return CivilDate.spoken(days: day) }
            return OneLine.bounded(string, Self.valueLimit)
        // `{flag:if}` begins a sentence that is asked only when the flag is true.
        case .bool(let flag) where format == "if": return flag ? "" : nil
        case .bool(let flag): return flag ? "yes" : "no"
        default: return OneLine.bounded(value.encodedString(), Self.valueLimit)
        }
    }
}
