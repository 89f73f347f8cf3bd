import AssistantTesting
import Foundation
import GRDB
import HostCore
import PluginKit
import Testing

@testable import KOS

/// KOS's watches of a database from before the study kit's table move into it, unchanged.
struct WatchMigrationTests {
    @Test func kosWatchesMoveIntoTheKitsTable() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("a.sqlite")
        // The study kit's table, then the plugin's own migrations, as the plugin registers them.
        var all = PluginMigrations(pluginID: "kos")
        KOSPlugin().registerMigrations(&all)
        var first = all
        first.entries = all.entries.filter { $0.0 != "kos/v2" }
        #expect(first.entries.count == all.entries.count - 1)
        do {
            let old = try Store(path: path, migrations: [first], logger: Logger(label: "t"))
            try old.pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO kos_watches(exam_id, course, start, last_full, freed_count, created_at) VALUES
                        ('902', 'BI-OPT', '2027-01-17T09:00:00', 1, 3, '2026-11-01T10:00:00Z'),
                        ('903', NULL, NULL, 0, 0, '2026-11-02T10:00:00Z')
                        """)
            }
            try old.close()
        }
        let store = try Store(path: path, migrations: [all], logger: Logger(label: "t"))
        let rows = try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM host_exam_watches ORDER BY item").map { row -> String in
                let label: String? = row["label"]
                let start: String? = row["starts_at"]
                let values: [String] = [
                    row["plugin"], row["account"], row["item"], row["last_state"], label ?? "-", start ?? "-", String(row["freed_count"] as Int),
                    row["created_at"],
                ]
                return values.joined(separator: "|")
            }
        }
        #expect(rows == ["kos||902|full|BI-OPT|2027-01-17T09:00:00|3|2026-11-01T10:00:00Z", "kos||903|free|-|-|0|2026-11-02T10:00:00Z"])
        #expect(try store.pool.read { db in try db.tableExists("kos_watches") } == false)
        try store.close()
    }
}
