import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// Every view a method declares shows members its result has: the rows it names are a list in
/// the result's schema, and each column's member (and its `until`) is a property of the rows.
/// A renamed result field then fails here, not on a person's screen.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)))
struct ViewContractTests {
    /// The property names of an object schema, or of every alternative of an `anyOf`.
    static func properties(_ schema: JSONValue?) -> Set<String> {
        if let members = schema?["properties"]?.objectValue { return Set(members.keys) }
        let alternatives = (schema?["anyOf"] ?? schema?["oneOf"])?.arrayValue ?? []
        return alternatives.reduce(into: Set<String>()) { $0.formUnion(properties($1)) }
    }

    /// The rows' item schema: `items` of the member named `rows` (of the object or of any alternative).
    static func rowSchema(_ schema: JSONValue?, rows: String?) -> JSONValue? {
        guard let rows else { return schema?["items"] }
        if let list = schema?["properties"]?[rows] { return list["items"] }
        for alternative in (schema?["anyOf"] ?? schema?["oneOf"])?.arrayValue ?? [] {
            if let found = rowSchema(alternative, rows: rows) { return found }
        }
        return nil
    }

    @Test func everyViewShowsMembersItsResultHas() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await AssistantConnection.connect(socketPath: daemon.socketPath)
        let discover = try await connection.call("rpc.discover")
        await connection.close()
        var checked: [String] = []
        for method in discover["methods"]?.arrayValue ?? [] {
            guard let name = method["name"]?.stringValue, let viewJSON = method["x-view"] else { continue }
            let view = try #require(ResultView(json: viewJSON), "\(name)'s view reads back")
            let rows = Self.rowSchema(method["result"]?["schema"], rows: view.rows)
            #expect(rows != nil, "\(name): its view's rows '\(view.rows ?? "(the result)")' are not a list in its result")
            let members = Self.properties(rows)
            for key in view.highlights.map(\.key) {
                #expect(members.contains(key), "\(name): its view colours rows by '\(key)', which its rows do not have")
            }
            for column in view.columns {
                for key in [column.key] + (column.until.map { [$0] } ?? []) {
                    let first = String(key.split(separator: ".").first ?? "")
                    #expect(members.contains(first), "\(name): its view shows '\(key)', which its rows do not have (\(members.sorted()))")
                }
            }
            checked.append(name)
        }
        #expect(
            Set(checked).isSuperset(of: [
                "tasks.list", "tasks.agenda", "jobs.list", "plugins.list", "vault.list", "stag.exams", "stag.grades", "stag.results",
                "kos.exams", "logbook.flights.list", "octoprint.printers.list",
            ]), "\(checked.sorted())")
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
