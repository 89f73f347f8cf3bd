import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// Every method the shipped daemon answers publishes its result's JSON Schema (issue 25, item 2):
/// scripts, the CLI and MCP clients rely on it. Each result a test receives through `TestHost.call`
/// is held to its schema there; this checks that the schemas exist and are valid JSON Schema.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct ResultSchemaTests {
    @Test func everyMethodPublishesATypedResultSchema() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await daemon.connect()
        let document = try await connection.call("rpc.discover")
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()

        let methods = try #require(document["methods"]?.arrayValue)
        #expect(methods.count > 200, "all five plugins and the host")
        var untyped: [String] = []
        for method in methods {
            let name = method["name"]?.stringValue ?? "?"
            let schema = method["result"]?["schema"]?.objectValue ?? [:]
            // A type, a choice or a constant: a description alone says nothing a program can use.
            if ["type", "oneOf", "anyOf", "const"].allSatisfy({ schema[$0] == nil }) { untyped.append(name) }
        }
        #expect(untyped == [], "methods whose result schema has no type")
    }

    /// The published schemas are valid JSON Schema 2020-12, as an independent validator (Python's
    /// `jsonschema`) reads them, and it agrees with ours on a result that fits and one that does not.
    @Test(.enabled(if: Peers.shouldRun(pythonModule: "jsonschema"))) func theSchemasAreValidForAnIndependentValidator() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await daemon.connect()
        let document = try await connection.call("rpc.discover")
        let status = try await connection.call("status")
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()

        let schemas = JSONValue.object(
            Dictionary(
                uniqueKeysWithValues: (document["methods"]?.arrayValue ?? []).compactMap { m in
                    m["name"]?.stringValue.map { ($0, m["result"]?["schema"] ?? .null) }
                }))
        let directory = TemporaryDirectory()
        let path = directory.file("schemas.json")
        try Data(JSONValue.object(["schemas": schemas, "status": status]).encodedBytes()).write(to: URL(fileURLWithPath: path))
        let script = """
            import json, sys, jsonschema
            data = json.load(open(sys.argv[1]))
            bad = []
            for name, schema in sorted(data["schemas"].items()):
                try:
                    jsonschema.Draft202012Validator.check_schema(schema)
                except jsonschema.SchemaError as e:
                    bad.append(f"{name}: {e.message}")
            status = jsonschema.Draft202012Validator(data["schemas"]["status"], format_checker=jsonschema.FormatChecker())
            fits = not list(status.iter_errors(data["status"]))
            broken = dict(data["status"], uptime_s="long")
            misfit = len(list(status.iter_errors(broken)))
            print(json.dumps({"count": len(data["schemas"]), "bad": bad, "status_fits": fits, "misfit_errors": misfit}))
            """
        let result = try await runCommand(Peers.python, ["-c", script, path], environment: nil)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONValue.decode(result.stdout)
        #expect(report["bad"] == [], "schemas jsonschema refuses")
        #expect((report["count"]?.intValue ?? 0) > 200)
        #expect(report["status_fits"] == true, "the daemon's status fits its published schema")
        #expect(report["misfit_errors"] == 1, "and a status with a mistyped field does not")
    }
}
