import PluginKit

/// The tasks tables. Times are wall-clock text in the item's `tz` (`YYYY-MM-DDTHH:MM:SS`, or
/// `YYYY-MM-DD` for all-day), as a calendar shows them; `first_at`/`last_at` are UTC epoch seconds
/// derived from them so a window query can use an index (`last_at` NULL = repeats for ever), and
/// `sort_at`/`due_at`/`overdue_at` place an item in a list (`TaskItem.placement`).
enum TasksSchema {
    static let builtinCategories = ["school", "work", "personal", "meeting", "errand", "health", "sport"]

    static func register(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE tasks_items (
                        id TEXT PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('todo', 'event')),
                        title TEXT NOT NULL,
                        notes TEXT NOT NULL DEFAULT '',
                        category TEXT,
                        tags TEXT NOT NULL DEFAULT '[]',
                        priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 9),
                        parent TEXT,
                        location TEXT, url TEXT,
                        status TEXT NOT NULL DEFAULT 'needs-action',
                        completed_at REAL,
                        created REAL NOT NULL, modified REAL NOT NULL,
                        tz TEXT NOT NULL, all_day INTEGER NOT NULL DEFAULT 0,
                        start TEXT, due TEXT, end TEXT, duration_min INTEGER,
                        rrule TEXT, exdates TEXT NOT NULL DEFAULT '[]', rdates TEXT NOT NULL DEFAULT '[]',
                        repeat_from_completion INTEGER NOT NULL DEFAULT 0,
                        reminders TEXT NOT NULL DEFAULT '[]', channels TEXT,
                        overrides TEXT NOT NULL DEFAULT '{}', extra TEXT NOT NULL DEFAULT '[]',
                        source TEXT NOT NULL DEFAULT 'local',
                        sequence INTEGER NOT NULL DEFAULT 0,
                        deleted_at REAL,
                        first_at REAL, last_at REAL,
                        recurring INTEGER NOT NULL DEFAULT 0,
                        -- A repeating item's occurrences in [indexed_from, indexed_until) are in tasks_occurrences.
                        indexed_from REAL, indexed_until REAL
                    );
                    -- Occurrence index: each repeating item's occurrences (by their RECURRENCE-ID) with the
                    -- instant they sort by, over a rolling horizon, so a window is a range scan and libical
                    -- runs when a series is saved, not on every query.
                    CREATE TABLE tasks_occurrences (
                        task_id TEXT NOT NULL, rid TEXT NOT NULL, start_at REAL NOT NULL,
                        PRIMARY KEY (task_id, rid)
                    ) WITHOUT ROWID;
                    CREATE INDEX tasks_occurrences_start ON tasks_occurrences(start_at);
                    CREATE TRIGGER tasks_items_gone AFTER DELETE ON tasks_items BEGIN
                        DELETE FROM tasks_occurrences WHERE task_id = old.id;
                    END;
                    CREATE INDEX tasks_items_window ON tasks_items(first_at) WHERE deleted_at IS NULL;
                    CREATE INDEX tasks_items_recurring ON tasks_items(recurring) WHERE deleted_at IS NULL AND recurring = 1;
                    CREATE INDEX tasks_items_parent ON tasks_items(parent);
                    CREATE INDEX tasks_items_source ON tasks_items(source);
                    CREATE TABLE tasks_categories (name TEXT PRIMARY KEY, builtin INTEGER NOT NULL DEFAULT 0);
                    -- Reminders already delivered (task, occurrence, reminder), so nothing is sent twice.
                    CREATE TABLE tasks_reminders_sent (key TEXT PRIMARY KEY, task_id TEXT NOT NULL, fire_at REAL NOT NULL, sent_at REAL NOT NULL);
                    CREATE INDEX tasks_reminders_sent_task ON tasks_reminders_sent(task_id, fire_at);
                    -- Per task: from when reminders were looked at (missed ones after a restart), and a snooze.
                    CREATE TABLE tasks_reminder_state (
                        task_id TEXT PRIMARY KEY, armed_from REAL NOT NULL,
                        snooze_at REAL, snooze_key TEXT
                    );
                    CREATE TABLE tasks_feeds (
                        name TEXT PRIMARY KEY, display_url TEXT NOT NULL,
                        etag TEXT, last_modified TEXT, fetched_at REAL, problem TEXT
                    );
                    CREATE TABLE tasks_caldav_objects (
                        account TEXT NOT NULL, href TEXT NOT NULL, task_id TEXT NOT NULL, etag TEXT, calendar TEXT NOT NULL,
                        -- The task's SEQUENCE when it last matched the server: a local edit bumps it.
                        synced_sequence INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (account, href)
                    );
                    CREATE INDEX tasks_caldav_objects_task ON tasks_caldav_objects(task_id);
                    CREATE TABLE tasks_caldav_calendars (
                        account TEXT NOT NULL, href TEXT NOT NULL, name TEXT, components TEXT NOT NULL, sync_token TEXT,
                        PRIMARY KEY (account, href)
                    );
                    """)
            for name in builtinCategories {
                try db.execute(sql: "INSERT INTO tasks_categories(name, builtin) VALUES (?, 1)", arguments: [name])
            }
        }
        // Where a list places an item without expanding or even reading it (`TaskItem.placement`),
        // so `tasks.list` sorts and cuts in SQL: reading every candidate whole was most of a list.
        migrations.register("v2-placement") { db in
            try db.execute(
                sql: """
                    ALTER TABLE tasks_items ADD COLUMN sort_at REAL;
                    ALTER TABLE tasks_items ADD COLUMN due_at REAL;
                    ALTER TABLE tasks_items ADD COLUMN overdue_at REAL;
                    -- Covers what a list selects and sorts by, so choosing its rows reads no table row.
                    CREATE INDEX tasks_items_placement ON tasks_items(
                        deleted_at, status, recurring, overdue_at, sort_at, due_at, priority, title, id, indexed_from, indexed_until);
                    """)
            let update = try db.makeStatement(sql: "UPDATE tasks_items SET sort_at = ?, due_at = ?, overdue_at = ? WHERE id = ?")
            for item in try TaskItem.fetchAllInMigration(db) {
                let placed = item.placement
                try update.execute(arguments: [placed.sortAt, placed.dueAt, placed.overdueAt, item.id])
            }
        }
        // What a feed's last read left out, and why (the first reasons): a feed whose every event
        // was refused must say so, not show zero items and no problem.
        migrations.register("v3-feed-skipped") { db in
            try db.execute(
                sql: """
                    ALTER TABLE tasks_feeds ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE tasks_feeds ADD COLUMN skipped_reasons TEXT NOT NULL DEFAULT '[]';
                    """)
        }
    }
}
