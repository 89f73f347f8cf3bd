import Foundation

/// The web app's two languages. Every word a page shows is a key of `Catalogue`, in both.
enum Language: String, CaseIterable, Sendable {
    case english = "en"
    case czech = "cs"

    /// The first of `Accept-Language`'s languages the app speaks (`cs-CZ,cs;q=0.9,en;q=0.8`), by
    /// quality; English when none is.
    static func preferred(_ header: String?) -> Language {
        guard let header, header.utf8.count <= 512 else { return .english }
        let ranked = header.split(separator: ",").prefix(32).compactMap { part -> (Language, Double)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased().split(separator: "-").first, let language = Language(rawValue: String(tag)) else { return nil }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (language, quality)
        }
        return ranked.filter { $0.1 > 0 }.max { $0.1 < $1.1 }?.0 ?? .english
    }

    var locale: Locale { Locale(identifier: self == .czech ? "cs_CZ" : "en_GB") }
}
