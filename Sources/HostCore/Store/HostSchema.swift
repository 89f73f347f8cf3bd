import GRDB

/// The host's own tables. Identifiers are `host/<name>`; never edit an applied migration (v2 and
/// v5 were emptied when their tables moved to their owners, whose migrations make them only if
/// they are not there).
enum HostSchema {
    static var migrations: PluginMigrations {
        var m = PluginMigrations(pluginID: "host")
        m.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE host_vault (
                        name TEXT PRIMARY KEY NOT NULL,
                        ciphertext BLOB NOT NULL,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL
                    );
                    CREATE TABLE host_vault_meta (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    );
                    CREATE TABLE host_jobs (
                        id TEXT PRIMARY KEY NOT NULL,
                        last_run TEXT,
                        last_success TEXT,
                        last_outcome TEXT,
                        last_error TEXT,
                        consecutive_failures INTEGER NOT NULL DEFAULT 0,
                        next_run TEXT
                    );
                    CREATE TABLE host_notices (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq INTEGER NOT NULL,
                        topic TEXT NOT NULL,
                        plugin TEXT NOT NULL,
                        title TEXT NOT NULL,
                        body TEXT NOT NULL,
                        severity TEXT NOT NULL,
                        time TEXT NOT NULL,
                        dedupe_key TEXT,
                        direct_to TEXT,
                        attachments TEXT NOT NULL DEFAULT '[]'
                    );
                    CREATE INDEX host_notices_time ON host_notices(time);
                    CREATE TABLE host_notice_attachments (
                        notice_id TEXT NOT NULL REFERENCES host_notices(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        content_type TEXT NOT NULL,
                        data BLOB NOT NULL,
                        PRIMARY KEY (notice_id, position)
                    );
                    CREATE TABLE host_outbox (
                        notice_id TEXT NOT NULL REFERENCES host_notices(id) ON DELETE CASCADE,
                        sink TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt TEXT NOT NULL,
                        last_error TEXT,
                        delivered_at TEXT,
                        PRIMARY KEY (notice_id, sink)
                    );
                    CREATE INDEX host_outbox_pending ON host_outbox(delivered_at, next_attempt);
                    CREATE TABLE host_dedupe (
                        key TEXT PRIMARY KEY NOT NULL,
                        first_seen TEXT NOT NULL
                    );
                    """)
        }
        // Made the plugin kit's tables until the kit owned them (`KitSchema`, `kit/v1`). Kept,
        // empty, so that a database where it ran still knows every identifier it holds.
        m.register("v2") { _ in }
        // Blind copies of a direct mail (a teacher's message to a class's students).
        m.register("v3") { db in
            try db.execute(sql: "ALTER TABLE host_notices ADD COLUMN direct_bcc TEXT")
        }
        // A delivery a sink refused for good (a webhook's 410): not retried, kept for `status`; a
        // notice's link (ntfy's Click).
        m.register("v4") { db in
            try db.execute(sql: "ALTER TABLE host_outbox ADD COLUMN failed_at TEXT")
            try db.execute(sql: "ALTER TABLE host_notices ADD COLUMN link TEXT")
        }
        // Made the study kit's watch table until the study kit owned it (`ExamWatches.migrations`,
        // `study/v1`); kept, empty, for the same reason as v2.
        m.register("v5") { _ in }
        // The web app's paired devices and its one-time pairing addresses; secrets only as hashes.
        m.register("v6") { db in
            try db.execute(
                sql: """
                    CREATE TABLE host_web_pairings (
                        id TEXT PRIMARY KEY NOT NULL,
                        secret_hash BLOB NOT NULL,
                        name TEXT NOT NULL,
                        role TEXT NOT NULL,
                        created_at TEXT NOT NULL,
                        expires_at TEXT NOT NULL
                    );
                    CREATE TABLE host_web_devices (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        role TEXT NOT NULL,
                        session_hash BLOB NOT NULL,
                        paired_at TEXT NOT NULL,
                        last_seen TEXT,
                        session_expires_at TEXT NOT NULL
                    );
                    """)
        }
        return m
    }
}
