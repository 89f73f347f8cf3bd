/// The known word nearest a mistyped one, for "did you mean": `tasks.lst` → `tasks.list`,
/// `tomorow` → `tomorrow`, `stauts` → `status`. The distance counts an insertion, a deletion, a
/// substitution or two neighbours swapped as one edit (optimal string alignment); a longer word
/// may be further off. Written here: no package in reach offers it, and it is twenty lines.
public enum Nearest {
    /// The nearest of `known` within the allowed distance (the first in order on a tie), or nil.
    /// By default a few edits, more for a longer word; a short list of choices, all shown anyway,
    /// may allow more (`within`). A word longer than 64 characters is nobody's typo of a name:
    /// nothing is worked out.
    public static func word(to typed: String, among known: some Sequence<String>, within: Int? = nil) -> String? {
        let typed = Array(typed.unicodeScalars)
        guard (1...64).contains(typed.count) else { return nil }
        let allowed = within ?? (typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3)
        var best: (word: String, distance: Int)?
        for word in known where word.unicodeScalars.count <= typed.count + allowed {
            let distance = Self.distance(typed, Array(word.unicodeScalars))
            if distance > 0, distance <= allowed, distance < best?.distance ?? .max { best = (word, distance) }
        }
        return best?.word
    }

    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // Three rows of the table: two back, one back, this one.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var oneBack = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(oneBack[j] + 1, row[j - 1] + 1, oneBack[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], twoBack[j - 2] + 1) }
            }
            (twoBack, oneBack, row) = (oneBack, row, twoBack)
        }
        return oneBack[b.count]
    }
}
