import Foundation
// A plugin keeps its data in the daemon's SQLite store through GRDB (`context.database`, its migrations).
@_exported import GRDB

// What a plugin borrows from the daemon's runtime, as the runtime provides it: the plugin kit
// knows these seams, the runtime (`HostCore`) implements them, and no plugin sees the runtime.

/// Posts a notice into the daemon's outbox (the runtime's `NoticeCenter`).
public protocol NoticePosting: Sendable {
    /// Whether the notice was stored; false when its dedupe key was seen before (nothing sent).
    func postDraft(_ draft: NoticeDraft) async throws -> Bool
    /// Whether mail is configured (`[notify.mail]`).
    var hasMail: Bool { get async }
}

/// Runs jobs on the host clock (the runtime's `JobScheduler`): recurring ones, with backoff and
/// `jobs.list`, and one-shot instants.
public protocol JobScheduling: Sendable {
    func activate(_ jobs: [ScheduledJob]) async throws
    func deactivate(ids: [String]) async
    func scheduleOnce(id: String, at instant: Date, action: @escaping @Sendable () async throws -> Void) async
    func scheduleOnce(_ batch: [(id: String, at: Date, action: @Sendable () async throws -> Void)]) async
    func cancelOnce(id: String) async
}

/// The daemon's encrypted vault (the runtime's `Vault`), by full name.
public protocol SecretStoring: Sendable {
    func get(_ name: String) async throws -> String?
    func set(_ name: String, secret: String) async throws
    @discardableResult func delete(_ name: String) async throws -> Bool
    func list(prefix: String?) async throws -> [VaultEntryInfo]
}

public struct ScheduledJob: Sendable {
    /// `<plugin>.<job>`; host jobs use `host.<job>`.
    public var id: String
    public var descriptor: JobDescriptor
    public var action: @Sendable () async throws -> Void

    public init(id: String, descriptor: JobDescriptor, action: @escaping @Sendable () async throws -> Void) {
        self.id = id
        self.descriptor = descriptor
        self.action = action
    }
}

/// A vault entry's name and times, never its value (`vault.list`).
public struct VaultEntryInfo: Sendable, Equatable, ResultObject {
    public var name: String
    public var createdAt: String
    public var updatedAt: String

    public init(name: String, createdAt: String, updatedAt: String) {
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public static let members = ResultMembers<Self>(
        .field("name", \.name), .field("created_at", \.createdAt, .dateTime), .field("updated_at", \.updatedAt, .dateTime))
}
