import GRDB
import PluginKit

/// The OAuth client's settings, the user's login and the watched exams (secrets in the vault: `kos/client_secret`,
/// `kos/access_token`, `kos/refresh_token`).
enum KOSSchema {
    static func register(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE kos_client (
                        one INTEGER PRIMARY KEY CHECK (one = 1),
                        client_id TEXT NOT NULL,
                        api_url TEXT NOT NULL,
                        auth_url TEXT NOT NULL,
                        redirect_port INTEGER
                    );
                    CREATE TABLE kos_login (
                        one INTEGER PRIMARY KEY CHECK (one = 1),
                        username TEXT,
                        expires_at REAL NOT NULL,
                        state TEXT NOT NULL,
                        detail TEXT
                    );
                    CREATE TABLE kos_watches (
                        exam_id TEXT PRIMARY KEY,
                        course TEXT,
                        start TEXT,
                        last_full INTEGER NOT NULL,
                        freed_count INTEGER NOT NULL DEFAULT 0,
                        created_at TEXT NOT NULL
                    );
                    """)
        }
        // Watches move to the kit's table (host_exam_watches), shared by the study plugins.
        migrations.register("v2") { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO host_exam_watches(
                        plugin, account, item, auto_register, last_state, label, starts_at, freed_count, created_at)
                    SELECT 'kos', '', exam_id, 0, CASE last_full WHEN 1 THEN 'full' ELSE 'free' END, course, start, freed_count, created_at
                    FROM kos_watches;
                    DROP TABLE kos_watches;
                    """)
        }
    }
}
