import PluginKit

/// The logbook's tables. Durations are integer minutes (`*_min`); instants are minutes since the
/// epoch (`*_at`, UTC); dates are `YYYY-MM-DD` text so the `sqlite3` shell reads them as they are.
enum LogbookSchema {
    static func register(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE logbook_profile (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        name TEXT, address TEXT, date_of_birth TEXT,
                        licences TEXT NOT NULL DEFAULT '[]', ratings TEXT NOT NULL DEFAULT '[]',
                        instrument_rating INTEGER NOT NULL DEFAULT 0,
                        default_function TEXT NOT NULL DEFAULT 'pic',
                        night_criterion TEXT NOT NULL DEFAULT 'civil_twilight'
                    );
                    CREATE TABLE logbook_aircraft (
                        registration TEXT PRIMARY KEY,
                        make TEXT, model TEXT, variant TEXT, type_designator TEXT,
                        engine TEXT NOT NULL DEFAULT 'se' CHECK (engine IN ('se', 'me')),
                        operation TEXT NOT NULL DEFAULT 'sp' CHECK (operation IN ('sp', 'mp')),
                        category TEXT NOT NULL DEFAULT 'aeroplane',
                        class_rating TEXT
                    );
                    CREATE TABLE logbook_entries (
                        id INTEGER PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('flight', 'fstd')),
                        date TEXT NOT NULL,
                        dep TEXT, arr TEXT,
                        out_at INTEGER, off_at INTEGER, on_at INTEGER, in_at INTEGER,
                        registration TEXT REFERENCES logbook_aircraft(registration) ON UPDATE CASCADE,
                        sp_se_min INTEGER NOT NULL DEFAULT 0, sp_me_min INTEGER NOT NULL DEFAULT 0,
                        mp_min INTEGER NOT NULL DEFAULT 0, total_min INTEGER NOT NULL DEFAULT 0,
                        pic_name TEXT,
                        takeoffs_day INTEGER NOT NULL DEFAULT 0, takeoffs_night INTEGER NOT NULL DEFAULT 0,
                        landings_day INTEGER NOT NULL DEFAULT 0, landings_night INTEGER NOT NULL DEFAULT 0,
                        night_min INTEGER NOT NULL DEFAULT 0, ifr_min INTEGER NOT NULL DEFAULT 0,
                        pic_min INTEGER NOT NULL DEFAULT 0, spic_min INTEGER NOT NULL DEFAULT 0,
                        picus_min INTEGER NOT NULL DEFAULT 0, copilot_min INTEGER NOT NULL DEFAULT 0,
                        dual_min INTEGER NOT NULL DEFAULT 0, instructor_min INTEGER NOT NULL DEFAULT 0,
                        examiner_min INTEGER NOT NULL DEFAULT 0,
                        approaches INTEGER NOT NULL DEFAULT 0,
                        remarks TEXT NOT NULL DEFAULT '',
                        duty_start_at INTEGER, duty_end_at INTEGER,
                        fstd_type TEXT, fstd_qualification TEXT,
                        deleted_at TEXT
                    );
                    CREATE INDEX logbook_entries_date ON logbook_entries(date) WHERE deleted_at IS NULL;
                    CREATE INDEX logbook_entries_registration ON logbook_entries(registration, date);
                    CREATE UNIQUE INDEX logbook_flight_identity
                        ON logbook_entries(date, dep, arr, out_at, registration)
                        WHERE kind = 'flight' AND deleted_at IS NULL;
                    CREATE TABLE logbook_certificates (
                        id INTEGER PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('medical', 'other')),
                        name TEXT NOT NULL,
                        medical_class TEXT CHECK (medical_class IN ('class1', 'class2', 'lapl')),
                        examination_date TEXT, single_pilot_cat_passengers INTEGER NOT NULL DEFAULT 0,
                        issue_date TEXT, expiry_date TEXT, remarks TEXT NOT NULL DEFAULT ''
                    );
                    CREATE TABLE logbook_airports (
                        icao TEXT PRIMARY KEY, iata TEXT, name TEXT NOT NULL,
                        latitude REAL NOT NULL, longitude REAL NOT NULL, elevation_ft INTEGER NOT NULL DEFAULT 0,
                        tz TEXT NOT NULL
                    );
                    CREATE TABLE logbook_starting_totals (
                        column TEXT PRIMARY KEY, value INTEGER NOT NULL
                    );
                    CREATE TABLE logbook_reminders (
                        key TEXT PRIMARY KEY, notified_at TEXT NOT NULL
                    );
                    """)
        }
        migrations.register("v2-month-totals") { db in try MonthTotals.create(db) }
        migrations.register("v3-duties") { db in try DutyPeriods.create(db) }
        // SQLite cannot change a CHECK: the table is made again with class ratings allowed.
        migrations.register("v4-class-ratings") { db in
            try db.execute(
                sql: """
                    CREATE TABLE logbook_certificates_new (
                        id INTEGER PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('medical', 'rating', 'other')),
                        name TEXT NOT NULL,
                        medical_class TEXT CHECK (medical_class IN ('class1', 'class2', 'lapl')),
                        examination_date TEXT, single_pilot_cat_passengers INTEGER NOT NULL DEFAULT 0,
                        issue_date TEXT, expiry_date TEXT, remarks TEXT NOT NULL DEFAULT '',
                        class_rating TEXT
                    );
                    INSERT INTO logbook_certificates_new (
                        id, kind, name, medical_class, examination_date, single_pilot_cat_passengers, issue_date, expiry_date, remarks)
                    SELECT id, kind, name, medical_class, examination_date, single_pilot_cat_passengers, issue_date, expiry_date, remarks
                    FROM logbook_certificates;
                    DROP TABLE logbook_certificates;
                    ALTER TABLE logbook_certificates_new RENAME TO logbook_certificates;
                    """)
        }
        migrations.register("v5-attachments") { db in try Attachment.create(db) }
    }
}

/// Sums per month, aircraft and kind, kept by triggers in the same transaction as every change to
/// `logbook_entries`, so totals over 100 000 flights read a few hundred rows instead of all of them.
enum MonthTotals {
    static let columns = TimeColumn.allCases.map(\.column) + CountColumn.allCases.map(\.name)

    static func key(_ ref: String) -> String { "COALESCE(\(ref).registration, 'FSTD ' || COALESCE(\(ref).fstd_type, ''))" }

    static func add(_ ref: String, when condition: String) -> String {
        """
        INSERT INTO logbook_month_totals (month, reg_key, kind, entries, \(columns.joined(separator: ", ")))
        SELECT substr(\(ref).date, 1, 7), \(key(ref)), \(ref).kind, 1, \(columns.map { "\(ref).\($0)" }.joined(separator: ", "))
        WHERE \(condition)
        ON CONFLICT(month, reg_key, kind) DO UPDATE SET entries = entries + 1,
        \(columns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", "));
        """
    }

    static func subtract(_ ref: String, when condition: String) -> String {
        """
        UPDATE logbook_month_totals SET entries = entries - 1, \(columns.map { "\($0) = \($0) - \(ref).\($0)" }.joined(separator: ", "))
        WHERE month = substr(\(ref).date, 1, 7) AND reg_key = \(key(ref)) AND kind = \(ref).kind AND \(condition);
        """
    }

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE logbook_month_totals (
                    month TEXT NOT NULL, reg_key TEXT NOT NULL, kind TEXT NOT NULL, entries INTEGER NOT NULL DEFAULT 0,
                    \(columns.map { "\($0) INTEGER NOT NULL DEFAULT 0" }.joined(separator: ", ")),
                    PRIMARY KEY (month, reg_key, kind)
                ) WITHOUT ROWID;
                CREATE TRIGGER logbook_month_totals_insert AFTER INSERT ON logbook_entries BEGIN
                    \(add("NEW", when: "NEW.deleted_at IS NULL"))
                END;
                CREATE TRIGGER logbook_month_totals_delete AFTER DELETE ON logbook_entries BEGIN
                    \(subtract("OLD", when: "OLD.deleted_at IS NULL"))
                END;
                CREATE TRIGGER logbook_month_totals_update AFTER UPDATE ON logbook_entries BEGIN
                    \(subtract("OLD", when: "OLD.deleted_at IS NULL"))
                    \(add("NEW", when: "NEW.deleted_at IS NULL"))
                END;
                INSERT INTO logbook_month_totals (month, reg_key, kind, entries, \(columns.joined(separator: ", ")))
                SELECT substr(date, 1, 7), \(key("logbook_entries")), kind, COUNT(*), \(columns.map { "SUM(\($0))" }.joined(separator: ", "))
                FROM logbook_entries WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
                """)
    }
}
