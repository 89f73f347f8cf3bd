import AssistantTesting
import Foundation
import HostCore
import Logbook
import Testing

/// A real host with the logbook plugin, and shortcuts for the calls every test makes.
struct LogbookHost {
    let host: TestHost

    static func started(
        clock: TestClock? = nil, directory: TemporaryDirectory = TemporaryDirectory(), configure: (inout HostConfiguration) -> Void = { _ in }
    ) async throws -> LogbookHost {
        let host = try await TestHost.started(
            plugins: [LogbookPlugin()], clock: clock ?? TestClock(now: ISO8601.date("2026-06-01T12:00:00Z")!), directory: directory,
            configure: configure)
        return LogbookHost(host: host)
    }

    @discardableResult
    func call(_ method: String, _ params: JSONValue = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        try await host.expectSuccess(method, params, sourceLocation: sourceLocation)
    }

    func failure(_ method: String, _ params: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RPCError {
        try await host.expectFailure(method, params, sourceLocation: sourceLocation)
    }

    func addSEP(_ registration: String = "OK-SKA") async throws {
        try await call(
            "logbook.aircraft.add",
            [
                "registration": .string(registration), "make": "Cessna", "model": "172", "variant": "S", "type_designator": "C172",
                "class_rating": "SEP(land)",
            ])
    }

    func count(_ params: JSONValue = [:]) async throws -> Int64 {
        try await call("logbook.flights.list", params)["total_count"]?.intValue ?? -1
    }

    func stop() async { await host.stop() }
}

/// Reads a test fixture next to this file.
func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}
