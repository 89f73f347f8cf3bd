import PluginKit
import StudyKit

@dynamicMemberLookup
struct StagConfig: PluginOptions {
    let language = ConfigKey<String>("language", .oneOf(["cs", "en"]), default: "cs", help: "language of STAG's names and texts")
    let refreshEveryMin = ConfigKey<Int64>(
        "refresh_every_min", .integer(min: 1, max: 1440), default: 30,
        help: "how often stag.refresh looks for new terms, grades and timetable changes")
    let watchEveryMin = ConfigKey<Int64>(
        "watch_every_min", .integer(min: 1, max: 1440), default: 2, help: "how often a watched full exam term is checked for a free seat")
    let eveningAt = ConfigKey<String>("evening_at", .string, default: "18:00", help: "when the stag.exam.tomorrow notice is sent (HH:MM)")
    let canteenURL = ConfigKey<String>(
        "canteen_url", .string, default: "https://www.zcu.cz/rest/canteen", help: "the ZČU canteen service (stag.canteen)")
    let icsPath = ConfigKey<String>(
        "ics_path", .path, default: "", help: "when set, each refresh rewrites this .ics file with the timetable and exams")
    let timeZone = ConfigKey<String>(
        "timezone", .string, default: "Europe/Prague", help: "the universities' time zone (dates and times in results are its wall clock)")
    let creditsPerYear = ConfigKey<Int64>(
        "credits_per_year", .integer(min: 1, max: 200), default: 60,
        help: "the credits a year of study is expected to bring (stag.results: expected and short)")
    /// The kit's read cache keeps answers this long.
    let cacheDays = ReadCache.cacheDays
    let classReminderMin = StudyOptions.classReminderMin
    let signupWarningH = StudyOptions.signupWarningH
}
