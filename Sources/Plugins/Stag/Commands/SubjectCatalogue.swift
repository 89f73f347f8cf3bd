import Foundation
import PluginKit

/// A subject as a faculty's list gives it (`predmety/getPredmetyByFakulta`), kept for a day.
struct CatalogueSubject: Codable, Sendable {
    var department: String
    var code: String
    var name: String
    var year: Int64?
    var winter: Bool?
    var summer: Bool?
    /// Name and code without accents, in lower case: folded once when the list is read, not at
    /// every search of its 10 000 rows.
    var folded = ""
}

struct FacultyCatalogue: Codable, Sendable {
    var subjects: [CatalogueSubject]
}

struct FacultyCodes: Codable, Sendable {
    var codes: [String]
}

/// Searching subjects by words across the university. `najdiPredmety` matches a name only whole,
/// so each faculty's whole list is read (about 10 000 rows and 3 MB at a large university), kept
/// for a day per faculty and year, and the words and the department are matched here.
extension StagService {
    static let catalogueFreshness = Duration.seconds(86_400)
    /// The most rows a faculty's list may have: past it the answer is not a subject list.
    static let largestCatalogue = 50_000
    /// The most faculties read for one search: a university has a dozen; more is not a faculty list.
    static let largestFaculties = 60

    /// The current faculties' codes, read at most daily.
    func facultyCodes(_ session: StagSession) async throws -> Cached<FacultyCodes> {
        try await cachedModel(session, "catalogue.faculties", [:], fresherThan: Self.catalogueFreshness) {
            let rows = try await session.client.rows(
                "ciselniky/getSeznamPracovist", [("typPracoviste", "F"), ("zkratka", "%")], list: "pracoviste", as: StagRow.Workplace.self)
            let todayText = today.description
            let codes = Set(
                rows.filter { $0.typPracoviste == "F" }.filter { $0.platnostDo.map { $0 >= todayText } ?? true }
                    .compactMap { $0.zkratka.flatMap { try? Self.code($0, param: "faculty") } })
            guard codes.count <= Self.largestFaculties else {
                throw StagError.unexpectedAnswer("ciselniky/getSeznamPracovist", "more than \(Self.largestFaculties) faculties")
            }
            return FacultyCodes(codes: codes.sorted())
        }
    }

    /// One faculty's subjects of a year, read at most daily; `progress` says so when it is read.
    func catalogue(
        _ session: StagSession, faculty: String, year: Int64, call: CallContext, index: Int, of count: Int
    ) async throws -> Cached<FacultyCatalogue> {
        try await cachedModel(session, "catalogue.subjects", ["faculty": .string(faculty), "year": .int(year)], fresherThan: Self.catalogueFreshness)
        {
            call.progress(
                "Reading the subject list of faculty \(faculty) (\(index) of \(count)); searches today will not read it again",
                done: Int64(index - 1), total: Int64(count))
            let rows = try await session.client.rows(
                "predmety/getPredmetyByFakulta", [("fakulta", faculty), ("rok", String(year))], list: "predmetKatedry", as: StagRow.Subject.self)
            guard rows.count <= Self.largestCatalogue else {
                throw StagError.unexpectedAnswer("predmety/getPredmetyByFakulta", "more than \(Self.largestCatalogue) subjects")
            }
            return FacultyCatalogue(
                subjects: rows.compactMap { row in
                    guard let department = row.katedra, let code = row.zkratka else { return nil }
                    let name = row.nazev ?? ""
                    return CatalogueSubject(
                        department: department, code: code, name: name, year: row.rok, winter: row.vyukaZS, summer: row.vyukaLS,
                        folded: Self.folded(name + " " + code))
                })
        }
    }

    /// Words (accents and case ignored, each a part of the name or the code) and a department,
    /// matched in every faculty's list; each subject shown is read in detail, also at most daily.
    func searchCatalogue(
        _ session: StagSession, words: [String], department: String?, year: Int64, limit: Int, call: CallContext
    ) async throws -> Cached<FoundSubjects> {
        let faculties = try await facultyCodes(session)
        var stale = faculties.stale
        var oldest = faculties.fetchedAt
        var matching: [CatalogueSubject] = []
        for (index, faculty) in faculties.value.codes.enumerated() {
            let list = try await catalogue(session, faculty: faculty, year: year, call: call, index: index + 1, of: faculties.value.codes.count)
            stale = stale || list.stale
            oldest = min(oldest, list.fetchedAt)
            matching += list.value.subjects.filter { subject in
                guard department == nil || subject.department == department else { return false }
                return words.allSatisfy { subject.folded.contains($0) }
            }
        }
        matching.sort { ($0.department, $0.code) < ($1.department, $1.code) }
        var subjects: [FoundSubject] = []
        for subject in matching.prefix(limit) {
            let key: [String: JSONValue] = ["department": .string(subject.department), "code": .string(subject.code), "year": .int(year)]
            let found = try await cachedModel(session, "subjects.detail", key, fresherThan: Self.catalogueFreshness) {
                let info = try await session.client.read(
                    "predmety/getPredmetInfo", [("katedra", subject.department), ("zkratka", subject.code), ("rok", String(year))])
                return FoundSubject(subject, detail: JSONTreeDecoder.row(info, as: StagRow.SubjectInfo.self))
            }
            stale = stale || found.stale
            subjects.append(found.value)
        }
        return Cached(value: FoundSubjects(subjects: subjects, truncated: matching.count > limit), stale: stale, fetchedAt: oldest)
    }
}

extension FoundSubject {
    init(_ subject: CatalogueSubject, detail: StagRow.SubjectInfo?) {
        self.init()
        self.subject = "\(subject.department)/\(subject.code)"
        department = subject.department
        code = subject.code
        name = detail?.nazev ?? subject.name
        year = subject.year ?? detail?.rok
        credits = detail?.kreditu
        let winter = detail?.vyukaZS ?? subject.winter ?? false
        let summer = detail?.vyukaLS ?? subject.summer ?? false
        semester = winter && summer ? .both : winter ? .winter : summer ? .summer : nil
        completion = detail?.typZkousky
    }
}
