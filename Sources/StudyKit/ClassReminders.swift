import Foundation
import PluginKit

/// A class as the reminders read it: one dated occurrence of a timetable slot.
public struct StudyClass: StoredResultObject, JSONModel, Equatable {
    /// Stable across refreshes for the same occurrence (its date, slot and start): a reminder is
    /// armed once per key and cancelled when the key disappears.
    public var key: String
    public var start: Date
    public var end: Date?
    /// "KIV/UPA Úvod do programování (Cv)".
    public var title: String
    public var room: String?

    public init(key: String, start: Date, end: Date? = nil, title: String, room: String? = nil) {
        self.key = key
        self.start = start
        self.end = end
        self.title = title
        self.room = room
    }

    /// Empty, to be read back into (`StoredResultObject`).
    public init() { self.init(key: "", start: .distantPast, title: "") }

    public static let members = ResultMembers<Self>(
        .field("key", \.key), .instant("start", \.start), .instant("end", \.end), .field("title", \.title),
        .field("room", \.room))
}

/// A reminder before each class (`<plugin>.class.soon`), for every study plugin. The plugin hands
/// over the classes it read (each refresh); the reminders are armed as one-shot instants on the
/// host clock, re-armed when the list changes, and cancelled when a class disappears. The list is
/// kept with the refresh baselines, so after a restart the reminders are armed again from it
/// before the upstream is asked (`restore`). The lead time is the plugin's option, read at each
/// arming; zero turns the reminders off.
public actor ClassReminders<Topic: PluginTopic> {
    let scheduler: PluginScheduler
    let notifier: PluginNotifier
    let refresh: RefreshCoordinator
    let clock: any HostClock
    let zone: TimeZone
    let topic: Topic
    let lead: @Sendable () -> Int64
    /// The armed reminders' ids by account.
    private var armed: [String: Set<String>] = [:]

    /// How far ahead classes are armed; a refresh comes far more often than this.
    public static var horizon: TimeInterval { 8 * 86_400 }
    static var listName: String { "classes" }

    public init(context: PluginContext, zone: TimeZone, topic: Topic, minutesBefore: @escaping @Sendable () -> Int64) {
        scheduler = context.scheduler
        notifier = context.notifier
        refresh = context.refresh
        clock = context.clock
        self.zone = zone
        self.topic = topic
        lead = minutesBefore
    }

    /// The reminders armed for `account` now, by class key.
    public func armedKeys(account: String) -> [String] {
        let prefix = Self.reminderID(account, "")
        return (armed[account] ?? []).map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// Arms a reminder for each of `classes` still ahead (within the horizon), cancels the
    /// account's reminders for classes no longer listed, and keeps the list for `restore`. A
    /// class whose reminder time has passed but which has not begun is reminded at once; the
    /// dedupe key keeps a reminder from being told twice, across restarts too.
    public func arm(account: String, _ classes: [StudyClass]) async throws {
        let now = clock.now
        let ahead = classes.filter { $0.start > now && $0.start.timeIntervalSince(now) <= Self.horizon }
        try await refresh.remember(Self.listName, account: account, items: Dictionary(ahead.map { ($0.key, $0.json) }) { first, _ in first })
        await schedule(account: account, ahead, now: now)
    }

    /// Arms every account's reminders again from the lists kept by `arm` (at the plugin's start).
    public func restore() async throws {
        let now = clock.now
        for (account, items) in try await refresh.remembered(Self.listName) {
            let classes = items.values.compactMap { try? StudyClass(json: $0) }.filter { $0.start > now }
            await schedule(account: account, classes, now: now)
        }
    }

    /// Cancels every reminder of `account` (its account removed).
    public func disarm(account: String) async throws { try await arm(account: account, []) }

    private func schedule(account: String, _ classes: [StudyClass], now: Date) async {
        let minutes = lead()
        var wanted: [(id: String, at: Date, action: @Sendable () async throws -> Void)] = []
        if minutes > 0 {
            for item in classes {
                let at = max(now, item.start.addingTimeInterval(-Double(minutes) * 60))
                wanted.append((Self.reminderID(account, item.key), at, { [self] in try await self.remind(account: account, item) }))
            }
        }
        let keep = Set(wanted.map(\.id))
        for gone in (armed[account] ?? []).subtracting(keep) { await scheduler.cancel(id: gone) }
        armed[account] = keep.isEmpty ? nil : keep
        if !wanted.isEmpty { await scheduler.fire(wanted) }
    }

    static func reminderID(_ account: String, _ key: String) -> String { "class.soon@\(account):\(key)" }

    func remind(account: String, _ item: StudyClass) async throws {
        armed[account]?.remove(Self.reminderID(account, item.key))
        let span = [item.start, item.end].compactMap { $0 }.map(clockTime).joined(separator: "–")
        let left = max(0, Int((item.start.timeIntervalSince(clock.now) / 60).rounded()))
        try await notifier.post(
            topic: topic, title: StudyWords.inMinutes.text(notifier.language, ["minutes": "\(left)", "title": item.title]),
            body: span + StudyWords.inRoom(item.room, notifier.language),
            dedupeKey: "\(topic.rawValue):\(account):\(item.key)")
    }

    /// "09:20" in the study system's zone.
    func clockTime(_ instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

/// What the study plugins' notices say alike, in the config's `language`.
public enum StudyWords {
    static let inMinutes = Words("In {minutes} min: {title}", "Za {minutes} min: {title}")
    /// " in UL-408", or nothing without a room.
    public static func inRoom(_ room: String?, _ language: LanguageCode) -> String {
        room.map { Words(" in {room}", " v {room}").text(language, ["room": $0]) } ?? ""
    }
}
