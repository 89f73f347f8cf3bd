import Foundation
import GRDB
import PluginKit

/// Watching a full exam term: checked every `watch_every_min`; each time it goes from full to
/// free, `stag.exam.seat_freed` is posted, and with `auto_register` the plugin registers at once
/// and says how that went.
extension StagService {
    func watch(_ params: Params) async throws -> JSONValue {
        let term = try params[StagParams.termID]
        let auto = params[StagParams.autoRegister] ?? false
        let session = try await session(params[StagParams.account])
        let student = try session.student()
        guard let found = try await examTerms(session, student).first(where: { $0.termID == term }) else {
            throw StagError.termNotFound(term)
        }
        let state = found.state
        let now = ISO8601.string(context.clock.now)
        try await context.database.write { [account = session.account] db in
            try db.execute(
                sql: """
                    INSERT INTO stag_watches(account, term_id, auto_register, last_state, subject, created_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(account, term_id) DO UPDATE SET auto_register = excluded.auto_register, last_state = excluded.last_state
                    """, arguments: [account, term, auto, state.rawValue, found.subject, now])
        }
        return [
            "watch": [
                "account": .string(session.account), "term_id": .int(term), "auto_register": .bool(auto), "state": .string(state.rawValue),
                "term": found.json,
            ]
        ]
    }

    func watches(_ params: Params) async throws -> JSONValue {
        let watches = try await context.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM stag_watches ORDER BY account, term_id").map { row -> JSONValue in
                [
                    "account": .string(row["account"]), "term_id": .int(row["term_id"]), "auto_register": .bool(row["auto_register"]),
                    "state": (row["last_state"] as String?).map(JSONValue.string) ?? .null,
                    "subject": (row["subject"] as String?).map(JSONValue.string) ?? .null, "since": .string(row["created_at"]),
                ]
            }
        }
        return ["watches": .array(watches)]
    }

    func unwatch(_ params: Params) async throws -> JSONValue {
        let term = try params[StagParams.termID]
        let account = try await accounts.resolve(params[StagParams.account])
        let removed = try await context.database.write { db in
            try db.execute(sql: "DELETE FROM stag_watches WHERE account = ? AND term_id = ?", arguments: [account.name, term])
            return db.changesCount
        }
        guard removed == 1 else { throw StagError.notWatched(term) }
        return ["term_id": .int(term), "watched": false]
    }

    func runWatches() async throws {
        typealias Watch = (account: String, termID: Int64, last: String?, auto: Bool, freed: Int64)
        let rows = try await context.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM stag_watches").map { row -> Watch in
                (row["account"], row["term_id"], row["last_state"], row["auto_register"], row["freed_count"])
            }
        }
        let byAccount = Dictionary(grouping: rows) { $0.account }
        for (name, watches) in byAccount {
            do {
                let session = try await session(name)
                let student = try session.student()
                let terms = Dictionary(try await examTerms(session, student).map { ($0.termID, $0) }) { first, _ in first }
                for watch in watches {
                    guard let term = terms[watch.termID] else { continue }
                    try await checkWatch(session, student, term: term, last: watch.last, auto: watch.auto, freed: watch.freed)
                }
            } catch {
                context.logger.warning("stag.watch failed", metadata: ["account": "\(name)", "error": "\(ErrorText.sentence(error))"])
            }
        }
    }

    func checkWatch(_ session: StagSession, _ student: StagRole, term: ExamTerm, last: String?, auto: Bool, freed: Int64) async throws {
        let id = term.termID
        let wasFull = last.flatMap(ExamState.init(rawValue:)) == .full
        var register: (@Sendable () async throws -> Void)? = nil
        if auto {
            register = { [self] in _ = try await self.registration(session, student, term: id, registering: true) }
        }
        let seat = try await alerts.checkSeat(account: session.account, term, wasFull: wasFull, freed: freed, register: register)
        let state = seat.registered ? ExamState.registered : term.state
        try await context.database.write { [account = session.account] db in
            try db.execute(
                sql: "UPDATE stag_watches SET last_state = ?, freed_count = ? WHERE account = ? AND term_id = ?",
                arguments: [state.rawValue, seat.freed, account, id])
        }
    }
}
