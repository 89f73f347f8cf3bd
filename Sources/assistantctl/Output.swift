import AssistantClient
import Foundation

enum Output {
    static func result(_ value: JSONValue, json: Bool, timeZone: TimeZone? = nil) {
        if json {
            print(encode(value, pretty: isatty(STDOUT_FILENO) != 0))
        } else {
            print(HumanOutput.render(value, timeZone: timeZone))
        }
    }

    /// The daemon's configured time zone, for showing times to a person.
    static func daemonTimeZone(_ connection: AssistantConnection) async -> TimeZone? {
        guard case .success(let time)? = try? await connection.callResult("time"),
            let identifier = time["time_zone"]?.stringValue
        else { return nil }
        return TimeZone(identifier: identifier)
    }

    static func encode(_ value: JSONValue, pretty: Bool) -> String {
        guard pretty else { return value.encodedString() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? value.encodedString()
    }

    /// The daemon answered with an error: exit 1.
    static func error(_ error: RPCError, json: Bool) -> Never {
        if json {
            print(encode(["error": error.json], pretty: isatty(STDOUT_FILENO) != 0))
        }
        var text = "assistantctl: error \(error.code): \(error.message)"
        if let hint = error.data?["hint"]?.stringValue { text += "\n\(hint)" }
        if let data = error.data, error.code == RPCErrorCode.pluginNotReady || error.code == RPCErrorCode.needsReauth,
            let state = data["state"]?.stringValue
        {
            text += "\n(plugin state: \(state))"
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
        exit(1)
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(code)
    }

    static func progress(_ params: JSONValue) {
        var line = "# " + (params["message"]?.stringValue ?? "working")
        if let done = params["done"]?.intValue {
            line += params["total"]?.intValue.map { " (\(done)/\($0))" } ?? " (\(done))"
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func notice(_ params: JSONValue, json: Bool, timeZone: TimeZone? = nil) {
        if json {
            print(params.encodedString())
        } else if var notice = try? params.decode(as: Notice.self) {
            if let timeZone { notice.time = HumanOutput.scalar(HumanOutput.localize(.string(notice.time), timeZone)) }
            print(notice.textLine)
        } else {
            print(params.encodedString())
        }
        fflush(nil)
    }
}
