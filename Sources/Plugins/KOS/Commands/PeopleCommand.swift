import Foundation
import PluginKit

/// `kos.people.search {q?, division?, limit?}`: people by name or username, or the teachers of a
/// division. The match is diacritics-insensitive on our side whatever KOSapi's own matching
/// does: the RSQL pattern sent is widened (every letter that has an accented form in Czech is a
/// one-character wildcard), and the pages are filtered here with folded text until `limit`.
extension KOSService {
    func peopleSearch(_ params: Params) async throws -> Cached<People> {
        let words = Self.searchWords(params[KOSParams.query] ?? "")
        if let q = params[KOSParams.query], words.joined().count < 2 {
            throw KOSParams.query.invalid("is too short ('\(q)'): give at least two letters of a name or username")
        }
        let division = try params[KOSParams.division].map { text throws(RPCError) in
            guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw KOSParams.division.invalid("'\(text)' is not a division code such as 18102")
            }
            return text
        }
        guard !words.isEmpty || division != nil else { throw KOSParams.query.invalid("give a name or username to search for, or a division") }
        let limit = Int(params[KOSParams.limit] ?? 200)
        let key = ReadCache.key(
            "people", ["q": .string(words.joined(separator: " ")), "division": division.map(JSONValue.string) ?? .null, "limit": .int(Int64(limit))])
        return try await context.cache.read(account: nil, key: key) {
            People(people: try await people(words: words, division: division, limit: limit))
        }
    }

    /// Lower-cased, accents removed, split on anything that is not a letter, digit or apostrophe
    /// (so `*` and `_` never reach the pattern as wildcards).
    static func searchWords(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    }

    /// `*n_v_k*` for "novak": a letter with a Czech accented form may be either.
    static func widened(_ word: String) -> String {
        "*" + String(word.map { "acdeinorstuyz".contains($0) ? "_" : $0 }) + "*"
    }

    func people(words: [String], division: String?, limit: Int) async throws -> [Person] {
        let client = try await api(.publicData)
        // A person has no multilingual text: the language is not read.
        func person(_ entry: AtomDocument.Entry) -> KOSRow.Person? { entry.row(KOSRow.Person.self, language: "") }
        func matches(_ entry: AtomDocument.Entry) -> Bool {
            guard let p = person(entry) else { return false }
            let haystack = Self.fold([p.firstName, p.lastName, p.username].compactMap { $0 }.joined(separator: " "))
            return words.allSatisfy(haystack.contains)
        }
        let page = [("limit", String(min(limit, 1000)))]
        if let division {
            let teachers = try await client.atomEntries("divisions/\(division)/teachers", query: page, maxItems: limit, where: matches)
            return Self.inCzechOrder(teachers.compactMap(person)).compactMap { Person($0, teacher: $0, roles: ["teacher"]) }
        }
        let query = words.map { word -> String in
            let pattern = KOSQuery.quoted(Self.widened(word))
            return "(lastName==\(pattern),firstName==\(pattern),username==\(pattern))"
        }.joined(separator: ";")
        let found = try await client.atomEntries("people", query: [("query", query)] + page, maxItems: limit, where: matches).compactMap(person)
        // A person has only names and roles; a teacher's e-mail and division come from one
        // /teachers query for every teacher found.
        let teacherNames = found.filter { $0.roles?.teacher == true }.compactMap(\.username)
        var teachers: [String: KOSRow.Person] = [:]
        for batch in stride(from: 0, to: teacherNames.count, by: 50).map({ Array(teacherNames[$0..<min($0 + 50, teacherNames.count)]) }) {
            let query = batch.map { "username==\(KOSQuery.quoted($0))" }.joined(separator: ",")
            for entry in try await client.atomEntries("teachers", query: [("query", query)] + page) {
                if let teacher = person(entry), let name = teacher.username { teachers[name] = teacher }
            }
        }
        return Self.inCzechOrder(found).compactMap { Person($0, teacher: $0.username.flatMap { teachers[$0] }, roles: $0.roles?.names ?? []) }
    }

    /// By surname, then first names, then username, in Czech order (Č after C, Ch after H).
    static func inCzechOrder(_ people: [KOSRow.Person]) -> [KOSRow.Person] {
        let czech = Locale(identifier: "cs_CZ")
        let keyed = people.map { person in
            (key: [person.lastName, person.firstName, person.username].map { $0 ?? "" }.joined(separator: " "), person: person)
        }
        return keyed.sorted { $0.key.compare($1.key, options: [.caseInsensitive], range: nil, locale: czech) == .orderedAscending }.map(\.person)
    }
}
