import Crypto
import Foundation

public enum VaultError: Error, CustomStringConvertible, Equatable {
    case keyFileTooOpen(path: String, mode: mode_t)
    case keyFileInvalid(path: String, reason: String)
    case keyMismatch
    case locked
    case wrongPassphrase
    case notPassphraseMode
    case decryptionFailed(name: String)
    case invalidName(String, reason: String)

    public var description: String {
        switch self {
        case .keyFileTooOpen(let path, let mode):
            "the vault key file \(path) is readable by others (mode \(String(mode & 0o777, radix: 8))); run 'chmod 600 \(path)'"
        case .keyFileInvalid(let path, let reason): "the vault key file \(path) is unusable: \(reason)"
        case .keyMismatch: "the vault key does not open this vault (was the key file replaced?)"
        case .locked: "the vault is locked; run 'assistantctl vault unlock'"
        case .wrongPassphrase: "wrong passphrase"
        case .notPassphraseMode: "the vault uses a key file, not a passphrase"
        case .decryptionFailed(let name): "the vault entry '\(name)' does not decrypt (tampered or moved)"
        case .invalidName(let name, let reason): "invalid vault name '\(name)': \(reason)"
        }
    }
}

/// Where the vault's key comes from, in the order the issue gives.
public enum VaultKeySource: Sendable {
    /// A 32-byte key file (systemd's `$CREDENTIALS_DIRECTORY/vault.key`, or our own, created on first start).
    case keyFile(path: String, createIfMissing: Bool)
    /// A passphrase stretched with scrypt; the work factor is stored with the vault.
    case passphrase(logN: Int)

    /// Picks the source from the environment and config.
    public static func resolve(environment: [String: String], mode: String, keyFile: String, logN: Int) -> VaultKeySource {
        if mode == "passphrase" { return .passphrase(logN: logN) }
        if let dir = environment["CREDENTIALS_DIRECTORY"], !dir.isEmpty {
            let path = (dir as NSString).appendingPathComponent("vault.key")
            if FileManager.default.fileExists(atPath: path) { return .keyFile(path: path, createIfMissing: false) }
        }
        return .keyFile(path: keyFile, createIfMissing: true)
    }

    /// Reads (or creates, 0600) a key file, refusing one that group or others can read.
    static func loadKeyFile(path: String, create: Bool) throws -> SymmetricKey {
        var info = stat()
        if stat(path, &info) != 0 {
            guard create else { throw VaultError.keyFileInvalid(path: path, reason: "it does not exist") }
            let key = SymmetricKey(size: .bits256)
            try writeKeyFile(key, to: path)
            return key
        }
        if info.st_mode & 0o077 != 0 { throw VaultError.keyFileTooOpen(path: path, mode: info.st_mode) }
        let data: Data
        do throws(SafeFile.Failure) { data = try SafeFile.read(path, limit: SafeFile.Limit.smallFile) } catch {
            throw VaultError.keyFileInvalid(path: path, reason: "it \(error.problem)")
        }
        if data.count == 32 { return SymmetricKey(data: data) }
        // Also accept the key as hex or base64 text (what `systemd-creds` users tend to write).
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count == 64, let bytes = Data(hex: text) { return SymmetricKey(data: bytes) }
        if let bytes = Data(base64Encoded: text), bytes.count == 32 { return SymmetricKey(data: bytes) }
        throw VaultError.keyFileInvalid(path: path, reason: "expected 32 bytes, got \(data.count)")
    }

    static func writeKeyFile(_ key: SymmetricKey, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.keyFileInvalid(path: path, reason: String(cString: strerror(errno))) }
        let bytes = key.withUnsafeBytes { Array($0) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard written == 32, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw VaultError.keyFileInvalid(path: path, reason: "could not be written")
        }
    }
}

extension Data {
    init?(hex: String) {
        var bytes = [UInt8]()
        var iterator = hex.makeIterator()
        while let high = iterator.next() {
            guard let low = iterator.next(), let h = high.hexDigitValue, let l = low.hexDigitValue else { return nil }
            bytes.append(UInt8(h * 16 + l))
        }
        self.init(bytes)
    }
}
