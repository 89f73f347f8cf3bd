import GRDB
import PluginKit
import StudyKit

/// The Stag plugin's own tables. Refresh baselines live in the kit's `host_refresh`, cached
/// reads in `host_cache`, accounts in `host_accounts`.
enum StagSchema {
    static func register(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE stag_account_state (
                        account TEXT PRIMARY KEY,
                        last_refresh TEXT
                    );
                    CREATE TABLE stag_watches (
                        account TEXT NOT NULL,
                        term_id INTEGER NOT NULL,
                        auto_register INTEGER NOT NULL DEFAULT 0,
                        last_state TEXT,
                        subject TEXT,
                        freed_count INTEGER NOT NULL DEFAULT 0,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (account, term_id)
                    );
                    """)
        }
        // Watches move to the kit's table (host_exam_watches), shared by the study plugins.
        migrations.register("v2") { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO host_exam_watches(
                        plugin, account, item, auto_register, last_state, label, starts_at, freed_count, created_at)
                    SELECT 'stag', account, CAST(term_id AS TEXT), auto_register, last_state, subject, NULL, freed_count, created_at
                    FROM stag_watches;
                    DROP TABLE stag_watches;
                    """)
        }
    }
}

enum StagStore {
    static func forget(account: String, in pool: DatabasePool) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM stag_account_state WHERE account = ?", arguments: [account])
            try ExamWatches.forget(plugin: "stag", account: account, in: db)
        }
    }

    static func refreshed(account: String, at: String, in pool: DatabasePool) async throws {
        try await pool.write { db in
            try db.execute(
                sql:
                    "INSERT INTO stag_account_state(account, last_refresh) VALUES (?, ?) "
                    + "ON CONFLICT(account) DO UPDATE SET last_refresh = excluded.last_refresh",
                arguments: [account, at])
        }
    }
}
