import PluginKit

@dynamicMemberLookup
struct TasksConfig: PluginOptions {
    let reminderChannels = ConfigKey<[String]>(
        "reminder_channels", .array(of: .oneOf(["stdout", "mail"])), default: [],
        help: "default channels of a task's reminders (empty: stdout and mail when mail is configured, else stdout)")
    let missedGraceHours = ConfigKey<Int64>(
        "missed_grace_h", .integer(min: 0, max: 8760), default: 12,
        help: "a reminder missed while down is delivered late up to this age, else counted in tasks.reminders.missed")
    let digest = ConfigKey<Bool>("digest", .boolean, default: false, help: "send a tasks.digest notice every day at digest_at")
    let digestAt = ConfigKey<String>("digest_at", .string, default: "07:00", help: "time of the daily digest (HH:MM, daemon timezone)")
    let syncAlarms = ConfigKey<Bool>("sync_alarms", .boolean, default: true, help: "send reminders to CalDAV as VALARMs")
    let feedsEveryMin = ConfigKey<Int64>(
        "feeds_every_min", .integer(min: 5, max: 10_080), default: 60, help: "how often ICS feeds are fetched")
    let syncEveryMin = ConfigKey<Int64>("sync_every_min", .integer(min: 1, max: 10_080), default: 15, help: "how often CalDAV accounts sync")
}
