import Foundation

/// Files made for pages at once (a logbook's PDF takes seconds; a page with a webcam asks again
/// every few): at most `total` in all and `perDevice` for one device. A request beyond waits its
/// turn (a page shows three charts at once), and beyond `waitingPerDevice` waiting it is refused.
actor PictureSlots {
    static let total = 4
    static let perDevice = 2
    static let waitingPerDevice = 8
    private var inFlight: [String: Int] = [:]
    private var waiting: [(device: String, turn: CheckedContinuation<Void, Never>)] = []
    /// Each request that begins to wait (what a test waits on).
    nonisolated let queued: AsyncStream<Void>
    private let queuedContinuation: AsyncStream<Void>.Continuation

    init() { (queued, queuedContinuation) = AsyncStream.makeStream(of: Void.self) }

    private func mayRun(_ device: String) -> Bool {
        inFlight.values.reduce(0, +) < Self.total && inFlight[device, default: 0] < Self.perDevice
    }

    /// True once the request has its slot (at once, or when one is given back); false when too
    /// many of the device's already wait.
    func take(_ device: String) async -> Bool {
        if mayRun(device) {
            inFlight[device, default: 0] += 1
            return true
        }
        guard waiting.filter({ $0.device == device }).count < Self.waitingPerDevice else { return false }
        // The slot is counted for it by `give`, which hands it over.
        await withCheckedContinuation {
            waiting.append((device, $0))
            queuedContinuation.yield()
        }
        return true
    }

    func give(_ device: String) {
        inFlight[device, default: 1] -= 1
        if inFlight[device] == 0 { inFlight[device] = nil }
        guard let next = waiting.firstIndex(where: { mayRun($0.device) }) else { return }
        let waiter = waiting.remove(at: next)
        inFlight[waiter.device, default: 0] += 1
        waiter.turn.resume()
    }

    var waitingCount: Int { waiting.count }
}
