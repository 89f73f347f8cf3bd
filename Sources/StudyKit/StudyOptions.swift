import PluginKit

/// The options every study plugin has for the kit's study parts, declared once: a plugin lists
/// them among its own (`let classReminderMin = StudyOptions.classReminderMin`).
public enum StudyOptions {
    public static let classReminderMin = ConfigKey<Int64>(
        "class_reminder_min", .integer(min: 0, max: 1440), default: 0, help: "minutes before each class for <plugin>.class.soon (0: off)")
    public static let signupWarningH = ConfigKey<Int64>(
        "signup_warning_h", .integer(min: 0, max: 336), default: 24,
        help: "hours before an exam's sign-up closes for <plugin>.exam.signup_closing, on subjects without a registered exam (0: off)")
}
