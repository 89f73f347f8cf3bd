import PluginKit

extension TasksService {
    /// The `caldav` job: a two-way sync of each ready account.
    func runCalDAV() async throws {
        let ready = try await context.accounts.list().filter { $0.state == .ready }.map(\.name)
        try await EachAccount("tasks.caldav", logger: context.logger).run(ready) { name in
            // A sync someone asked for is running: this round has nothing to add.
            if await syncLocks.isBusy(name) { return }
            _ = try await sync(account: name)
        }
    }
}
