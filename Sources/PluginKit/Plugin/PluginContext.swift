import AsyncHTTPClient
import Foundation
import GRDB
import Logging

@_exported import struct Logging.Logger

/// Everything the host lends a plugin. Scoped: the vault only sees `<plugin>/…`, notices carry the
/// plugin's id, and the config is the plugin's own `[plugins.<id>]` section with defaults applied.
public struct PluginContext: Sendable {
    public let pluginID: String
    public let config: PluginConfig
    public let vault: VaultScope
    public let database: DatabasePool
    public let http: HTTPClient
    /// The configured per-request deadline (`http.timeout_s`).
    public let httpTimeout: Duration
    public let notifier: PluginNotifier
    public let clock: any HostClock
    public let scheduler: PluginScheduler
    public let timeZone: TimeZone
    /// The language of the person's notices (the config's `language`): titles and bodies are said
    /// in it; topics and fields never change.
    public var language: LanguageCode { notifier.language }
    public let logger: Logger
    /// The plugin's named accounts (credentials in the vault as `<plugin>/<account>/…`).
    public let accounts: Accounts
    /// Live reads with the offline fallback (`stale`, `fetched_at`); pruned after the plugin's
    /// `cache_days` option when it declares one (default 30).
    public let cache: ReadCache
    /// Named polls with diffs and upstream state notices.
    public let refresh: RefreshCoordinator
    /// Work that outlives a call (a push connection, a login waiting for its browser): children
    /// of the plugin's service in the daemon's service group, cancelled after `teardown` at the
    /// latest. Never `Task {}`.
    public let background: BackgroundTasks

    package init(
        pluginID: String, config: PluginConfig, vault: VaultScope, database: DatabasePool, http: HTTPClient, httpTimeout: Duration,
        notifier: PluginNotifier, clock: any HostClock, scheduler: PluginScheduler, timeZone: TimeZone, logger: Logger, accounts: Accounts,
        cache: ReadCache, refresh: RefreshCoordinator, background: BackgroundTasks
    ) {
        self.pluginID = pluginID
        self.config = config
        self.vault = vault
        self.database = database
        self.http = http
        self.httpTimeout = httpTimeout
        self.notifier = notifier
        self.clock = clock
        self.scheduler = scheduler
        self.timeZone = timeZone
        self.logger = logger
        self.accounts = accounts
        self.cache = cache
        self.refresh = refresh
        self.background = background
    }
}

public struct PluginConfig: Sendable {
    public let values: [String: JSONValue]
    public init(_ values: [String: JSONValue]) { self.values = values }
    public subscript(key: String) -> JSONValue? { values[key] }
    public func string(_ key: String) -> String? { values[key]?.stringValue }
    public func int(_ key: String) -> Int64? { values[key]?.intValue }
    public func double(_ key: String) -> Double? { values[key]?.doubleValue }
    public func bool(_ key: String) -> Bool? { values[key]?.boolValue }
}

/// Posts notices on behalf of one plugin.
public struct PluginNotifier: Sendable {
    let pluginID: String
    let center: any NoticePosting
    /// The language notices are said in (the config's `language`).
    public let language: LanguageCode

    package init(pluginID: String, center: any NoticePosting, language: LanguageCode = .en) {
        self.pluginID = pluginID
        self.center = center
        self.language = language
    }

    /// Posts a notice, routed by topic and severity, or, with `channels`, to exactly those sinks.
    /// Returns false when the dedupe key was seen before (nothing was sent).
    /// The severity is the topic's own unless given.
    @discardableResult
    public func post<Topic: PluginTopic>(
        topic: Topic, title: String, body: String, severity: Severity? = nil, dedupeKey: String? = nil,
        attachments: [OutgoingAttachment] = [], channels: Set<NoticeChannel>? = nil, link: String? = nil
    ) async throws -> Bool {
        try await post(
            topicNamed: topic.rawValue, title: title, body: body, severity: severity ?? topic.severity, dedupeKey: dedupeKey,
            attachments: attachments, channels: channels, link: link)
    }

    /// For the kit's own notices in the plugin's namespace (`<plugin>.upstream.unreachable`),
    /// which each plugin that uses the kit part declares among its topics.
    @discardableResult
    func post(
        topicNamed topic: String, title: String, body: String, severity: Severity = .info, dedupeKey: String? = nil,
        attachments: [OutgoingAttachment] = [], channels: Set<NoticeChannel>? = nil, link: String? = nil
    ) async throws -> Bool {
        try await center.postDraft(
            NoticeDraft(
                topic: topic, plugin: pluginID, title: title, body: body, severity: severity, dedupeKey: dedupeKey,
                attachments: attachments, channels: channels, link: link))
    }

    /// Whether mail is configured (`[notify.mail]`).
    public var mailConfigured: Bool {
        get async { await center.hasMail }
    }

    /// Mails `to` directly (with attachments) through the host's mail path, outside topic routing.
    public func mail(to: String, title: String, body: String, attachments: [OutgoingAttachment] = []) async throws {
        try await mail(to: to, title: title, body: body, attachments: attachments, topicNamed: "\(pluginID).mail")
    }

    /// Mails `to` with `bcc` in blind copy (a teacher's message to a class: no student sees the
    /// others' addresses), under one of the plugin's topics.
    public func mail<Topic: PluginTopic>(to: String, bcc: [String], title: String, body: String, topic: Topic) async throws {
        var draft = NoticeDraft(
            topic: topic.rawValue, plugin: pluginID, title: title, body: body, severity: .info, dedupeKey: nil, directRecipient: to)
        draft.blindCopies = bcc
        _ = try await center.postDraft(draft)
    }

    /// The same, under one of the plugin's topics (for the notice list).
    public func mail<Topic: PluginTopic>(to: String, title: String, body: String, attachments: [OutgoingAttachment] = [], topic: Topic) async throws {
        try await mail(to: to, title: title, body: body, attachments: attachments, topicNamed: topic.rawValue)
    }

    private func mail(to: String, title: String, body: String, attachments: [OutgoingAttachment], topicNamed topic: String) async throws {
        // A direct mail has no dedupe key, so it is always stored.
        _ = try await center.postDraft(
            NoticeDraft(
                topic: topic, plugin: pluginID, title: title, body: body, severity: .info,
                dedupeKey: nil, attachments: attachments, directRecipient: to))
    }
}

/// One-shot instants for a plugin (reminders), fired to the second through the host clock.
public struct PluginScheduler: Sendable {
    let pluginID: String
    let scheduler: any JobScheduling

    package init(pluginID: String, scheduler: any JobScheduling) {
        self.pluginID = pluginID
        self.scheduler = scheduler
    }

    public func fire(at instant: Date, id: String, _ action: @escaping @Sendable () async throws -> Void) async {
        await scheduler.scheduleOnce(id: "\(pluginID).\(id)", at: instant, action: action)
    }

    /// Many at once (re-arming every reminder at start), in one hop onto the scheduler.
    public func fire(_ batch: [(id: String, at: Date, action: @Sendable () async throws -> Void)]) async {
        let pluginID = self.pluginID
        await scheduler.scheduleOnce(batch.map { (id: "\(pluginID).\($0.id)", at: $0.at, action: $0.action) })
    }

    public func cancel(id: String) async {
        await scheduler.cancelOnce(id: "\(pluginID).\(id)")
    }
}
