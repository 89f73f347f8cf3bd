import Crypto
import Foundation
import GRDB
import NIOConcurrencyHelpers
import PluginKit

/// The phones and browsers paired with the web app, and the one-time addresses that pair them.
///
/// A pairing address carries `<id>.<secret>` and a session cookie `<device id>.<secret>`: the id
/// finds the row, and the secret's SHA-256 is compared with the stored one in constant time
/// (`SHA256Digest`'s `==`). Only hashes are stored, so a copy of the database pairs nobody.
public final class WebDevices: Sendable {
    public enum Role: String, Sendable, Codable, CaseIterable, ResultDescribing {
        /// Read methods only.
        case read
        /// Reads and writes; each destructive call behind the page's confirmation step.
        case full
    }

    public struct Device: Sendable, Equatable {
        public var id: String
        public var name: String
        public var role: Role
        public var pairedAt: Date
        public var lastSeen: Date?
    }

    /// A pairing address is good for 10 minutes and one use.
    public static let pairingLifetime: TimeInterval = 600
    /// A session rolls: each visit extends it to 30 days from then.
    public static let sessionLifetime: TimeInterval = 30 * 86_400
    /// `last_seen` is written at most this often, not on every request.
    static let seenGranularity: TimeInterval = 60

    /// The writer protocol, not the pool's class, so that its async `read` and `write` are the ones called.
    let pool: any DatabaseWriter
    let clock: any HostClock
    /// Called with a device's id when it is revoked, so live connections end at once.
    private let revocationObservers = NIOLockedValueBox<[UUID: @Sendable (String) -> Void]>([:])

    public init(pool: DatabasePool, clock: any HostClock) {
        self.pool = pool
        self.clock = clock
    }

    static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    static func hash(_ secret: Substring) -> Data { Data(SHA256.hash(data: Data(secret.utf8))) }

    /// `<id>.<secret>` split; nil for anything else (bounded: a cookie is no place for a novel).
    static func parts(_ token: String) -> (id: String, secret: Substring)? {
        guard token.utf8.count <= 128, let dot = token.firstIndex(of: ".") else { return nil }
        let id = String(token[..<dot])
        let secret = token[token.index(after: dot)...]
        guard !id.isEmpty, secret.utf8.count >= 32, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return (id, secret)
    }

    static func matches(_ secret: Substring, _ stored: Data) -> Bool { SHA256.hash(data: Data(secret.utf8)) == stored }

    /// A new one-time pairing: the token to put in the address, and when it lapses.
    public func pair(name: String, role: Role) async throws -> (token: String, expiresAt: Date) {
        let id = UUID().uuidString.lowercased().prefix(8)
        let secret = Self.secret()
        let now = clock.now
        let expires = now.addingTimeInterval(Self.pairingLifetime)
        try await pool.write { db in
            // Lapsed addresses are of no use to anyone: they go with each new one.
            try db.execute(sql: "DELETE FROM host_web_pairings WHERE expires_at <= ?", arguments: [ISO8601.string(now)])
            try db.execute(
                sql: "INSERT INTO host_web_pairings (id, secret_hash, name, role, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [String(id), Self.hash(Substring(secret)), name, role.rawValue, ISO8601.string(now), ISO8601.string(expires)])
        }
        return ("\(id).\(secret)", expires)
    }

    /// What a pairing address would pair, without spending it (the page that asks first); nil
    /// for one that is unknown, used or lapsed.
    public func pending(_ token: String) async throws -> (name: String, role: Role)? {
        guard let (id, secret) = Self.parts(token) else { return nil }
        let now = clock.now
        // Read as plain values: a GRDB row is not Sendable, and the async read hands back only what is.
        let found = try await pool.read { db -> (hash: Data, name: String, role: String, expires: String)? in
            try Row.fetchOne(db, sql: "SELECT * FROM host_web_pairings WHERE id = ?", arguments: [id]).map {
                ($0["secret_hash"], $0["name"], $0["role"], $0["expires_at"])
            }
        }
        guard let found, Self.matches(secret, found.hash), let expires = ISO8601.date(found.expires), expires > now else { return nil }
        return (found.name, Role(rawValue: found.role) ?? .read)
    }

    public enum PairingRefusal: Error, Equatable {
        /// Unknown, used already, or malformed: one answer for all, so nothing is learnt by trying.
        case unknown
        case expired
    }

    /// Uses a pairing address: the new device and its session token. The address is spent in the
    /// same transaction, so two phones racing with one address pair one device.
    public func redeem(_ token: String) async throws -> Result<(device: Device, session: String), PairingRefusal> {
        guard let (id, secret) = Self.parts(token) else { return .failure(.unknown) }
        let now = clock.now
        let session = Self.secret()
        let deviceID = UUID().uuidString.lowercased()
        return try await pool.write { db -> Result<(device: Device, session: String), PairingRefusal> in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM host_web_pairings WHERE id = ?", arguments: [id]),
                Self.matches(secret, row["secret_hash"])
            else { return .failure(.unknown) }
            try db.execute(sql: "DELETE FROM host_web_pairings WHERE id = ?", arguments: [id])
            guard let expires = ISO8601.date(row["expires_at"]), expires > now else { return .failure(.expired) }
            let device = Device(id: deviceID, name: row["name"], role: Role(rawValue: row["role"]) ?? .read, pairedAt: now, lastSeen: now)
            try db.execute(
                sql: """
                    INSERT INTO host_web_devices (id, name, role, session_hash, paired_at, last_seen, session_expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    device.id, device.name, device.role.rawValue, Self.hash(Substring(session)), ISO8601.string(now), ISO8601.string(now),
                    ISO8601.string(now.addingTimeInterval(Self.sessionLifetime)),
                ])
            return .success((device, "\(device.id).\(session)"))
        }
    }

    /// The device a session cookie belongs to, nil when it is unknown, revoked or lapsed; its
    /// session is extended (rolling), and `renew` says whether the cookie should be sent again.
    public func device(session token: String) async throws -> (device: Device, renew: Bool)? {
        guard let (id, secret) = Self.parts(token) else { return nil }
        let now = clock.now
        let found = try await pool.read { db -> (hash: Data, device: Device, expires: String)? in
            try Row.fetchOne(db, sql: "SELECT * FROM host_web_devices WHERE id = ?", arguments: [id]).map {
                ($0["session_hash"], Self.device($0), $0["session_expires_at"])
            }
        }
        guard let found, Self.matches(secret, found.hash), let expires = ISO8601.date(found.expires), expires > now else { return nil }
        let lastSeen = found.device.lastSeen
        var device = found.device
        device.lastSeen = now
        let stale = lastSeen.map { now.timeIntervalSince($0) >= Self.seenGranularity } ?? true
        if stale {
            try await pool.write { db in
                try db.execute(
                    sql: "UPDATE host_web_devices SET last_seen = ?, session_expires_at = ? WHERE id = ?",
                    arguments: [ISO8601.string(now), ISO8601.string(now.addingTimeInterval(Self.sessionLifetime)), id])
            }
        }
        return (device, stale)
    }

    static func device(_ row: Row) -> Device {
        Device(
            id: row["id"], name: row["name"], role: Role(rawValue: row["role"]) ?? .read,
            pairedAt: ISO8601.date(row["paired_at"]) ?? Date(timeIntervalSince1970: 0), lastSeen: (row["last_seen"] as String?).flatMap(ISO8601.date))
    }

    public func list() async throws -> [Device] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM host_web_devices ORDER BY paired_at, id").map(Self.device)
        }
    }

    /// Ends a device's session at once, its live connections included; false when none has the id.
    public func revoke(_ id: String) async throws -> Bool {
        let removed = try await pool.write { db in
            try db.execute(sql: "DELETE FROM host_web_devices WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
        if removed { for observer in revocationObservers.withLockedValue({ Array($0.values) }) { observer(id) } }
        return removed
    }

    public func rename(_ id: String, to name: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE host_web_devices SET name = ? WHERE id = ?", arguments: [name, id])
            return db.changesCount > 0
        }
    }

    /// Tells `observer` each revoked device's id until the returned token is dropped with `stopObserving`.
    public func observeRevocations(_ observer: @escaping @Sendable (String) -> Void) -> UUID {
        let key = UUID()
        revocationObservers.withLockedValue { $0[key] = observer }
        return key
    }

    public func stopObserving(_ key: UUID) {
        revocationObservers.withLockedValue { $0[key] = nil }
    }
}
