import GRDB
import PluginKit

extension TasksService {
    /// The `feeds` job: each feed's failure is recorded with it (and noticed once); the job fails too, naming each.
    func runFeeds() async throws {
        let names = try await database.read { db in try String.fetchAll(db, sql: "SELECT name FROM tasks_feeds ORDER BY name") }
        try await EachAccount("tasks.feeds", label: "feed", logger: context.logger).run(names) { name in
            if let problem = await refreshFeed(name).problem { throw TasksError.feedUnreadable(name, problem) }
        }
    }
}
