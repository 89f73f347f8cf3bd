import AssistantTesting
import Foundation
import HostCore
import OctoPrint
import Testing

/// A real host with the OctoPrint plugin, beside a real OctoPrint.
struct OctoPrintHost {
    let host: TestHost
    let octoprint: OctoPrintPeer

    static func started(addPrinter: Bool = true, options: [String: JSONValue]? = nil) async throws -> OctoPrintHost {
        let octoprint = try await OctoPrintPeer()
        let host = try await TestHost.started(plugins: [OctoPrintPlugin()]) { if let options { $0.plugins["octoprint"] = options } }
        let h = OctoPrintHost(host: host, octoprint: octoprint)
        if addPrinter {
            try await h.call("octoprint.printers.add", ["name": "mk3", "url": .string(octoprint.url), "api_key": .string(octoprint.apiKey)])
        }
        return h
    }

    /// A started host and OctoPrint for `body`, stopped however `body` ends (as HummingbirdTesting
    /// scopes an app), so a failing test leaves no OctoPrint running. `connected`: the virtual
    /// printer is connected and operational first.
    static func with<T>(
        addPrinter: Bool = true, connected: Bool = false, options: [String: JSONValue]? = nil, _ body: (OctoPrintHost) async throws -> T
    ) async throws -> T {
        let op = try await started(addPrinter: addPrinter, options: options)
        do {
            if connected {
                try await op.call("octoprint.connection.connect", ["port": "VIRTUAL", "baudrate": 115200])
                _ = try await op.waitForStatus("connected") { $0["flags"]?["operational"] == true }
            }
            let result = try await body(op)
            await op.stop()
            return result
        } catch {
            await op.stop()
            throw error
        }
    }

    @discardableResult
    func call(_ method: String, _ params: JSONValue = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        try await host.expectSuccess(method, params, sourceLocation: sourceLocation)
    }

    func failure(_ method: String, _ params: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RPCError {
        try await host.expectFailure(method, params, sourceLocation: sourceLocation)
    }

    /// Waits (bounded) until `octoprint.status` satisfies `predicate`.
    func waitForStatus(_ what: String, seconds: Double = 60, _ predicate: @escaping @Sendable (JSONValue) -> Bool) async throws -> JSONValue {
        let h = self
        return try await withDeadline(seconds, what) {
            while true {
                try Task.checkCancellation()
                let s = try await h.host.call("octoprint.status", [:]).get()
                if predicate(s) { return s }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    func stop() async {
        await host.stop()
        octoprint.stop()
    }
}
