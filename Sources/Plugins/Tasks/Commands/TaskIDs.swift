import Foundation
import GRDB
import PluginKit

/// Task ids as people type them: the whole id, or a unique start of one (at least 4 characters,
/// as git takes a commit's), so that the short ids a list shows can be typed back.
extension TasksService {
    /// The shortest prefix accepted.
    static let shortestPrefix = 4

    /// The id `given` names (`param` is the parameter it came in, for the error).
    func taskID(_ given: String, param: String = TasksParams.id.name) async throws -> String {
        try await database.read { db in try Self.taskID(db, given, param: param) }
    }

    /// The id `given` names: itself when a task has it (or when nothing starts with it, so the
    /// caller says it is not found); the one task whose id starts with it; more than one is a
    /// -32602 naming them.
    static func taskID(_ db: Database, _ given: String, param: String = TasksParams.id.name) throws -> String {
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM tasks_items WHERE id = ?", arguments: [given]) == true { return given }
        guard given.count >= shortestPrefix else { return given }
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, title FROM tasks_items WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 6", arguments: [given.count, given])
        guard rows.count > 1 else { return rows.first?["id"] ?? given }
        let candidates = rows.prefix(5).map { row -> JSONValue in ["id": .string(row["id"]), "title": .string(row["title"])] }
        let named = rows.prefix(5).map { "\($0["id"] as String) (\($0["title"] as String))" }.joined(separator: ", ")
        let problem = "'\(given)' starts more than one task's id: \(named)\(rows.count > 5 ? ", …" : ""); give more of it"
        throw RPCError(
            code: RPCErrorCode.invalidParams, message: "Invalid params: '\(param)' \(problem)",
            data: ["param": .string(param), "problem": .string(problem), "candidates": .array(candidates)])
    }
}
