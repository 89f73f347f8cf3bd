import PluginKit

extension OctoPrintService {
    /// The `poll` job: printers whose push connection is down.
    func pollWithoutPush() async throws {
        let all = try await printers()
        for name in await live.printersWithoutPush {
            guard let printer = all.first(where: { $0.name == name }), let watch = await live.watch(for: name) else { continue }
            try? await poll(printer, watch: watch)
        }
    }
}
