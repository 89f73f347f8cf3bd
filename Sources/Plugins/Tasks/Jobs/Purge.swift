import Foundation
import GRDB
import PluginKit

extension TasksService {
    /// The `purge` job: tasks deleted more than 30 days ago, and what is kept for their reminders.
    func purgeDeleted() async throws {
        let cutoff = now.addingTimeInterval(-30 * 86_400).timeIntervalSince1970
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM tasks_reminders_sent WHERE task_id IN (SELECT id FROM tasks_items WHERE deleted_at < ?)", arguments: [cutoff])
            try db.execute(
                sql: "DELETE FROM tasks_reminder_state WHERE task_id IN (SELECT id FROM tasks_items WHERE deleted_at < ?)", arguments: [cutoff])
            try db.execute(sql: "DELETE FROM tasks_items WHERE deleted_at < ?", arguments: [cutoff])
        }
    }
}
