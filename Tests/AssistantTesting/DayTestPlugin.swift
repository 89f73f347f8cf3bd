import Foundation
import HostCore

/// A plugin whose part of `today` is set by the test: fixed items (with the query they were
/// asked for in their detail), an error, or a wait the host's per-plugin limit ends.
public struct DayPlugin: AssistantPlugin {
    public enum Behaviour: Sendable {
        case items([DayItem])
        case fails(String)
        case hangs
    }

    public struct Service: DayContributing {
        let behaviour: Behaviour
        let clock: any HostClock

        public func dayItems(_ query: DayQuery) async throws -> [DayItem] {
            switch behaviour {
            case .items(let items):
                return items.map {
                    var item = $0
                    if item.detail == "query" { item.detail = "\(query.date) \(ISO8601.string(query.start))…\(ISO8601.string(query.end))" }
                    return item
                }
            case .fails(let message):
                throw RPCError(code: RPCErrorCode.upstreamUnreachable, message: message)
            case .hangs:
                try await clock.sleep(for: .seconds(3600))
                return []
            }
        }
    }

    let id: String
    let behaviour: Behaviour
    let configured: Bool

    public init(id: String, _ behaviour: Behaviour, configured: Bool = true) {
        self.id = id
        self.behaviour = behaviour
        self.configured = configured
    }

    public var info: PluginInfo { PluginInfo(id: id, version: "1", summary: "a part of the day") }
    public var commands: [PluginCommand<Service>] { [] }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<Service> {
        configured ? .ready(Service(behaviour: behaviour, clock: context.clock)) : .notConfigured("no account")
    }
}
