import Foundation
import PluginKit

/// A day of the academic year as `kalendar/getKalendarRoku` gives it, kept for a day.
struct TeachingDay: Codable, Sendable {
    var date: String
    var period: String?
    var parity: String?
    var isoWeek: Int64?
}

struct TeachingYear: Codable, Sendable {
    var days: [TeachingDay]
}

/// The teaching week a day is in. STAG gives no week number of its own: its calendar marks each
/// day's period (ZS and LS are teaching) and the parity it is taught as (per day: a make-up day
/// may be taught as an odd week's Friday), and numbers weeks as ISO weeks. The teaching week is
/// how many ISO weeks of the semester have begun by the day, counting across the new year and a
/// 53-week year alike.
extension StagService {
    static let teachingPeriods: Set<String> = ["ZS", "LS"]

    func teachingYear(_ session: StagSession, year: Int64) async throws -> Cached<TeachingYear> {
        try await cachedModel(session, "calendar.days", ["year": .int(year)], fresherThan: Self.catalogueFreshness) {
            let rows = try await session.client.rows(
                "kalendar/getKalendarRoku", [("rok", String(year))], list: "kalendarItem", as: StagRow.CalendarDay.self)
            guard rows.count <= 400 else { throw StagError.unexpectedAnswer("kalendar/getKalendarRoku", "more days than a year has") }
            // In date order, whatever order STAG gives them in.
            return TeachingYear(
                days: rows.compactMap { row in
                    row.datum.map { TeachingDay(date: $0, period: row.typRozvrhDne, parity: row.typTydne, isoWeek: row.cisloTydne) }
                }.sorted { $0.date < $1.date })
        }
    }

    /// The semester, teaching week and parity of `day`, or nil outside teaching.
    static func teachingWeek(of day: DateOnly, in year: TeachingYear, academicYear: Int64) -> StudyWeek? {
        let text = day.description
        guard let today = year.days.first(where: { $0.date == text }), let period = today.period, teachingPeriods.contains(period),
            let week = today.isoWeek
        else { return nil }
        let semester = year.days.filter { $0.period == period && $0.date <= text }
        var weeks: [Int64] = []
        for d in semester {
            if let w = d.isoWeek, weeks.last != w { weeks.append(w) }
        }
        func parity(_ code: String?) -> StudyWeek.Parity? { code == "S" ? .even : code == "L" ? .odd : nil }
        // "K" (every week) or "J" (other) on the day itself: the parity most of its week is taught as.
        let weekCodes = year.days.filter { $0.period == period && $0.isoWeek == week }.compactMap { parity($0.parity) }
        let majority: StudyWeek.Parity = weekCodes.filter { $0 == .even }.count * 2 > weekCodes.count ? .even : .odd
        guard let shown = parity(today.parity) ?? (weekCodes.isEmpty ? nil : majority) else { return nil }
        return StudyWeek(semester: "\(period) \(academicYear)/\(academicYear + 1)", number: weeks.count, parity: shown)
    }
}
