import Foundation
import GRDB

/// The offline read cache. Reads are live; every successful read a plugin marks cacheable is
/// stored under (plugin, account, normalised request) with `fetched_at`. When the upstream is
/// unreachable, times out or answers 5xx, the same read is answered from the last stored copy,
/// marked `"stale": true`. -32004 comes only when nothing was ever stored; a refused login
/// (-32003) is never answered from the cache. Entries older than `maxAge` are pruned and each
/// plugin's cache is capped at `maxBytes` (oldest first).
public struct ReadCache: Sendable {
    /// How long a cached answer is kept: an option of each plugin that reads through the cache
    /// (list `ReadCache.cacheDays.option` among its options).
    public static let cacheDays = ConfigKey<Int64>(
        "cache_days", .integer(min: 1, max: 3660), default: 30, help: "how long the last answers are kept for when the upstream is down (days)")

    public let pluginID: String
    let pool: DatabasePool
    let clock: any HostClock
    public var maxAge: Duration
    public var maxBytes: Int

    package init(pluginID: String, pool: DatabasePool, clock: any HostClock, maxAge: Duration = .seconds(30 * 86_400), maxBytes: Int = 32 << 20) {
        self.pluginID = pluginID
        self.pool = pool
        self.clock = clock
        self.maxAge = maxAge
        self.maxBytes = maxBytes
    }

    /// A key that is the same for the same request however its parameters were ordered.
    public static func key(_ command: String, _ params: [String: JSONValue] = [:]) -> String {
        params.isEmpty ? command : command + "?" + JSONValue.object(params).canonicalString
    }

    /// Runs `fetch` and stores its answer (an object: a typed model, or a `JSONValue` passed
    /// through), or answers from the cache when the upstream is down. Stored as its JSON, read
    /// back by decoding that, and answered as `Cached`, which writes it straight into the reply
    /// with `stale` and `fetched_at`. A stored copy that no longer decodes (the model changed)
    /// counts as no copy. An overview asked often (`today`) may take a copy younger than
    /// `fresherThan` without asking the upstream at all.
    public func read<Value: Codable & Sendable>(
        account: String?, key: String, fresherThan: Duration? = nil, _ fetch: () async throws -> Value
    ) async throws -> Cached<Value> {
        let accountKey = account ?? ""
        func storedValue() async throws -> (Value, String)? {
            guard let (text, fetchedAt) = try await storedText(account: accountKey, key: key),
                let value = try? JSONCoding.decoder.decode(Value.self, from: Data(text.utf8))
            else { return nil }
            return (value, fetchedAt)
        }
        if let fresherThan, let (value, fetchedAt) = try await storedValue(), let at = ISO8601.date(fetchedAt),
            clock.now.timeIntervalSince(at) < fresherThan.timeInterval
        {
            return Cached(value: value, stale: false, fetchedAt: fetchedAt)
        }
        do {
            let value = try await fetch()
            let now = ISO8601.string(clock.now)
            try await store(
                account: accountKey, key: key, text: String(decoding: try JSONStreamEncoder.encode(value), as: UTF8.self), fetchedAt: now)
            return Cached(value: value, stale: false, fetchedAt: now)
        } catch let error as RPCError where error.allowsStaleRead {
            guard let (value, fetchedAt) = try await storedValue() else { throw error }
            return Cached(value: value, stale: true, fetchedAt: fetchedAt)
        }
    }

    /// The schema of an answer `read` decorates: the object's own properties, `stale` and `fetched_at`.
    public static func schema(_ answer: JSONSchema) -> JSONSchema {
        answer.adding([
            "stale": JSONSchema.boolean.described("true when the upstream could not be reached and this is the last answer it gave"),
            "fetched_at": JSONSchema.dateTime.described("when the upstream gave this answer"),
        ])
    }

    func storedText(account: String, key: String) async throws -> (String, String)? {
        try await pool.read { [pluginID] db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT value, fetched_at FROM host_cache WHERE plugin = ? AND account = ? AND key = ?",
                    arguments: [pluginID, account, key])
            else { return nil }
            return (row["value"] as String, row["fetched_at"])
        }
    }

    func store(account: String, key: String, text: String, fetchedAt: String) async throws {
        let cutoff = ISO8601.string(clock.now.addingTimeInterval(-maxAge.timeInterval))
        let maxBytes = self.maxBytes
        try await pool.write { [pluginID] db in
            try db.execute(
                sql: """
                    INSERT INTO host_cache(plugin, account, key, value, fetched_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(plugin, account, key) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at
                    """, arguments: [pluginID, account, key, text, fetchedAt])
            try db.execute(sql: "DELETE FROM host_cache WHERE plugin = ? AND fetched_at < ?", arguments: [pluginID, cutoff])
            // Over the cap: drop the oldest until under it.
            var total =
                try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(length(value)), 0) FROM host_cache WHERE plugin = ?", arguments: [pluginID]) ?? 0
            while total > maxBytes {
                guard
                    let oldest = try Row.fetchOne(
                        db, sql: "SELECT account, key, length(value) AS size FROM host_cache WHERE plugin = ? ORDER BY fetched_at LIMIT 1",
                        arguments: [pluginID])
                else { break }
                try db.execute(
                    sql: "DELETE FROM host_cache WHERE plugin = ? AND account = ? AND key = ?",
                    arguments: [pluginID, oldest["account"] as String, oldest["key"] as String])
                total -= oldest["size"] as Int
            }
        }
    }

    /// Everything stored for one account (a logout or a removed account).
    public func forget(account: String?) async throws {
        try await pool.write { [pluginID] db in
            try db.execute(sql: "DELETE FROM host_cache WHERE plugin = ? AND account = ?", arguments: [pluginID, account ?? ""])
        }
    }
}

extension JSONValue {
    /// Object keys sorted, so equal values encode equally (cache keys).
    var canonicalString: String {
        switch self {
        case .object(let object):
            "{"
                + object.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).encodedString() + ":" + $0.value.canonicalString }
                .joined(separator: ",") + "}"
        case .array(let items): "[" + items.map(\.canonicalString).joined(separator: ",") + "]"
        default: encodedString()
        }
    }
}

/// A typed answer read through the cache: its own members, then `stale` (the upstream could not
/// be reached and this is the last answer it gave) and `fetched_at`, written straight into the
/// reply. The value must encode as an object.
public struct Cached<Value: Encodable & Sendable>: CallResult {
    public var value: Value
    public var stale: Bool
    public var fetchedAt: String

    public init(value: Value, stale: Bool, fetchedAt: String) {
        self.value = value
        self.stale = stale
        self.fetchedAt = fetchedAt
    }

    /// The same read with another value (a filtered list).
    public func map<Other: Encodable & Sendable>(_ transform: (Value) throws -> Other) rethrows -> Cached<Other> {
        Cached<Other>(value: try transform(value), stale: stale, fetchedAt: fetchedAt)
    }

    public func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        let start = out.count
        try JSONStreamEncoder.write(value, into: &out, scrubber: scrubber)
        // The value's object, its closing brace taken off and the two members added.
        guard out.count - start >= 2, out[start] == UInt8(ascii: "{"), out.last == UInt8(ascii: "}") else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "a cached answer must be an object"))
        }
        out.removeLast()
        if out.count - start > 1 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: Array(#""stale":"#.utf8))
        out.append(contentsOf: Array((stale ? "true" : "false").utf8))
        out.append(contentsOf: Array(#","fetched_at":"#.utf8))
        try JSONValue.string(fetchedAt).writeJSON(into: &out, scrubber: scrubber)
        out.append(UInt8(ascii: "}"))
    }
}

/// A cached read's schema is its answer's, with `stale` and `fetched_at`.
extension Cached: ResultDescribing where Value: ResultDescribing {
    public static var resultSchema: JSONSchema { ReadCache.schema(Value.resultSchema) }
}
