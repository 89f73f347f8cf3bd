/// Text from outside (a remote service, a model's argument, a file name) kept on one line where
/// a line break would change what a reader sees: a mail header, the question a person confirms.
/// By scalar: Swift reads "\r\n" as one `Character`.
public enum OneLine {
    /// What ends a line or hides in one: every control character (C0, DEL, C1) and the Unicode
    /// line and paragraph separators.
    public static func breaks(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// The text with each of those as a space.
    public static func flattened(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: breaks) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { breaks($0) ? " " : $0 }))
    }

    /// Flattened, and cut at `limit` characters with "…".
    public static func bounded(_ text: String, _ limit: Int) -> String {
        let line = flattened(text)
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }
}
