import Foundation
import GRDB
import PluginKit

/// Watching a full exam: checked every `watch_every_min`; each time it goes from full to free,
/// `kos.exam.seat_freed` is posted with the KOS link (KOSapi is read-only, so registering stays
/// in the browser). An exam that has begun is no longer watched.
extension KOSService {
    func watch(_ params: Params) async throws -> JSONValue {
        let id = try Self.examID(params)
        let exam = try await watchedExam(id)
        let now = ISO8601.string(context.clock.now)
        let full = exam.full
        try await context.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO kos_watches(exam_id, course, start, last_full, created_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(exam_id) DO UPDATE SET last_full = excluded.last_full, course = excluded.course, start = excluded.start
                    """, arguments: [id, exam.course, exam.start, full, now])
        }
        return ["watch": ["exam_id": .string(id), "full": .bool(full), "exam": exam.json]]
    }

    func watches() async throws -> JSONValue {
        let watches = try await context.database.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT * FROM kos_watches ORDER BY start, exam_id").map { row -> JSONValue in
                [
                    "exam_id": .string(row["exam_id"]), "course": (row["course"] as String?).map(JSONValue.string) ?? .null,
                    "start": (row["start"] as String?).map(JSONValue.string) ?? .null, "full": .bool(row["last_full"]),
                    "seats_freed": .int(row["freed_count"]), "since": .string(row["created_at"]),
                ]
            }
        }
        return ["watches": .array(watches)]
    }

    func unwatch(_ params: Params) async throws -> JSONValue {
        let id = try Self.examID(params)
        let removed = try await context.database.write { db in
            try db.execute(sql: "DELETE FROM kos_watches WHERE exam_id = ?", arguments: [id])
            return db.changesCount
        }
        guard removed == 1 else { throw KOSError.notWatched(id) }
        return ["exam_id": .string(id), "watched": false]
    }

    static func examID(_ params: Params) throws(RPCError) -> String {
        let text = try params[KOSParams.examID]
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw RPCError.invalidParam("exam_id", "'\(text)' is not an exam id from kos.exams")
        }
        return text
    }

    /// One exam (public data), `registered` unknown here.
    func watchedExam(_ id: String) async throws -> KOSExam {
        let entry = try await entry(.publicData, "exams/\(id)", what: "exam \(id)")
        guard let exam = KOSExam(entry, registered: []) else { throw KOSError.badAnswer("exam \(id) has no content") }
        return exam
    }

    func runWatches() async throws {
        let rows = try await context.database.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT * FROM kos_watches").map { row -> (id: String, freed: Int64, lastFull: Bool) in
                (row["exam_id"], row["freed_count"], row["last_full"])
            }
        }
        for row in rows {
            let id = row.id
            do {
                let exam = try await watchedExam(id)
                if let start = exam.startInstant, start <= context.clock.now {
                    try await context.database.write { db in try db.execute(sql: "DELETE FROM kos_watches WHERE exam_id = ?", arguments: [id]) }
                    continue
                }
                let full = exam.full
                // A watch is public data, no account's: the seat-freed notice names none.
                let freed = try await alerts.checkSeat(account: "", exam, wasFull: row.lastFull, freed: row.freed).freed
                try await context.database.write { db in
                    try db.execute(sql: "UPDATE kos_watches SET last_full = ?, freed_count = ? WHERE exam_id = ?", arguments: [full, freed, id])
                }
            } catch {
                // One exam that cannot be read does not stop the others.
                context.logger.warning(
                    "kos.watch failed", metadata: ["exam": "\(id)", "error": "\(ErrorText.sentence(error))"])
            }
        }
    }
}
