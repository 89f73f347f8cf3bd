import Foundation
import PluginKit

/// A semester's teaching weeks, exam period and holidays. KOSapi gives a semester only its code,
/// name, start and end (and each faculty may teach from another day than that start), so the rest
/// comes from `[plugins.kos.calendar.<code>]` when the person has written it from the faculty's
/// harmonogram, else from `first_week_parity` and `teaching_weeks` counted from KOS's start.
struct SemesterSchedule: StoredResultObject, Sendable {
    enum Source: String, Codable, Sendable, CaseIterable, ResultDescribing {
        /// `[plugins.kos.calendar.<code>]`.
        case config
        /// KOS's start with `first_week_parity` and `teaching_weeks`.
        case defaults
    }

    struct Holiday: StoredResultObject, Sendable, Equatable {
        var name = ""
        var from = ""
        var to = ""

        static let members = ResultMembers<Self>(
            .field("name", \.name), .field("from", \.from, .date), .field("to", \.to, .date, "the last day (the same as from for one day)"))
    }

    var source = Source.defaults
    var teachingStart = ""
    var teachingEnd = ""
    var teachingWeeks: Int64 = 13
    var firstWeekParity = "odd"
    var examsStart: String?
    var examsEnd: String?
    var holidays: [Holiday] = []

    static let members = ResultMembers<Self>(
        .field("source", \.source, "config: [plugins.kos.calendar.<code>]; defaults: KOS's start, first_week_parity and teaching_weeks"),
        .field("teaching_start", \.teachingStart, .date), .field("teaching_end", \.teachingEnd, .date, "the last day of the last teaching week"),
        .field("teaching_weeks", \.teachingWeeks), .field("first_week_parity", \.firstWeekParity, .enumeration(["odd", "even"])),
        .field("exams_start", \.examsStart, .date.nullable), .field("exams_end", \.examsEnd, .date.nullable),
        .field("holidays", \.holidays, "days without classes"))

    /// The Monday of teaching week 1.
    var weekOne: DateOnly? { DateOnly(teachingStart).map { $0.adding(days: -$0.weekdayFromMonday) } }

    func isHoliday(_ day: DateOnly) -> Bool {
        let text = day.description
        return holidays.contains { $0.from <= text && text <= $0.to }
    }

    /// The teaching week `day` is in (1 first), nil outside teaching.
    func teachingWeek(of day: DateOnly) -> Int? {
        guard let weekOne, let first = DateOnly(teachingStart), day >= first else { return nil }
        let number = weekOne.days(to: day) / 7 + 1
        return (1...Int(teachingWeeks)).contains(number) ? number : nil
    }

    func parity(ofWeek number: Int) -> String { (number % 2 == 1) == (firstWeekParity == "odd") ? "odd" : "even" }
}

/// `[plugins.kos.calendar]`: a table per semester code, read when the plugin starts.
struct SemesterCalendars: Sendable {
    struct Entry: Sendable {
        var teachingStart: DateOnly?
        var teachingWeeks: Int64?
        var firstWeekParity: String?
        var examsStart: DateOnly?
        var examsEnd: DateOnly?
        var holidays: [SemesterSchedule.Holiday]
    }

    var entries: [String: Entry] = [:]

    /// The configured tables, or a message naming the key that is wrong.
    static func configured(_ table: JSONValue) -> Result<SemesterCalendars, RPCError> {
        let key = KOSConfig.calendar.key
        func fail(_ text: String) -> Result<SemesterCalendars, RPCError> { .failure(RPCError.invalidParam(key, text)) }
        guard let semesters = table.objectValue else { return fail("is not a table of semester code → its calendar") }
        var calendars = SemesterCalendars()
        for (code, value) in semesters {
            guard code.count <= 8, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                return fail("'\(code)' is not a semester code (such as B251)")
            }
            guard let fields = value.objectValue else { return fail("\(code) is not a table") }
            let known: Set<String> = ["teaching_start", "teaching_weeks", "first_week_parity", "exams_start", "exams_end", "holidays"]
            if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
                return fail("\(code).\(unknown) is not a calendar key (\(known.sorted().joined(separator: ", ")))")
            }
            func day(_ name: String) -> Result<DateOnly?, RPCError> {
                guard let raw = fields[name] else { return .success(nil) }
                guard let text = raw.stringValue, let day = DateOnly(text) else {
                    return .failure(RPCError.invalidParam(key, "\(code).\(name) is not a date (YYYY-MM-DD)"))
                }
                return .success(day)
            }
            var entry = Entry(holidays: [])
            switch (day("teaching_start"), day("exams_start"), day("exams_end")) {
            case (.success(let start), .success(let examsStart), .success(let examsEnd)):
                (entry.teachingStart, entry.examsStart, entry.examsEnd) = (start, examsStart, examsEnd)
            case (.failure(let e), _, _), (_, .failure(let e), _), (_, _, .failure(let e)): return .failure(e)
            }
            if let s = entry.examsStart, let e = entry.examsEnd, e < s { return fail("\(code).exams_end is before exams_start") }
            if let weeks = fields["teaching_weeks"] {
                guard let n = weeks.intValue, (1...26).contains(n) else { return fail("\(code).teaching_weeks is not a number from 1 to 26") }
                entry.teachingWeeks = n
            }
            if let parity = fields["first_week_parity"] {
                guard let p = parity.stringValue, ["odd", "even"].contains(p) else { return fail("\(code).first_week_parity is not odd or even") }
                entry.firstWeekParity = p
            }
            if let list = fields["holidays"] {
                guard let items = list.arrayValue, items.count <= 100 else { return fail("\(code).holidays is not a list (at most 100)") }
                for (i, item) in items.enumerated() {
                    let place = "\(code).holidays[\(i + 1)]"
                    guard let h = item.objectValue, let name = h["name"]?.stringValue, !name.isEmpty, name.count <= 200,
                        let from = h["from"]?.stringValue.flatMap(DateOnly.init)
                    else { return fail("\(place) needs a name and a from date (YYYY-MM-DD)") }
                    let to = h["to"].map { $0.stringValue.flatMap(DateOnly.init) } ?? from
                    guard let to, to >= from else { return fail("\(place).to is not a date on or after from") }
                    entry.holidays.append(.init(name: name, from: from.description, to: to.description))
                }
            }
            guard calendars.entries[code.uppercased()] == nil else { return fail("\(code) is given twice (codes are read in capitals)") }
            calendars.entries[code.uppercased()] = entry
        }
        return .success(calendars)
    }

    /// The schedule of the semester `code` that KOS says starts on `kosStart`.
    func schedule(code: String, kosStart: DateOnly, defaults: (parity: String, weeks: Int64)) -> SemesterSchedule {
        let entry = entries[code.uppercased()]
        var s = SemesterSchedule()
        s.source = entry == nil ? .defaults : .config
        let start = entry?.teachingStart ?? kosStart
        s.teachingStart = start.description
        s.teachingWeeks = entry?.teachingWeeks ?? defaults.weeks
        s.firstWeekParity = entry?.firstWeekParity ?? defaults.parity
        let monday = start.adding(days: -start.weekdayFromMonday)
        s.teachingEnd = monday.adding(days: Int(s.teachingWeeks) * 7 - 1).description
        s.examsStart = entry?.examsStart?.description
        s.examsEnd = entry?.examsEnd?.description
        s.holidays = entry?.holidays ?? []
        return s
    }
}
