import Crypto
import CryptoExtras
import Foundation
import GRDB

/// The credential vault: one ChaCha20-Poly1305 seal per entry with a fresh random nonce on every
/// write; the entry's name is the associated data, so a ciphertext moved to another name fails to
/// open. Ciphertexts live in the database, the key never does.
public actor Vault {
    static let aadPrefix = "assistantd/vault/v1|"
    static let checkName = "\u{0}check"
    static let checkPlaintext = Data("assistantd vault check v1".utf8)

    private let pool: DatabasePool
    private let source: VaultKeySource
    private let redactor: SecretRedactor
    private let clock: any HostClock
    private var key: SymmetricKey?

    public init(pool: DatabasePool, source: VaultKeySource, redactor: SecretRedactor, clock: any HostClock) throws {
        self.pool = pool
        self.source = source
        self.redactor = redactor
        self.clock = clock
        if case .keyFile(let path, let create) = source {
            let key = try Self.loadKey(path: path, create: create, pool: pool)
            self.key = key
            try Self.rememberAll(pool: pool, key: key, redactor: redactor)
        }
    }

    public var isLocked: Bool { key == nil }

    public var mode: String {
        switch source {
        case .keyFile: "keyfile"
        case .passphrase: "passphrase"
        }
    }

    // MARK: Entries

    // `set` and `get` read the key and the row with no suspension in between, on purpose: with
    // GRDB's async API, a `rekey` could reseal every row between the two, and the value would be
    // sealed (or opened) with the old key. Each is one single-row statement. `list` and
    // `delete` use no key, and use the async API.
    public func set(_ name: String, secret: String) throws {
        try Self.validate(name: name)
        let key = try requireKey()
        let sealed = try Self.seal(Data(secret.utf8), name: name, key: key)
        let now = ISO8601.string(clock.now)
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO host_vault(name, ciphertext, created_at, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at
                    """, arguments: [name, sealed, now, now])
        }
        redactor.remember(secret)
    }

    public func get(_ name: String) throws -> String? {
        let key = try requireKey()
        guard
            let sealed = try pool.read({ db in
                try Data.fetchOne(db, sql: "SELECT ciphertext FROM host_vault WHERE name = ?", arguments: [name])
            })
        else { return nil }
        let plain = try Self.open(sealed, name: name, key: key)
        let secret = String(decoding: plain, as: UTF8.self)
        redactor.remember(secret)
        return secret
    }

    /// Names and timestamps only, never values. Works while locked.
    public func list(prefix: String?) async throws -> [VaultEntryInfo] {
        let pattern = Self.likePrefix(prefix ?? "")
        return try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT name, created_at, updated_at FROM host_vault WHERE name LIKE ? ESCAPE '\\' ORDER BY name",
                arguments: [pattern]
            ).map { VaultEntryInfo(name: $0["name"], createdAt: $0["created_at"], updatedAt: $0["updated_at"]) }
        }
    }

    @discardableResult
    public func delete(_ name: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM host_vault WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    // MARK: Passphrase mode

    /// Unlocks a passphrase vault. The first unlock of an empty vault sets the passphrase.
    public func unlock(passphrase: String) async throws {
        guard case .passphrase(let defaultLogN) = source else { throw VaultError.notPassphraseMode }
        let stored = try await pool.read { db in try Self.kdfParameters(db) }
        let (salt, logN) = stored ?? (Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }), defaultLogN)
        // The actor is free while scrypt runs, so another first unlock may set the passphrase
        // meanwhile: the write checks again, and this one then unlocks against what it set.
        let key = try await Self.deriveOffThePool(passphrase: passphrase, salt: salt, logN: logN)
        if stored == nil {
            let setMeanwhile = try await pool.write { db -> Bool in
                guard try Self.kdfParameters(db) == nil else { return true }
                try Self.storeKDF(db, salt: salt, logN: logN)
                try Self.storeCheck(db, key: key)
                return false
            }
            if setMeanwhile { return try await unlock(passphrase: passphrase) }
        } else {
            do { try Self.verify(pool: pool, key: key) } catch VaultError.keyMismatch { throw VaultError.wrongPassphrase }
        }
        self.key = key
        redactor.remember(passphrase)
        try Self.rememberAll(pool: pool, key: key, redactor: redactor)
    }

    public func lock() throws {
        guard case .passphrase = source else { throw VaultError.notPassphraseMode }
        key = nil
    }

    /// Re-seals every entry under a new key: a new random key file, or a new passphrase.
    public func rekey(newPassphrase: String?) async throws {
        let oldKey = try requireKey()
        switch source {
        case .keyFile(let path, _):
            let newKey = SymmetricKey(size: .bits256)
            // Write the new key beside the old one first; the swap happens after the commit, and a
            // crash in between is recovered at start (whichever key opens the vault wins).
            let pendingPath = path + ".new"
            try VaultKeySource.writeKeyFile(newKey, to: pendingPath)
            try reseal(from: oldKey, to: newKey, extra: { _ in })
            guard rename(pendingPath, path) == 0 else { throw VaultError.keyFileInvalid(path: path, reason: "rename failed") }
            key = newKey
        case .passphrase(let logN):
            guard let newPassphrase, !newPassphrase.isEmpty else { throw VaultError.wrongPassphrase }
            let salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
            let newKey = try await Self.deriveOffThePool(passphrase: newPassphrase, salt: salt, logN: logN)
            try reseal(from: oldKey, to: newKey) { db in try Self.storeKDF(db, salt: salt, logN: logN) }
            key = newKey
            redactor.remember(newPassphrase)
        }
    }

    private func reseal(from oldKey: SymmetricKey, to newKey: SymmetricKey, extra: (Database) throws -> Void) throws {
        try pool.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT name, ciphertext FROM host_vault")
            for row in rows {
                let name: String = row["name"]
                let plain = try Self.open(row["ciphertext"], name: name, key: oldKey)
                try db.execute(
                    sql: "UPDATE host_vault SET ciphertext = ? WHERE name = ?",
                    arguments: [try Self.seal(plain, name: name, key: newKey), name])
            }
            try extra(db)
            try Self.storeCheck(db, key: newKey)
        }
    }

    // MARK: Helpers

    private func requireKey() throws -> SymmetricKey {
        guard let key else { throw VaultError.locked }
        return key
    }

    static func validate(name: String) throws {
        guard name.count <= 200 else { throw VaultError.invalidName(name, reason: "longer than 200 characters") }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else {
            throw VaultError.invalidName(name, reason: "use <plugin>/<name>, for example host/smtp/password")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-@+:"))
        for part in parts where part.unicodeScalars.contains(where: { !allowed.contains($0) }) {
            throw VaultError.invalidName(name, reason: "'\(part)' may only contain letters, digits and . _ - @ + :")
        }
    }

    static func seal(_ plain: Data, name: String, key: SymmetricKey) throws -> Data {
        try ChaChaPoly.seal(plain, using: key, authenticating: Data((aadPrefix + name).utf8)).combined
    }

    static func open(_ sealed: Data, name: String, key: SymmetricKey) throws -> Data {
        do {
            return try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: sealed), using: key, authenticating: Data((aadPrefix + name).utf8))
        } catch {
            throw VaultError.decryptionFailed(name: name)
        }
    }

    /// scrypt takes 128 MiB and about a second by design: on NIO's thread pool, never on this
    /// actor's executor or a cooperative thread, which every other call needs meanwhile.
    static func deriveOffThePool(passphrase: String, salt: Data, logN: Int) async throws -> SymmetricKey {
        try await runBlocking { try derive(passphrase: passphrase, salt: salt, logN: logN) }
    }

    static func derive(passphrase: String, salt: Data, logN: Int) throws -> SymmetricKey {
        let n = 1 << logN
        return try KDF.Scrypt.deriveKey(
            from: Data(passphrase.utf8), salt: salt, outputByteCount: 32, rounds: n, blockSize: 8, parallelism: 1,
            maxMemory: 128 * 8 * n + 4 * 1024 * 1024)
    }

    static func kdfParameters(_ db: Database) throws -> (Data, Int)? {
        guard let salt = try String.fetchOne(db, sql: "SELECT value FROM host_vault_meta WHERE key = 'scrypt_salt'"),
            let logN = try String.fetchOne(db, sql: "SELECT value FROM host_vault_meta WHERE key = 'scrypt_log_n'"),
            let saltData = Data(base64Encoded: salt), let n = Int(logN)
        else { return nil }
        return (saltData, n)
    }

    static func storeKDF(_ db: Database, salt: Data, logN: Int) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO host_vault_meta(key, value) VALUES ('scrypt_salt', ?), ('scrypt_log_n', ?)",
            arguments: [salt.base64EncodedString(), String(logN)])
    }

    static func storeCheck(_ db: Database, key: SymmetricKey) throws {
        let sealed = try seal(checkPlaintext, name: checkName, key: key)
        try db.execute(
            sql: "INSERT OR REPLACE INTO host_vault_meta(key, value) VALUES ('check', ?)", arguments: [sealed.base64EncodedString()])
    }

    static func verify(pool: DatabasePool, key: SymmetricKey) throws {
        let check = try pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM host_vault_meta WHERE key = 'check'") }
        guard let check, let sealed = Data(base64Encoded: check) else { return }
        guard (try? open(sealed, name: checkName, key: key)) == checkPlaintext else { throw VaultError.keyMismatch }
    }

    static func verifyOrInitialise(pool: DatabasePool, key: SymmetricKey) throws {
        let hasCheck = try pool.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM host_vault_meta WHERE key = 'check'") ?? false }
        if hasCheck { try verify(pool: pool, key: key) } else { try pool.write { db in try storeCheck(db, key: key) } }
    }

    /// Loads the key file, finishing a rekey that was interrupted between the database commit and
    /// the key file swap: whichever of the two keys opens the vault is the right one.
    static func loadKey(path: String, create: Bool, pool: DatabasePool) throws -> SymmetricKey {
        let pending = path + ".new"
        let key = try VaultKeySource.loadKeyFile(path: path, create: create)
        guard FileManager.default.fileExists(atPath: pending) else {
            try verifyOrInitialise(pool: pool, key: key)
            return key
        }
        if (try? verify(pool: pool, key: key)) != nil {
            unlink(pending)
            return key
        }
        let newKey = try VaultKeySource.loadKeyFile(path: pending, create: false)
        try verify(pool: pool, key: newKey)
        guard rename(pending, path) == 0 else { throw VaultError.keyFileInvalid(path: path, reason: "rename failed") }
        return newKey
    }

    static func rememberAll(pool: DatabasePool, key: SymmetricKey, redactor: SecretRedactor) throws {
        let rows = try pool.read { db in try Row.fetchAll(db, sql: "SELECT name, ciphertext FROM host_vault") }
        for row in rows {
            if let plain = try? open(row["ciphertext"], name: row["name"], key: key) {
                redactor.remember(String(decoding: plain, as: UTF8.self))
            }
        }
    }

    static func likePrefix(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
