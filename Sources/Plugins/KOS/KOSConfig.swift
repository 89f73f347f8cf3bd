import PluginKit
import StudyKit

@dynamicMemberLookup
struct KOSConfig: PluginOptions {
    let language = ConfigKey<String>("language", .oneOf(["cs", "en"]), default: "cs", help: "language of KOS's names and texts")
    let hourGrid = ConfigKey<[String]>(
        "hour_grid", .array(of: .string), default: HourGrid.fit.starts,
        help: "the start (HH:MM) of each teaching hour, 1 first; FIT's grid by default")
    let hourMinutes = ConfigKey<Int64>("hour_minutes", .integer(min: 1, max: 240), default: 45, help: "how long one teaching hour lasts")
    let firstWeekParity = ConfigKey<String>(
        "first_week_parity", .oneOf(["odd", "even"]), default: "odd", help: "the parity of the semester's first teaching week (kos.export.ics)")
    let teachingWeeks = ConfigKey<Int64>(
        "teaching_weeks", .integer(min: 1, max: 26), default: 13, help: "how many teaching weeks a semester has, from its start (kos.export.ics)")
    let calendar = ConfigKey<JSONValue>(
        "calendar", .object, default: [:],
        help: "per semester code, its teaching_start, teaching_weeks, first_week_parity, exams_start, exams_end and holidays "
            + "(a list of {name, from, to}), from the faculty's harmonogram: KOSapi gives none of them (kos.semester)")
    let officeHours = ConfigKey<JSONValue>(
        "office_hours", .object, default: [:], help: "the study office's hours, a table of weekday (monday … sunday) → hours text (kos.office)")
    let icsPath = ConfigKey<String>(
        "ics_path", .path, default: "", help: "when set, each kos.refresh rewrites this .ics file with the semester's timetable and my exams")
    let refreshEveryMin = ConfigKey<Int64>(
        "refresh_every_min", .integer(min: 1, max: 1440), default: 30, help: "how often kos.refresh looks for new exams, course events and results")
    let watchEveryMin = ConfigKey<Int64>(
        "watch_every_min", .integer(min: 1, max: 1440), default: 2, help: "how often a watched full exam is checked for a free seat")
    let eveningAt = ConfigKey<String>("evening_at", .string, default: "18:00", help: "when the kos.exam.tomorrow notice is sent (HH:MM)")
    let kosURL = ConfigKey<String>(
        "kos_url", .string, default: "https://www.kos.cvut.cz", help: "the KOS web application, where registration happens (linked from notices)")
    /// The kit's read cache keeps answers this long.
    let cacheDays = ReadCache.cacheDays
    let classReminderMin = StudyOptions.classReminderMin
    let signupWarningH = StudyOptions.signupWarningH
}
