import Foundation
import HostCore

extension StagService {
    func runRefresh() async throws {}
    func runWatches() async throws {}
    func runEvening() async throws {}
}
