import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// One test over every manifest (issue 25): for every parameter of every method the shipped
/// daemon publishes, a missing required one, a value of the wrong type and an integer out of its
/// range each give -32602 naming that parameter, before any handler runs. The values are built
/// from the published schemas, so a parameter added tomorrow is covered without a new test.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct ParameterContractTests {
    @Test func everyParameterRefusesWhatItsSchemaForbidsNamingItself() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await daemon.connect()
        let methods = try #require(try await connection.call("rpc.discover")["methods"]?.arrayValue)
        var checked = 0
        var failures: [String] = []

        func expectRefusal(_ method: String, _ params: [String: JSONValue], naming param: String, _ what: String) async throws {
            checked += 1
            switch try await connection.callResult(method, params: .object(params)) {
            case .success:
                failures.append("\(method) \(what) of '\(param)': accepted \(JSONValue.object(params).encodedString())")
            case .failure(let error):
                if error.code != RPCErrorCode.invalidParams || error.data?["param"]?.stringValue != param {
                    failures.append("\(method) \(what) of '\(param)': \(error.code) \(error.message)")
                }
            }
        }

        for method in methods {
            guard let name = method["name"]?.stringValue, let params = method["params"]?.arrayValue else { continue }
            var earlier: [String: JSONValue] = [:]
            if let firstRequired = params.first(where: { $0["required"] == true })?["name"]?.stringValue {
                try await expectRefusal(name, [:], naming: firstRequired, "absence")
            }
            for param in params {
                guard let key = param["name"]?.stringValue, let schema = param["schema"]?.objectValue else { continue }
                var given = earlier
                if let wrong = Self.wrongType(for: schema) {
                    given[key] = wrong
                    try await expectRefusal(name, given, naming: key, "a wrong type")
                }
                for outside in Self.outOfRange(for: schema) {
                    given[key] = outside
                    try await expectRefusal(name, given, naming: key, "\(outside.encodedString()), out of range,")
                }
                // Later parameters are checked with this one valid, so each is the first wrong one.
                if param["required"] == true, let valid = Self.valid(for: schema) { earlier[key] = valid }
            }
        }
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
        #expect(failures == [])
        #expect(checked > 500, "every method's parameters (\(checked) calls)")
    }

    static func valid(for schema: [String: JSONValue]) -> JSONValue? {
        if let choices = schema["enum"]?.arrayValue { return choices.first }
        if schema["oneOf"] != nil { return 1 }  // a duration: whole minutes
        switch (schema["type"]?.stringValue, schema["format"]?.stringValue) {
        case ("string", "date"?): return "2026-01-05"
        case ("string", "date-time"?): return "2026-01-05T08:00:00Z"
        case ("string", "path"?): return "/nonexistent/assistantd-test"
        case ("string", _): return "x"
        case ("integer", _): return .int(schema["minimum"]?.intValue ?? 1)
        case ("number", _): return .double(schema["minimum"]?.doubleValue ?? 1)
        case ("boolean", _): return true
        case ("array", _): return []
        case ("object", _): return [:]
        default: return nil
        }
    }

    static func wrongType(for schema: [String: JSONValue]) -> JSONValue? {
        if schema["enum"] != nil { return "no-such-choice" }
        if schema["oneOf"] != nil { return true }
        switch (schema["type"]?.stringValue, schema["format"]?.stringValue) {
        case ("string", "date"?), ("string", "date-time"?): return "not a date"
        case ("string", _): return 12345
        case ("integer", _), ("number", _), ("boolean", _), ("array", _), ("object", _): return "x"
        default: return nil  // any JSON value is allowed
        }
    }

    static func outOfRange(for schema: [String: JSONValue]) -> [JSONValue] {
        guard schema["type"] == "integer" else { return [] }
        return [schema["minimum"]?.intValue.map { .int($0 - 1) }, schema["maximum"]?.intValue.map { .int($0 + 1) }].compactMap { $0 }
    }
}
