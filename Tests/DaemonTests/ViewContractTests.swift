import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// Every view a method declares shows members its result has: the rows it names are a list in
/// the result's schema, each column's member (and its `until`), the grid's and the highlights'
/// are properties of the rows, and each field's is a member of the result.
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

    /// Whether `key` (`a.b.c`) names a member of `schema`: each part a property, as far as the
    /// schema describes (a free-form object, such as OctoPrint's own `progress`, ends the check).
    static func has(_ schema: JSONValue?, _ key: String) -> Bool {
        var current = schema
        for part in key.split(separator: ".").map(String.init) {
            let members = properties(current)
            if members.isEmpty, current != nil { return true }
            guard members.contains(part) else { return false }
            current = Self.member(current, part)
        }
        return true
    }

    static func member(_ schema: JSONValue?, _ name: String) -> JSONValue? {
        if let found = schema?["properties"]?[name] { return found }
        for alternative in (schema?["anyOf"] ?? schema?["oneOf"])?.arrayValue ?? [] {
            if let found = member(alternative, name) { return found }
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
            let result = method["result"]?["schema"]
            for key in view.fieldKeys {
                #expect(Self.has(result, key), "\(name): its view shows the field '\(key)', which its result does not have")
            }
            if !view.rowKeys.isEmpty {
                let rows = Self.rowSchema(result, rows: view.rows)
                #expect(rows != nil, "\(name): its view's rows '\(view.rows ?? "(the result)")' are not a list in its result")
                for key in view.rowKeys {
                    #expect(Self.has(rows, key), "\(name): its view shows '\(key)', which its rows do not have (\(Self.properties(rows).sorted()))")
                }
            }
            checked.append(name)
        }
        #expect(
            Set(checked).isSuperset(of: [
                "tasks.list", "tasks.agenda", "jobs.list", "plugins.list", "vault.list", "stag.exams", "stag.grades", "stag.results",
                "kos.exams", "logbook.flights.list", "octoprint.printers.list", "status", "octoprint.status", "logbook.totals",
                "logbook.currency", "stag.timetable", "kos.timetable",
            ]), "\(checked.sorted())")
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
