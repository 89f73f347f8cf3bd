import AssistantTesting
import Foundation
import GRDB
import HostCore
import PluginKit
import Testing

@testable import Stag

/// The watches of a database from before the study kit's table move into it, unchanged.
struct WatchMigrationTests {
    @Test func stagWatchesMoveIntoTheKitsTable() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("a.sqlite")
        // The study kit's table, then the plugin's own migrations, as the plugin registers them.
        var all = PluginMigrations(pluginID: "stag")
        StagPlugin().registerMigrations(&all)
        var first = all
        first.entries = all.entries.filter { $0.0 != "stag/v2" }
        #expect(first.entries.count == all.entries.count - 1)
        do {
            let old = try Store(path: path, migrations: [first], logger: Logger(label: "t"))
            try old.pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO stag_watches(account, term_id, auto_register, last_state, subject, freed_count, created_at) VALUES
                        ('zcu', 1118482, 1, 'full', 'KIV/PPA1', 2, '2026-11-01T10:00:00Z'),
                        ('upol', 9, 0, NULL, NULL, 0, '2026-11-02T10:00:00Z')
                        """)
            }
            try old.close()
        }
        let store = try Store(path: path, migrations: [all], logger: Logger(label: "t"))
        let rows = try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM host_exam_watches ORDER BY account").map { row -> String in
                let state: String? = row["last_state"]
                let label: String? = row["label"]
                let values: [String] = [
                    row["plugin"], row["account"], row["item"], String(row["auto_register"] as Int), state ?? "-", label ?? "-",
                    String(row["freed_count"] as Int), row["created_at"],
                ]
                return values.joined(separator: "|")
            }
        }
        #expect(rows == ["stag|upol|9|0|-|-|0|2026-11-02T10:00:00Z", "stag|zcu|1118482|1|full|KIV/PPA1|2|2026-11-01T10:00:00Z"])
        #expect(try store.pool.read { db in try db.tableExists("stag_watches") } == false)
        try store.close()
    }
}
