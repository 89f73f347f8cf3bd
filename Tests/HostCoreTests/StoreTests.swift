import AssistantTesting
import Foundation
import GRDB
import HostCore
import StudyKit
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct StoreTests {
    @Test func walAndSynchronousFull() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.file("s.sqlite"), migrations: [], logger: Logger(label: "t"))
        let (mode, sync) = try await store.pool.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode")!, try Int.fetchOne(db, sql: "PRAGMA synchronous")!)
        }
        #expect(mode == "wal")
        #expect(sync == 2, "synchronous = FULL")
    }

    @Test func pluginMigrationsAreNamespacedAndABackupIsTakenBeforeMigrating() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("s.sqlite")
        var v1 = PluginMigrations(pluginID: "demo")
        v1.register("v1") { db in try db.execute(sql: "CREATE TABLE demo_items (id INTEGER PRIMARY KEY)") }
        do { try Store(path: path, migrations: [v1], logger: Logger(label: "t")).close() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("pre-migration") }.isEmpty)

        var v2 = v1
        v2.register("v2") { db in try db.execute(sql: "ALTER TABLE demo_items ADD COLUMN name TEXT") }
        let store = try Store(path: path, migrations: [v2], logger: Logger(label: "t"))
        let applied = try store.pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        #expect(applied == ["demo/v1", "demo/v2", "host/v1", "host/v2", "host/v3", "host/v4", "host/v5", "host/v6", "kit/v1"])
        let backups = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains("pre-migration") && $0.hasSuffix(".sqlite")
        }
        #expect(backups.count == 1)
        // The backup holds the pre-migration schema.
        let old = try DatabaseQueue(path: directory.file(backups[0]))
        let columns = try old.read { db in try db.columns(in: "demo_items").map(\.name) }
        #expect(columns == ["id"])
    }

    /// The kit's and the study kit's tables were made by the host's `host/v2` and `host/v5` before
    /// their owners' migrations (`kit/v1`, `study/v1`) made them: a database from then opens with
    /// its rows, and a shared part included by two plugins runs once.
    @Test func aDatabaseFromBeforeTheKitsOwnedTheirTablesKeepsItsRows() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("s.sqlite")
        var first = PluginMigrations(pluginID: "first")
        first.include(ExamWatches.migrations)
        first.register("v1") { db in try db.execute(sql: "INSERT INTO host_exam_watches VALUES ('first', 'a', '7', 0, NULL, NULL, NULL, 2, 'now')") }
        var second = PluginMigrations(pluginID: "second")
        second.include(ExamWatches.migrations)
        do {
            let store = try Store(path: path, migrations: [first, second], logger: Logger(label: "t"))
            let applied = try store.pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
            #expect(applied == ["first/v1", "host/v1", "host/v2", "host/v3", "host/v4", "host/v5", "host/v6", "kit/v1", "study/v1"])
            // As the host left such a database: its tables and rows, and no record of their owners' migrations.
            try store.pool.write { db in
                try db.execute(sql: "INSERT INTO host_accounts(plugin, name, created_at) VALUES ('first', 'a', 'now')")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('kit/v1', 'study/v1')")
            }
            try store.close()
        }
        let store = try Store(path: path, migrations: [first, second], logger: Logger(label: "t"))
        let (accounts, freed, applied) = try store.pool.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM host_accounts"),
                try Int.fetchOne(db, sql: "SELECT freed_count FROM host_exam_watches WHERE plugin = 'first'"),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier IN ('kit/v1', 'study/v1') ORDER BY 1")
            )
        }
        #expect(accounts == ["a"])
        #expect(freed == 2)
        #expect(applied == ["kit/v1", "study/v1"])
    }

    @Test func aDatabaseFromANewerVersionIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("s.sqlite")
        var newer = PluginMigrations(pluginID: "demo")
        newer.register("v1") { _ in }
        newer.register("v9") { _ in }
        do { try Store(path: path, migrations: [newer], logger: Logger(label: "t")).close() }
        var older = PluginMigrations(pluginID: "demo")
        older.register("v1") { _ in }
        #expect {
            _ = try Store(path: path, migrations: [older], logger: Logger(label: "t"))
        } throws: { error in
            "\(error)".contains("newer assistantd") && "\(error)".contains("demo/v9")
        }
        // A namespace this build does not know (a removed plugin) is not a reason to refuse.
        _ = try Store(path: path, migrations: [], logger: Logger(label: "t"))
    }

    @Test func backupWhileWritingIsConsistent() async throws {
        let host = try await TestHost.started()
        let connection = try await host.connect()
        let writer = Task {
            var acknowledged = 0
            for i in 0..<300 {
                _ = try await connection.call("vault.set", params: ["name": .string("host/k\(i)"), "secret": .string("v\(i)")])
                acknowledged += 1
            }
            return acknowledged
        }
        var backups: [String] = []
        for i in 0..<5 {
            let path = host.directory.file("backup-\(i).sqlite")
            let result = try await host.call("backup", ["path": .string(path)])
            #expect(try result.get()["bytes"]?.intValue ?? 0 > 0)
            backups.append(path)
        }
        #expect(try await writer.value == 300)
        for path in backups {
            let copy = try DatabaseQueue(path: path)
            let check = try await copy.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
            #expect(check == "ok")
            let names = try await copy.read { db in try String.fetchAll(db, sql: "SELECT name FROM host_vault") }
            // Every copy is a prefix of the write sequence: k0…kN with no gap.
            let numbers = names.compactMap { Int($0.dropFirst("host/k".count)) }.sorted()
            #expect(numbers == Array(0..<numbers.count))
        }
        let exists = try await host.call("backup", ["path": .string(backups[0])])
        guard case .failure(let error) = exists else {
            Issue.record("overwrote without asking")
            return
        }
        #expect(error.data?["param"] == "path")
        let relative = try await host.call("backup", ["path": "relative.sqlite"])
        guard case .failure(let relativeError) = relative else {
            Issue.record("accepted a relative path")
            return
        }
        #expect(relativeError.code == -32602)
        let nowhere = try await host.call("backup", ["path": .string(host.directory.file("missing/copy.sqlite"))])
        guard case .failure(let nowhereError) = nowhere else {
            Issue.record("wrote into a folder that is not there")
            return
        }
        #expect(nowhereError.data?["param"] == "path")
        #expect(nowhereError.message.contains("does not exist"), "\(nowhereError.message)")
        await connection.close()
        await host.stop()
    }
}
