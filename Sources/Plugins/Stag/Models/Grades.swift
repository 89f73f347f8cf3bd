import Foundation
import PluginKit

/// A student's subjects (`getPredmetyByStudent`): name and credits by `KAT/CODE@year` and `KAT/CODE`.
typealias SubjectIndex = [String: (name: String?, credits: Int64?)]

/// One subject enrolment's result (`student_na_predmetu`, reference §3.11). The result is its
/// encoding; the refresh keeps it as its baseline and reads new grades back from it.
struct GradeRow: StoredResultObject, JSONModel, Equatable {
    /// A number (`1`, `1.5`), `S`/`N` for a credit, or STAG's own text.
    enum Grade: Codable, Sendable, Equatable, ResultDescribing {
        static let resultSchema = JSONSchema.anyOf([.number, .string, .null]).described("1–4 (1.5, 2.5 where used), A–F, or S/N for a credit")

        case number(Double)
        case credit(passed: Bool)
        case other(String)

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .number(let n): if let whole = Self.whole(n) { try c.encode(whole) } else { try c.encode(n) }
            case .credit(let passed): try c.encode(passed ? "S" : "N")
            case .other(let text): try c.encode(text)
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Double.self) {
                self = .number(n)
            } else {
                let text = try c.decode(String.self)
                self = text == "S" ? .credit(passed: true) : text == "N" ? .credit(passed: false) : .other(text)
            }
        }

        /// `2` for 2.0; nil for a fraction, and for a number no grade is (a stored copy that was
        /// edited: `Int64(_:)` would trap on it).
        static func whole(_ n: Double) -> Int64? {
            n == n.rounded() && abs(n) < 1e15 ? Int64(n) : nil
        }

        /// As the notices write it: `1.5`, `S`.
        var text: String {
            switch self {
            case .number(let n): Self.whole(n).map(String.init) ?? String(n)
            case .credit(let passed): passed ? "S" : "N"
            case .other(let text): text
            }
        }

        /// `1`, `1,5`, `2.5`, `S`, `N`; nil for no grade yet.
        init?(_ text: String?) {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            switch text.uppercased() {
            case "S", "Z", "ZAPOČTENO", "ZAPOCTENO": self = .credit(passed: true)
            case "N", "NEZAPOČTENO", "NEZAPOCTENO": self = .credit(passed: false)
            default:
                if let n = Double(text.replacingOccurrences(of: ",", with: ".")), [1, 1.5, 2, 2.5, 3, 4].contains(n) {
                    self = .number(n)
                } else {
                    self = .other(text)
                }
            }
        }

        var passed: Bool {
            switch self {
            case .number(let n): n < 4
            case .credit(let passed): passed
            case .other: false
            }
        }
    }

    var subject = ""
    var name: String?
    var credits: Int64?
    var year: Int64?
    var semester: String?
    var grade: Grade?
    var date: String?
    var attempt: Int64?
    var examiner: String?
    var kind = "exam"

    var passed: Bool { grade?.passed ?? false }

    static let members = ResultMembers<Self>(
        .field("subject", \.subject), .field("name", \.name), .field("credits", \.credits), .field("year", \.year),
        .field("semester", \.semester), .field("grade", \.grade), .field("passed", \.passed), .field("date", \.date, .date),
        .field("attempt", \.attempt), .field("examiner", \.examiner), .field("kind", \.kind, .enumeration(["exam", "credit"])))

    /// Empty, to be read back into (`StoredResultObject`).
    init() {}

    /// `names` and `credits` come from `getPredmetyByStudent`, keyed `KAT/CODE@year`.
    init?(_ row: StagRow.Enrolment, subjects: SubjectIndex) {
        guard let department = row.katedra, let code = row.zkratka else { return nil }
        subject = "\(department)/\(code)"
        year = row.rok
        semester = row.semestr
        let known = subjects["\(subject)@\(year.map(String.init) ?? "")"] ?? subjects[subject]
        name = known?.name
        credits = row.kredity ?? known?.credits
        let examType = row.zk_typ_hodnoceni ?? ""
        let examGrade = Grade(row.zk_hodnoceni)
        if examType.contains(where: \.isNumber) || examType.lowercased().contains("znám") || row.zppzk_hodnoceni {
            kind = "exam"
        } else if case .credit? = examGrade {
            kind = "credit"
        } else {
            kind = examType.isEmpty ? "exam" : "credit"
        }
        grade = examGrade
        date = row.zk_datum
        attempt = row.zk_pokus.flatMap { $0 > 0 ? $0 : nil }
        examiner = row.zk_ucit_jmeno
    }

    /// One row of STAG's JSON; nil for a row that is not an object or names no subject.
    init?(stag json: JSONValue, subjects: SubjectIndex) {
        guard let row = JSONTreeDecoder.row(json, as: StagRow.Enrolment.self) else { return nil }
        self.init(row, subjects: subjects)
    }

    /// "KIV/UPA Name", for notice titles.
    var title: String { name.map { "\(subject) \($0)" } ?? subject }
}

/// `stag.results`: credits and credit-weighted averages per academic year and semester, and in
/// total.
struct StudyResults: StoredResultObject, Sendable {
    struct Summary: StoredResultObject, Sendable {
        var creditsEnrolled: Int64 = 0
        var creditsObtained: Int64 = 0
        var subjectsEnrolled: Int64 = 0
        var subjectsPassed: Int64 = 0
        var weightedAverage: Double?

        static let members = ResultMembers<Self>(
            .field("credits_enrolled", \.creditsEnrolled), .field("credits_obtained", \.creditsObtained),
            .field("subjects_enrolled", \.subjectsEnrolled), .field("subjects_passed", \.subjectsPassed),
            .field("weighted_average", \.weightedAverage, "over passed numeric grades, weighted by credits"))

        init() {}

        init(_ rows: [GradeRow]) {
            let passed = rows.filter(\.passed)
            creditsEnrolled = rows.reduce(0) { $0 + ($1.credits ?? 0) }
            creditsObtained = passed.reduce(0) { $0 + ($1.credits ?? 0) }
            subjectsEnrolled = Int64(rows.count)
            subjectsPassed = Int64(passed.count)
            weightedAverage = StudyResults.average(rows, includingFailed: false)
        }
    }

    /// One academic year's semester: its summary's members, then its own, in one object.
    struct Term: StoredResultObject, Sendable {
        var summary = Summary()
        var year: Int64?
        var semester: String?

        static let members = ResultMembers<Self>(.flattened(\.summary), .field("year", \.year), .field("semester", \.semester))

        init() {}

        init(_ rows: [GradeRow]) {
            summary = Summary(rows)
            year = rows.first?.year
            semester = rows.first?.semester
        }
    }

    struct Total: StoredResultObject, Sendable {
        var summary = Summary()
        var weightedAverageAll: Double?

        static let members = ResultMembers<Self>(
            .flattened(\.summary), .field("weighted_average_all", \.weightedAverageAll, "with the failed 4s"))

        init() {}

        init(_ rows: [GradeRow]) {
            summary = Summary(rows)
            weightedAverageAll = StudyResults.average(rows, includingFailed: true)
        }
    }

    /// The credits a student is expected to have by their year of study, beside those obtained.
    struct Target: StoredResultObject, Sendable {
        var creditsPerYear: Int64 = 60
        var yearOfStudy: Int64 = 0
        var expected: Int64 = 0
        var obtained: Int64 = 0
        var short: Int64 = 0

        static let members = ResultMembers<Self>(
            .field("credits_per_year", \.creditsPerYear, "[plugins.stag] credits_per_year"), .field("year_of_study", \.yearOfStudy),
            .field("expected", \.expected, "credits_per_year × year_of_study"), .field("obtained", \.obtained),
            .field("short", \.short, "how many the obtained fall short of the expected; 0 when on target"))

        init() {}

        init(perYear: Int64, yearOfStudy: Int64, obtained: Int64) {
            (creditsPerYear, self.yearOfStudy, self.obtained) = (perYear, yearOfStudy, obtained)
            expected = perYear * yearOfStudy
            short = max(0, expected - obtained)
        }
    }

    var terms: [Term] = []
    var total = Total()
    /// Left out when STAG does not give the year of study.
    var target: Target?

    static let members = ResultMembers<Self>(
        .field("terms", \.terms), .field("total", \.total),
        .omittedWhenNil("target", \.target, "the credits expected by the year of study, and how many are short"))

    init() {}

    init(_ rows: [GradeRow]) {
        let groups = Dictionary(grouping: rows) { "\($0.year ?? 0)|\($0.semester == "LS" ? 1 : 0)|\($0.semester ?? "")" }
        terms = groups.keys.sorted().map { Term(groups[$0]!) }
        total = Total(rows)
    }

    /// Σ grade × credits / Σ credits over numeric grades: passed ones, or also the 4s.
    static func average(_ rows: [GradeRow], includingFailed: Bool) -> Double? {
        var weighted = 0.0
        var credits = 0.0
        for row in rows {
            guard case .number(let value)? = row.grade, let c = row.credits, c > 0 else { continue }
            guard row.passed || (includingFailed && value == 4) else { continue }
            weighted += value * Double(c)
            credits += Double(c)
        }
        guard credits > 0 else { return nil }
        return (weighted / credits * 1000).rounded() / 1000
    }
}
