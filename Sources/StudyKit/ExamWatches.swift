import Foundation
import GRDB
import PluginKit

/// The study kit's watch table: exam terms (IS/STAG) or exams (KOS) watched for a seat that
/// frees, for every study plugin in one table (`host_exam_watches`), each row its plugin's. The
/// plugin says what an item is and how it is checked (`StudyAlerts.checkSeat`); the kit keeps the
/// rows: added or updated, listed, removed, its count of freed seats and its last state.
public struct ExamWatches: Sendable {
    public struct Watch: Sendable, Equatable {
        /// The account the watch is for; empty when it is no account's (KOS's exams are public).
        public var account: String
        /// The term's or exam's id, as text.
        public var item: String
        public var autoRegister: Bool
        /// The plugin's word for the item's state when last seen (`full`, `free`, `registered`).
        public var lastState: String?
        /// What it is, for the list (a subject, a course).
        public var label: String?
        public var startsAt: String?
        public var freed: Int64
        /// When it was first watched (ISO 8601).
        public var since: String

        public init(
            account: String, item: String, autoRegister: Bool = false, lastState: String?, label: String?, startsAt: String? = nil,
            freed: Int64 = 0, since: String
        ) {
            (self.account, self.item, self.autoRegister, self.lastState, self.label) = (account, item, autoRegister, lastState, label)
            (self.startsAt, self.freed, self.since) = (startsAt, freed, since)
        }
    }

    let database: DatabasePool
    let plugin: String

    public init(context: PluginContext) {
        database = context.database
        plugin = context.pluginID
    }

    /// Watches `watch.item`, or updates a watch of it: its auto-register, state, label and start
    /// change; when it was first watched and how many seats it has freed stay.
    public func add(_ watch: Watch) async throws {
        try await database.write { [plugin] db in
            try db.execute(
                sql: """
                    INSERT INTO host_exam_watches(plugin, account, item, auto_register, last_state, label, starts_at, freed_count, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
                    ON CONFLICT(plugin, account, item) DO UPDATE SET auto_register = excluded.auto_register,
                        last_state = excluded.last_state, label = COALESCE(excluded.label, label),
                        starts_at = COALESCE(excluded.starts_at, starts_at)
                    """,
                arguments: [plugin, watch.account, watch.item, watch.autoRegister, watch.lastState, watch.label, watch.startsAt, watch.since])
        }
    }

    /// Every watch of the plugin.
    public func all() async throws -> [Watch] {
        try await database.read { [plugin] db in
            try Row.fetchAll(db, sql: "SELECT * FROM host_exam_watches WHERE plugin = ? ORDER BY account, starts_at, item", arguments: [plugin])
                .map { row in
                    Watch(
                        account: row["account"], item: row["item"], autoRegister: row["auto_register"], lastState: row["last_state"],
                        label: row["label"], startsAt: row["starts_at"], freed: row["freed_count"], since: row["created_at"])
                }
        }
    }

    /// Whether there was a watch to remove.
    public func remove(account: String, item: String) async throws -> Bool {
        try await database.write { [plugin] db in
            try db.execute(
                sql: "DELETE FROM host_exam_watches WHERE plugin = ? AND account = ? AND item = ?", arguments: [plugin, account, item])
            return db.changesCount == 1
        }
    }

    /// After a check: the state seen and the seats freed so far.
    public func record(account: String, item: String, state: String?, freed: Int64) async throws {
        try await database.write { [plugin] db in
            try db.execute(
                sql: "UPDATE host_exam_watches SET last_state = ?, freed_count = ? WHERE plugin = ? AND account = ? AND item = ?",
                arguments: [state, freed, plugin, account, item])
        }
    }

    /// An account's watches, when the account is removed (inside the plugin's own write).
    public static func forget(plugin: String, account: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM host_exam_watches WHERE plugin = ? AND account = ?", arguments: [plugin, account])
    }

    /// The study kit's own migrations (`study/…`): each study plugin includes them
    /// (`PluginMigrations.include`) and the store runs them once. `IF NOT EXISTS`: a database from
    /// before the study kit owned the table has it already (the host made it, as `host/v5`).
    public static var migrations: PluginMigrations {
        var migrations = PluginMigrations(pluginID: "study")
        migrations.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS host_exam_watches (
                        plugin TEXT NOT NULL,
                        account TEXT NOT NULL,
                        item TEXT NOT NULL,
                        auto_register INTEGER NOT NULL DEFAULT 0,
                        last_state TEXT,
                        label TEXT,
                        starts_at TEXT,
                        freed_count INTEGER NOT NULL DEFAULT 0,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (plugin, account, item)
                    )
                    """)
        }
        return migrations
    }
}
