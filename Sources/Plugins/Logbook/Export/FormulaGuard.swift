/// Keeps a spreadsheet from running a text cell as a formula (OWASP "CSV injection"): a cell
/// that would start with `=`, `+`, `-`, `@`, a tab or a carriage return once its leading quotes
/// are set aside gets one more `'` in front. The native import takes exactly that one quote
/// away again, so what was written comes back as it was, a remark that itself starts with
/// `'=` included.
enum FormulaGuard {
    static let triggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    static func startsLikeAFormula(_ text: Substring) -> Bool {
        text.drop { $0 == "'" }.first.map(triggers.contains) ?? false
    }

    /// The text as written to a cell.
    static func neutralised(_ text: String) -> String {
        startsLikeAFormula(text[...]) ? "'" + text : text
    }

    /// The text a native cell stands for.
    static func restored(_ cell: String) -> String {
        cell.first == "'" && startsLikeAFormula(cell.dropFirst()) ? String(cell.dropFirst()) : cell
    }
}
