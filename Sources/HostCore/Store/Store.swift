import Foundation
import GRDB

public enum StoreError: Error, CustomStringConvertible {
    case newerDatabase(path: String, unknown: [String])
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .newerDatabase(let path, let unknown):
            "the database \(path) was written by a newer assistantd (unknown migrations: \(unknown.joined(separator: ", "))); "
                + "upgrade assistantd or restore a backup"
        case .cannotOpen(let path, let reason):
            "cannot open the database \(path): \(reason)"
        }
    }
}

/// The shared SQLite database: WAL, synchronous commits (an acknowledged write survives `kill -9`
/// and power loss), per-plugin migrations, a backup before any migration of an existing file.
public final class Store: Sendable {
    public let pool: DatabasePool
    public let path: String

    /// Opens (creating if needed) the database and migrates it. `plugins` are the ids whose
    /// migration namespaces this build knows; rows of other namespaces are left alone.
    public init(path: String, migrations: [PluginMigrations], logger: Logger) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // WAL with synchronous=FULL: a commit is on disk before the reply is sent.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let existed = FileManager.default.fileExists(atPath: path)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: ErrorText.sentence(error))
        }
        chmod(path, 0o600)

        var migrator = DatabaseMigrator()
        var registered: Set<String> = []
        for group in [HostSchema.migrations, KitSchema.migrations] + migrations {
            // A shared part's migrations come with each plugin that includes them: run once.
            for (identifier, migrate) in group.entries where registered.insert(identifier).inserted {
                migrator.registerMigration(identifier, migrate: migrate)
            }
        }
        let namespaces = Set(registered.map { String($0.prefix { $0 != "/" }) })
        let known = Set(migrator.migrations)
        let (applied, pending) = try pool.read { db in
            (try migrator.appliedIdentifiers(db), try !migrator.hasCompletedMigrations(db))
        }
        let unknown = applied.filter { id in
            !known.contains(id) && namespaces.contains(String(id.prefix { $0 != "/" }))
        }.sorted()
        if !unknown.isEmpty { throw StoreError.newerDatabase(path: path, unknown: unknown) }

        if existed && pending && !applied.isEmpty {
            let stamp = ISO8601.string(Date()).replacingOccurrences(of: ":", with: "")
            let backupPath = "\(path).pre-migration-\(stamp).sqlite"
            let target = try DatabaseQueue(path: backupPath)
            try pool.backup(to: target)
            try target.close()
            chmod(backupPath, 0o600)
            logger.notice("backed up the database before migrating", metadata: ["backup": "\(backupPath)"])
        }
        try migrator.migrate(pool)
    }

    /// A consistent copy of the live database (SQLite's online backup), written atomically.
    public func backup(to destination: String) throws {
        let temporary = destination + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            let target = try DatabaseQueue(path: temporary)
            try pool.backup(to: target)
            try target.close()
            chmod(temporary, 0o600)
            if rename(temporary, destination) != 0 {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    public func close() throws { try pool.close() }
}
