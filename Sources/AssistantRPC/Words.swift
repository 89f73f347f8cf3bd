/// The languages the assistant speaks to its person: notices follow the config's `language`, the
/// web app each device's choice.
public enum LanguageCode: String, Sendable, CaseIterable, Codable {
    case en, cs
}

/// Words in both languages, owned where they are said: a plugin's notices and pages carry their
/// own words, so no catalogue outside the plugin knows them.
public struct Words: Sendable, Equatable, ResultObject {
    public var en: String
    public var cs: String

    public init(_ en: String, _ cs: String) { (self.en, self.cs) = (en, cs) }

    public static let members = ResultMembers<Self>(.field("en", \.en), .field("cs", \.cs))

    public func text(_ language: LanguageCode) -> String { language == .cs ? cs : en }

    /// The words with each `{name}` replaced by its value, in `language`.
    public func text(_ language: LanguageCode, _ values: [String: String]) -> String { Self.fill(text(language), values) }

    /// `template` with each `{name}` replaced by its value, in one pass: a value (a task's title,
    /// a device's name) is never read for placeholders itself. An unknown `{name}` stays as written.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] else {
                result.append("{")
                rest = rest[afterOpen...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
