import Foundation
import HostCore

/// Every word the web app shows, one catalogue per language (`Resources/en.json`, `cs.json`,
/// embedded in the binary): a page names a key, never a sentence.
struct Catalogue: Sendable {
    let entries: [Language: [String: String]]

    static let shared = Catalogue(entries: [
        .en: Self.load(PackageResources.en_json), .cs: Self.load(PackageResources.cs_json),
    ])

    static func load(_ bytes: [UInt8]) -> [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(bytes))) ?? [:]
    }

    /// The key's text with `{name}` filled from `values`; the key itself when a language lacks it
    /// (which a test forbids).
    func text(_ key: String, _ language: Language, _ values: [String: String] = [:]) -> String {
        Words.fill(entries[language]?[key] ?? entries[.en]?[key] ?? key, values)
    }

    /// A language's whole catalogue, for a template (`{{t.nav.today}}` is `t`'s `nav.today`).
    func all(_ language: Language) -> [String: String] { entries[language] ?? [:] }
}
