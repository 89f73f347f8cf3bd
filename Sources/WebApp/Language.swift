import Foundation
import HostCore

/// The web app's two languages, the ones notices speak too. Every word a page shows is a key of
/// `Catalogue`, in both.
typealias Language = LanguageCode

extension LanguageCode {
    /// The first of `Accept-Language`'s languages the app speaks (`cs-CZ,cs;q=0.9,en;q=0.8`), by
    /// quality; English when none is.
    static func preferred(_ header: String?) -> LanguageCode {
        guard let header, header.utf8.count <= 512 else { return .en }
        let ranked = header.split(separator: ",").prefix(32).compactMap { part -> (LanguageCode, Double)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased().split(separator: "-").first, let language = LanguageCode(rawValue: String(tag)) else {
                return nil
            }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (language, quality)
        }
        return ranked.filter { $0.1 > 0 }.max { $0.1 < $1.1 }?.0 ?? .en
    }

    var locale: Locale { Locale(identifier: self == .cs ? "cs_CZ" : "en_GB") }
}
