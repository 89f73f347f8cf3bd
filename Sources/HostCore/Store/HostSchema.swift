import GRDB

/// The host's own tables. Identifiers are `host/<name>`; never edit an applied migration.
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
        // The plugin kit: accounts, the offline read cache, refresh baselines.
        m.register("v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE host_accounts (
                        plugin TEXT NOT NULL,
                        name TEXT NOT NULL,
                        settings TEXT NOT NULL DEFAULT '{}',
                        is_default INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL DEFAULT 'ready',
                        detail TEXT,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (plugin, name)
                    );
                    CREATE TABLE host_cache (
                        plugin TEXT NOT NULL,
                        account TEXT NOT NULL,
                        key TEXT NOT NULL,
                        value TEXT NOT NULL,
                        fetched_at TEXT NOT NULL,
                        PRIMARY KEY (plugin, account, key)
                    );
                    CREATE INDEX host_cache_age ON host_cache(plugin, fetched_at);
                    CREATE TABLE host_refresh (
                        plugin TEXT NOT NULL,
                        name TEXT NOT NULL,
                        account TEXT NOT NULL,
                        items TEXT NOT NULL,
                        state TEXT NOT NULL DEFAULT 'ok',
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (plugin, name, account)
                    );
                    """)
        }
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
        // The study kit's watch table, shared by the study plugins (each moves its own rows in).
        m.register("v5") { db in
            try db.execute(sql: ExamWatches.tableSQL)
        }
        return m
    }
}
