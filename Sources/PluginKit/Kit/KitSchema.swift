/// The kit's own tables: accounts (`Accounts`), the offline read cache (`ReadCache`) and refresh
/// baselines (`RefreshCoordinator`), shared by every plugin and keyed by plugin id. The store
/// runs these migrations before any plugin's. `IF NOT EXISTS`: a database from before the kit
/// owned them has them already (the host made them, as `host/v2`).
package enum KitSchema {
    package static var migrations: PluginMigrations {
        var migrations = PluginMigrations(pluginID: "kit")
        migrations.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS host_accounts (
                        plugin TEXT NOT NULL,
                        name TEXT NOT NULL,
                        settings TEXT NOT NULL DEFAULT '{}',
                        is_default INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL DEFAULT 'ready',
                        detail TEXT,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (plugin, name)
                    );
                    CREATE TABLE IF NOT EXISTS host_cache (
                        plugin TEXT NOT NULL,
                        account TEXT NOT NULL,
                        key TEXT NOT NULL,
                        value TEXT NOT NULL,
                        fetched_at TEXT NOT NULL,
                        PRIMARY KEY (plugin, account, key)
                    );
                    CREATE INDEX IF NOT EXISTS host_cache_age ON host_cache(plugin, fetched_at);
                    CREATE TABLE IF NOT EXISTS host_refresh (
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
        return migrations
    }
}
