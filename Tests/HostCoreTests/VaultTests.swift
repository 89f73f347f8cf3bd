import AssistantTesting
import Foundation
import GRDB
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct VaultTests {
    func openStore(_ directory: TemporaryDirectory) throws -> Store {
        try Store(path: directory.file("v.sqlite"), migrations: [], logger: Logger(label: "t"))
    }

    func keyFileVault(_ directory: TemporaryDirectory, store: Store) throws -> Vault {
        try Vault(
            pool: store.pool, source: .keyFile(path: directory.file("vault.key"), createIfMissing: true), redactor: SecretRedactor(),
            clock: SystemClock())
    }

    @Test func roundTripAndRestart() async throws {
        let directory = TemporaryDirectory()
        do {
            let store = try openStore(directory)
            let vault = try keyFileVault(directory, store: store)
            try await vault.set("host/smtp/password", secret: "correct horse battery staple")
            #expect(try await vault.get("host/smtp/password") == "correct horse battery staple")
            #expect(try await vault.get("host/missing") == nil)
            try store.close()
        }
        var info = stat()
        #expect(stat(directory.file("vault.key"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "the key file is created 0600")
        #expect(info.st_size == 32)
        // After a restart (new store, new vault object, same key file) the secret is still there.
        let store = try openStore(directory)
        let vault = try keyFileVault(directory, store: store)
        #expect(try await vault.get("host/smtp/password") == "correct horse battery staple")
        let names = try await vault.list(prefix: "host/").map(\.name)
        #expect(names == ["host/smtp/password"])
    }

    @Test func ciphertextIsNotPlaintextAndNoncesAreFresh() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let vault = try keyFileVault(directory, store: store)
        try await vault.set("host/a", secret: "same-secret-value")
        let first = try await store.pool.read { try Data.fetchOne($0, sql: "SELECT ciphertext FROM host_vault WHERE name = 'host/a'")! }
        try await vault.set("host/a", secret: "same-secret-value")
        let second = try await store.pool.read { try Data.fetchOne($0, sql: "SELECT ciphertext FROM host_vault WHERE name = 'host/a'")! }
        #expect(first != second, "a fresh nonce on every write")
        #expect(first.range(of: Data("same-secret-value".utf8)) == nil)
        let file = try Data(contentsOf: URL(fileURLWithPath: directory.file("v.sqlite")))
        #expect(file.range(of: Data("same-secret-value".utf8)) == nil)
    }

    @Test func tamperedCiphertextFailsToOpen() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let vault = try keyFileVault(directory, store: store)
        try await vault.set("host/a", secret: "value")
        try await store.pool.write { db in
            var sealed = try Data.fetchOne(db, sql: "SELECT ciphertext FROM host_vault WHERE name = 'host/a'")!
            sealed[sealed.count / 2] ^= 0x01
            try db.execute(sql: "UPDATE host_vault SET ciphertext = ? WHERE name = 'host/a'", arguments: [sealed])
        }
        await #expect(throws: VaultError.decryptionFailed(name: "host/a")) { try await vault.get("host/a") }
    }

    @Test func ciphertextMovedToAnotherNameFailsToOpen() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let vault = try keyFileVault(directory, store: store)
        try await vault.set("host/a", secret: "value-a")
        try await vault.set("host/b", secret: "value-b")
        try await store.pool.write { db in
            let a = try Data.fetchOne(db, sql: "SELECT ciphertext FROM host_vault WHERE name = 'host/a'")!
            try db.execute(sql: "UPDATE host_vault SET ciphertext = ? WHERE name = 'host/b'", arguments: [a])
        }
        await #expect(throws: VaultError.decryptionFailed(name: "host/b")) { try await vault.get("host/b") }
        #expect(try await vault.get("host/a") == "value-a")
    }

    @Test func keyFileReadableByOthersIsRefused() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let path = directory.file("vault.key")
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 32), attributes: [.posixPermissions: 0o644])
        #expect(throws: VaultError.keyFileTooOpen(path: path, mode: S_IFREG | 0o644)) {
            _ = try Vault(pool: store.pool, source: .keyFile(path: path, createIfMissing: true), redactor: SecretRedactor(), clock: SystemClock())
        }
        chmod(path, 0o640)
        #expect(throws: VaultError.self) {
            _ = try Vault(pool: store.pool, source: .keyFile(path: path, createIfMissing: true), redactor: SecretRedactor(), clock: SystemClock())
        }
    }

    @Test func aDifferentKeyDoesNotOpenTheVault() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        _ = try keyFileVault(directory, store: store)
        try FileManager.default.removeItem(atPath: directory.file("vault.key"))
        #expect(throws: VaultError.keyMismatch) { _ = try keyFileVault(directory, store: store) }
    }

    @Test func passphraseLockUnlockAndRekey() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let vault = try Vault(pool: store.pool, source: .passphrase(logN: 10), redactor: SecretRedactor(), clock: SystemClock())
        #expect(await vault.isLocked)
        await #expect(throws: VaultError.locked) { try await vault.set("host/a", secret: "x") }
        try await vault.unlock(passphrase: "first passphrase")  // sets it
        try await vault.set("host/a", secret: "value")
        try await vault.lock()
        await #expect(throws: VaultError.locked) { try await vault.get("host/a") }
        #expect(try await vault.list(prefix: nil).map(\.name) == ["host/a"], "names are listed while locked")
        await #expect(throws: VaultError.wrongPassphrase) { try await vault.unlock(passphrase: "wrong") }
        try await vault.unlock(passphrase: "first passphrase")
        #expect(try await vault.get("host/a") == "value")
        try await vault.rekey(newPassphrase: "second passphrase")
        // A new vault object (a restart) opens with the new passphrase only.
        let restarted = try Vault(pool: store.pool, source: .passphrase(logN: 10), redactor: SecretRedactor(), clock: SystemClock())
        await #expect(throws: VaultError.wrongPassphrase) { try await restarted.unlock(passphrase: "first passphrase") }
        try await restarted.unlock(passphrase: "second passphrase")
        #expect(try await restarted.get("host/a") == "value")
    }

    @Test func keyFileRekeyAndInterruptedRekeyRecovery() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let vault = try keyFileVault(directory, store: store)
        try await vault.set("host/a", secret: "value")
        let oldKey = try Data(contentsOf: URL(fileURLWithPath: directory.file("vault.key")))
        try await vault.rekey(newPassphrase: nil)
        let newKey = try Data(contentsOf: URL(fileURLWithPath: directory.file("vault.key")))
        #expect(oldKey != newKey)
        #expect(try await keyFileVault(directory, store: store).get("host/a") == "value")
        // Simulate a crash after the commit but before the key file swap: old key in place, new beside it.
        try oldKey.write(to: URL(fileURLWithPath: directory.file("vault.key")))
        try newKey.write(to: URL(fileURLWithPath: directory.file("vault.key.new")))
        chmod(directory.file("vault.key.new"), 0o600)
        let recovered = try keyFileVault(directory, store: store)
        #expect(try await recovered.get("host/a") == "value")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("vault.key"))) == newKey)
        #expect(!FileManager.default.fileExists(atPath: directory.file("vault.key.new")))
    }

    @Test func namesAreValidated() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let vault = try keyFileVault(directory, store: store)
        for bad in ["noscope", "/leading", "host/", "host//x", "host/with space", "host/new\nline"] {
            await #expect(throws: VaultError.self, "\(bad)") { try await vault.set(bad, secret: "x") }
        }
    }

    @Test func vaultOverRPCNeverReturnsValuesAndScopesNames() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        let connection = try await host.connect()
        _ = try await connection.call("vault.set", params: ["name": "echo/token", "secret": "tok-9f8e7d6c"])
        let listed = try await connection.call("vault.list")
        #expect(listed.encodedString().contains("echo/token"))
        #expect(!listed.encodedString().contains("tok-9f8e7d6c"))
        // The plugin reads its own scope…
        #expect(try await connection.call("echo.vault") == .string(SecretRedactor.placeholder), "a value relayed to a result is redacted")
        // …and an unknown scope is refused, naming the parameter.
        let refused = try await connection.callResult("vault.set", params: ["name": "nosuchplugin/x", "secret": "s"])
        guard case .failure(let error) = refused else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == -32602)
        #expect(error.data?["param"] == "name")
        let missing = try await connection.callResult("vault.delete", params: ["name": "echo/none"])
        guard case .failure(let deleteError) = missing else {
            Issue.record("deleted nothing")
            return
        }
        #expect(deleteError.code == -32602)
        await connection.close()
        await host.stop()
    }
}
