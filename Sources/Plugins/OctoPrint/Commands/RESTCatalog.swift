import HostCore
import NIOHTTP1

/// Every OctoPrint 1.11 REST area as commands `octoprint.<area>.<verb>`.
enum RESTCatalog {
    static var all: [RESTCommand] {
        connection + job + printer + files + administration
    }

    static var connection: [RESTCommand] {
        [
            RESTCommand(
                name: "connection.state", summary: "Connection state and the ports, baud rates and profiles OctoPrint offers", params: [],
                method: .GET, path: REST.fixed("/api/connection")),
            RESTCommand(
                name: "connection.connect", summary: "Connect OctoPrint to the printer",
                params: [
                    ParamSpec("port", .string, help: "serial port (VIRTUAL for the virtual printer; default: OctoPrint's preference)"),
                    ParamSpec("baudrate", .integer(min: 0, max: 4_000_000), help: "baud rate (0 or omitted: auto)"),
                    ParamSpec("profile", .string, help: "printer profile id"),
                    ParamSpec("save", .boolean, help: "save as OctoPrint's preference"),
                    ParamSpec("autoconnect", .boolean, help: "connect automatically when OctoPrint starts"),
                ], method: .POST, path: REST.fixed("/api/connection"),
                body: { p, _ in
                    var o: [String: JSONValue] = [:]
                    if let v = p.string("port") { o["port"] = .string(v) }
                    if let v = p.int("baudrate") { o["baudrate"] = .int(v) }
                    if let v = p.string("profile") { o["printerProfile"] = .string(v) }
                    if let v = p.bool("save") { o["save"] = .bool(v) }
                    if let v = p.bool("autoconnect") { o["autoconnect"] = .bool(v) }
                    return REST.command("connect", o)
                }, example: "assistantctl octoprint.connection.connect port=VIRTUAL baudrate=115200"),
            RESTCommand(
                name: "connection.disconnect", summary: "Disconnect OctoPrint from the printer", params: [], method: .POST,
                path: REST.fixed("/api/connection"), body: { _, _ in REST.command("disconnect") }),
            RESTCommand(
                name: "connection.fake_ack", summary: "Send a fake acknowledgement to unstick a communication that waits for an ok",
                params: [], method: .POST, path: REST.fixed("/api/connection"), body: { _, _ in REST.command("fake_ack") },
                conflict: .printerNotOperational),
        ]
    }

    static var job: [RESTCommand] {
        func jobCommand(_ name: String, _ summary: String, _ body: JSONValue) -> RESTCommand {
            RESTCommand(
                name: "job.\(name)", summary: summary, params: [], method: .POST, path: REST.fixed("/api/job"),
                body: { _, _ in body }, conflict: .printerNotOperational)
        }
        return [
            jobCommand("start", "Start printing the selected file", REST.command("start")),
            jobCommand("cancel", "Cancel the print", REST.command("cancel")),
            jobCommand("restart", "Restart the paused print from the beginning", REST.command("restart")),
            jobCommand("pause", "Pause the print", REST.command("pause", ["action": "pause"])),
            jobCommand("resume", "Resume the paused print", REST.command("pause", ["action": "resume"])),
            jobCommand("toggle", "Pause or resume", REST.command("pause", ["action": "toggle"])),
            RESTCommand(
                name: "job.status", summary: "The job: file, estimates, progress, state", params: [], method: .GET,
                path: REST.fixed("/api/job"), result: OctoPrintSchemas.job),
        ]
    }

    static var printer: [RESTCommand] {
        let axis = { (n: String) in ParamSpec(n, .number(min: -1000, max: 1000), help: "\(n) distance in mm") }
        var list: [RESTCommand] = [
            RESTCommand(
                name: "printhead.jog", summary: "Move the print head (relative unless absolute=true)",
                params: [
                    axis("x"), axis("y"), axis("z"), ParamSpec("absolute", .boolean, help: "move to coordinates instead of by distances"),
                    ParamSpec("speed", .integer(min: 1, max: 100_000), help: "mm/min"),
                ],
                method: .POST, path: REST.fixed("/api/printer/printhead"),
                body: { p, _ throws(RPCError) in
                    var o: [String: JSONValue] = [:]
                    for a in ["x", "y", "z"] { if let v = p.double(a) { o[a] = .double(v) } }
                    guard !o.isEmpty else { throw RPCError.invalidParam("x", "give at least one of x, y, z") }
                    if let v = p.bool("absolute") { o["absolute"] = .bool(v) }
                    if let v = p.int("speed") { o["speed"] = .int(v) }
                    return REST.command("jog", o)
                }, conflict: .printerNotOperational, example: "assistantctl octoprint.printhead.jog x=10 y=-5"),
            RESTCommand(
                name: "printhead.home", summary: "Home axes",
                params: [ParamSpec("axes", .array(of: .oneOf(["x", "y", "z"])), default: ["x", "y", "z"], help: "axes to home")],
                method: .POST, path: REST.fixed("/api/printer/printhead"),
                body: { p, _ throws(RPCError) in
                    let axes = p.array("axes") ?? []
                    guard !axes.isEmpty else { throw RPCError.invalidParam("axes", "must name at least one axis") }
                    return REST.command("home", ["axes": .array(axes)])
                }, conflict: .printerNotOperational),
            RESTCommand(
                name: "printhead.feedrate", summary: "Feed rate factor in percent (50–200)",
                params: [ParamSpec("factor", .integer(min: 50, max: 200), required: true, help: "percent, 50–200")],
                method: .POST, path: REST.fixed("/api/printer/printhead"),
                body: { p, _ throws(RPCError) in REST.command("feedrate", ["factor": .int(try p.requiredInt("factor"))]) },
                conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.target", summary: "Set a hotend's target temperature",
                params: [
                    ParamSpec("temperature", .number(), required: true, help: "°C (0 turns it off)"),
                    ParamSpec("tool", .string, default: "tool0", help: "tool0, tool1, …"),
                ],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, limits throws(RPCError) in
                    let t = try REST.temperature(p, "temperature", max: limits.tool, what: "tool")
                    let tool = try toolName(p)
                    return REST.command("target", ["targets": .object([tool: .double(t)])])
                }, conflict: .printerNotOperational, example: "assistantctl octoprint.tool.target temperature=210"),
            RESTCommand(
                name: "tool.offset", summary: "Set a hotend's temperature offset",
                params: [
                    ParamSpec("offset", .number(min: -50, max: 50), required: true, help: "°C, -50 to 50"),
                    ParamSpec("tool", .string, default: "tool0", help: "tool0, tool1, …"),
                ],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in
                    REST.command("offset", ["offsets": .object([try toolName(p): .double(try p.requiredDouble("offset"))])])
                },
                conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.select", summary: "Select the active tool",
                params: [ParamSpec("tool", .string, required: true, help: "tool0, tool1, …")], method: .POST,
                path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in REST.command("select", ["tool": .string(try toolName(p))]) }, conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.extrude", summary: "Extrude (positive) or retract (negative) filament with the active tool",
                params: [
                    ParamSpec("amount", .number(min: -1000, max: 1000), required: true, help: "mm"),
                    ParamSpec("speed", .integer(min: 1, max: 100_000), help: "mm/min"),
                ],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in
                    guard let amount = p.double("amount"), amount != 0 else { throw RPCError.invalidParam("amount", "must not be 0") }
                    var o: [String: JSONValue] = ["amount": .double(amount)]
                    if let s = p.int("speed") { o["speed"] = .int(s) }
                    return REST.command("extrude", o)
                }, conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.flowrate", summary: "Flow rate factor in percent (75–125)",
                params: [ParamSpec("factor", .integer(min: 75, max: 125), required: true, help: "percent, 75–125")],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in REST.command("flowrate", ["factor": .int(try p.requiredInt("factor"))]) },
                conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.state", summary: "Hotend temperatures", params: [], method: .GET, path: REST.fixed("/api/printer/tool"),
                conflict: .printerNotOperational, result: OctoPrintSchemas.heaters),
        ]
        for (part, max) in [("bed", \TemperatureLimits.bed), ("chamber", \TemperatureLimits.chamber)] {
            list += [
                RESTCommand(
                    name: "\(part).target", summary: "Set the \(part)'s target temperature",
                    params: [ParamSpec("temperature", .number(), required: true, help: "°C (0 turns it off)")], method: .POST,
                    path: REST.fixed("/api/printer/\(part)"),
                    body: { p, limits throws(RPCError) in
                        REST.command("target", ["target": .double(try REST.temperature(p, "temperature", max: limits[keyPath: max], what: part))])
                    }, conflict: .printerNotOperational),
                RESTCommand(
                    name: "\(part).offset", summary: "Set the \(part)'s temperature offset",
                    params: [ParamSpec("offset", .number(min: -50, max: 50), required: true, help: "°C, -50 to 50")], method: .POST,
                    path: REST.fixed("/api/printer/\(part)"),
                    body: { p, _ throws(RPCError) in REST.command("offset", ["offset": .double(try p.requiredDouble("offset"))]) },
                    conflict: .printerNotOperational),
                RESTCommand(
                    name: "\(part).state", summary: "The \(part)'s temperature", params: [], method: .GET,
                    path: REST.fixed("/api/printer/\(part)"), conflict: .printerNotOperational),
            ]
        }
        for c in ["init", "refresh", "release"] {
            list.append(
                RESTCommand(
                    name: "sd.\(c)", summary: "SD card: \(c)", params: [], method: .POST, path: REST.fixed("/api/printer/sd"),
                    body: { _, _ in REST.command(c) }, conflict: .printerNotOperational))
        }
        list += [
            RESTCommand(
                name: "sd.state", summary: "Whether the SD card is ready", params: [], method: .GET, path: REST.fixed("/api/printer/sd"),
                conflict: .printerNotOperational, result: JSONSchema.object(["ready": .boolean]).open),
            RESTCommand(
                name: "gcode", summary: "Send G-code commands to the printer",
                params: [ParamSpec("commands", .array(of: .string), required: true, help: "G-code lines, e.g. [\"G28\", \"M115\"]")],
                method: .POST, path: REST.fixed("/api/printer/command"),
                body: { p, _ throws(RPCError) in
                    let lines = (p.array("commands") ?? []).compactMap(\.stringValue).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard !lines.isEmpty, lines.allSatisfy({ !$0.isEmpty && !$0.contains("\n") }) else {
                        throw RPCError.invalidParam("commands", "must be one or more non-empty single-line G-code commands")
                    }
                    return ["commands": .array(lines.map(JSONValue.string))]
                }, conflict: .printerNotOperational, example: "assistantctl octoprint.gcode 'commands=[\"G28\",\"M115\"]'"),
            RESTCommand(
                name: "controls.list", summary: "The custom controls configured in OctoPrint", params: [], method: .GET,
                path: REST.fixed("/api/printer/command/custom")),
            RESTCommand(name: "error.get", summary: "The printer's last error", params: [], method: .GET, path: REST.fixed("/api/printer/error")),
        ]
        return list
    }

    static let noSlicer: @Sendable (Params) -> RPCError = { p in OctoPrintError.noSlicer(p.string("slicer") ?? "") }
    static let slicer = ParamSpec("slicer", .string, required: true, help: "slicer id, e.g. curalegacy")
    static let profileKey = ParamSpec("key", .string, required: true, help: "profile key")
    static let slicingProfile: @Sendable (Params) throws(RPCError) -> String = { p throws(RPCError) in
        "/api/slicing/\(REST.encoded(try REST.required(p, "slicer")))/profiles/\(REST.encoded(try REST.required(p, "key")))"
    }

    static func toolName(_ p: Params) throws(RPCError) -> String {
        let tool = p.string("tool") ?? "tool0"
        guard tool.hasPrefix("tool"), let n = Int(tool.dropFirst(4)), (0..<16).contains(n) else {
            throw RPCError.invalidParam("tool", "'\(tool)' must be tool0 … tool15")
        }
        return tool
    }

    static var files: [RESTCommand] {
        [
            RESTCommand(
                name: "files.list", summary: "Files and folders (recursive)",
                params: [
                    ParamSpec("location", .oneOf(["local", "sdcard"]), help: "only this location (default: all)")
                ], method: .GET, path: { p throws(RPCError) in "/api/files" + (p.string("location").map { "/\($0)" } ?? "") },
                query: { _ in [("recursive", "true")] }),
            RESTCommand(
                name: "files.info", summary: "One file's or folder's details", params: [REST.location, REST.filePath], method: .GET,
                path: REST.filePathURL),
            RESTCommand(
                name: "files.select", summary: "Select a file for printing", params: [REST.location, REST.filePath], method: .POST,
                path: REST.filePathURL, body: { _, _ in REST.command("select", ["print": false]) }, conflict: .fileInUse),
            RESTCommand(
                name: "files.unselect", summary: "Unselect the selected file", params: [REST.location, REST.filePath], method: .POST,
                path: REST.filePathURL, body: { _, _ in REST.command("unselect") }, conflict: .fileInUse),
            RESTCommand(
                name: "files.print", summary: "Select a file and start printing it", params: [REST.location, REST.filePath],
                method: .POST, path: REST.filePathURL, body: { _, _ in REST.command("select", ["print": true]) },
                conflict: .printerNotOperational, example: "assistantctl octoprint.files.print path=benchy.gcode"),
            RESTCommand(
                name: "files.slice", summary: "Slice an STL with a configured slicer",
                params: [
                    REST.location, REST.filePath, ParamSpec("slicer", .string, required: true, help: "slicer id"),
                    ParamSpec("gcode", .string, help: "name of the resulting G-code"), ParamSpec("profile", .string, help: "slicing profile"),
                    ParamSpec("select", .boolean, help: "select the result"), ParamSpec("print", .boolean, help: "print the result"),
                ],
                method: .POST, path: REST.filePathURL,
                body: { p, _ throws(RPCError) in
                    var o: [String: JSONValue] = ["slicer": .string(try REST.required(p, "slicer"))]
                    for k in ["gcode", "profile"] { if let v = p.string(k) { o[k] = .string(v) } }
                    for k in ["select", "print"] { if let v = p.bool(k) { o[k] = .bool(v) } }
                    return REST.command("slice", o)
                }, conflict: .fileInUse, onNotFound: noSlicer),
            RESTCommand(
                name: "files.copy", summary: "Copy a file or folder",
                params: [
                    REST.location, REST.filePath,
                    ParamSpec("destination", .string, required: true, help: "destination folder or path"),
                ],
                method: .POST, path: REST.filePathURL,
                body: { p, _ throws(RPCError) in REST.command("copy", ["destination": .string(try REST.required(p, "destination"))]) },
                conflict: .fileInUse),
            RESTCommand(
                name: "files.move", summary: "Move or rename a file or folder",
                params: [
                    REST.location, REST.filePath,
                    ParamSpec("destination", .string, required: true, help: "destination folder or path"),
                ],
                method: .POST, path: REST.filePathURL,
                body: { p, _ throws(RPCError) in REST.command("move", ["destination": .string(try REST.required(p, "destination"))]) },
                conflict: .fileInUse),
            RESTCommand(
                name: "files.delete", summary: "Delete a file or folder", params: [REST.location, REST.filePath], method: .DELETE,
                path: REST.filePathURL, conflict: .fileInUse),
        ]
    }

    static var administration: [RESTCommand] {
        let object = { (name: String, what: String) in ParamSpec(name, .object, required: true, help: what) }
        /// OctoPrint's create/read/update/delete shape; `key` names the identifying parameter.
        func crud(_ area: String, _ base: String, _ what: String, key: String, wrap: String?, update: HTTPMethod) -> [RESTCommand] {
            let keySpec = ParamSpec(key, .string, required: true, help: "\(what) \(key)")
            let url: @Sendable (Params) throws(RPCError) -> String = { p throws(RPCError) in "\(base)/\(REST.encoded(try REST.required(p, key)))" }
            @Sendable func body(_ p: Params) -> JSONValue {
                let given = p.object("data") ?? [:]
                return wrap.map { .object([$0: .object(given)]) } ?? .object(given)
            }
            return [
                RESTCommand(name: "\(area).list", summary: "List \(what)s", params: [], method: .GET, path: REST.fixed(base)),
                RESTCommand(name: "\(area).get", summary: "One \(what)", params: [keySpec], method: .GET, path: url),
                RESTCommand(
                    name: "\(area).add", summary: "Create a \(what)", params: [object("data", "the \(what) as OctoPrint describes it")],
                    method: .POST, path: REST.fixed(base), body: { p, _ in body(p) }),
                RESTCommand(
                    name: "\(area).update", summary: "Change a \(what)", params: [keySpec, object("data", "the fields to change")],
                    method: update, path: url, body: { p, _ in body(p) }),
                RESTCommand(name: "\(area).delete", summary: "Delete a \(what)", params: [keySpec], method: .DELETE, path: url),
            ]
        }
        var list = crud("profiles", "/api/printerprofiles", "printer profile", key: "id", wrap: "profile", update: .PATCH)
        list += crud("access.users", "/api/access/users", "user", key: "name", wrap: nil, update: .PUT)
        list += crud("access.groups", "/api/access/groups", "group", key: "key", wrap: nil, update: .PUT)
        list += [
            RESTCommand(
                name: "access.users.password", summary: "Set a user's password",
                params: [
                    ParamSpec("name", .string, required: true, help: "user name"),
                    ParamSpec("password", .secret, required: true, help: "the new password (never from argv)"),
                    ParamSpec("current_password", .secret, help: "your current password (OctoPrint asks for it when you change your own)"),
                ],
                method: .PUT, path: { p throws(RPCError) in "/api/access/users/\(REST.encoded(try REST.required(p, "name")))/password" },
                body: { p, _ throws(RPCError) in
                    let pw = p.string("password") ?? ""
                    guard pw.count >= 4 else { throw RPCError.invalidParam("password", "is too short") }
                    var body: [String: JSONValue] = ["password": .string(pw)]
                    if let current = p.string("current_password") { body["current"] = .string(current) }
                    return .object(body)
                }),
            RESTCommand(
                name: "access.permissions", summary: "All permissions", params: [], method: .GET, path: REST.fixed("/api/access/permissions")),
            RESTCommand(
                name: "settings.get", summary: "OctoPrint's settings (keys redacted)", params: [], method: .GET, path: REST.fixed("/api/settings")),
            RESTCommand(
                name: "settings.patch", summary: "Change settings (only the given ones)",
                params: [object("settings", "a partial settings tree, e.g. {\"appearance\": {\"name\": \"Prusa\"}}")],
                method: .POST, path: REST.fixed("/api/settings"), body: { p, _ in .object(p.object("settings") ?? [:]) }),
            RESTCommand(
                name: "system.list", summary: "System commands (core and custom)", params: [], method: .GET,
                path: REST.fixed("/api/system/commands")),
            RESTCommand(
                name: "system.run", summary: "Run a system command (shutdown, reboot, restart, restart_safe or a custom one)",
                params: [
                    ParamSpec("source", .oneOf(["core", "custom"]), default: "core", help: "core or custom"),
                    ParamSpec("action", .string, required: true, help: "action id from system.list"),
                ],
                method: .POST,
                path: { p throws(RPCError) in "/api/system/commands/\(p.string("source") ?? "core")/\(REST.encoded(try REST.required(p, "action")))" }
            ),
            RESTCommand(name: "slicing.slicers", summary: "Slicers and their profiles", params: [], method: .GET, path: REST.fixed("/api/slicing")),
            RESTCommand(
                name: "slicing.profiles.list", summary: "A slicer's profiles", params: [slicer], method: .GET,
                path: { p throws(RPCError) in "/api/slicing/\(REST.encoded(try REST.required(p, "slicer")))/profiles" }, onNotFound: noSlicer),
            RESTCommand(
                name: "slicing.profiles.get", summary: "One slicing profile", params: [slicer, profileKey], method: .GET, path: slicingProfile),
            RESTCommand(
                name: "slicing.profiles.add", summary: "Create or replace a slicing profile",
                params: [slicer, profileKey, object("data", "{displayName?, description?, data: {…slicer settings}}")], method: .PUT,
                path: slicingProfile, body: { p, _ in .object(p.object("data") ?? [:]) }),
            RESTCommand(
                name: "slicing.profiles.update", summary: "Change a slicing profile",
                params: [slicer, profileKey, object("data", "the fields to change")], method: .PATCH,
                path: slicingProfile, body: { p, _ in .object(p.object("data") ?? [:]) }),
            RESTCommand(
                name: "slicing.profiles.delete", summary: "Delete a slicing profile", params: [slicer, profileKey], method: .DELETE,
                path: slicingProfile),
            RESTCommand(
                name: "timelapse.list", summary: "Rendered and unrendered timelapses and the configuration", params: [], method: .GET,
                path: REST.fixed("/api/timelapse"), query: { _ in [("unrendered", "true")] }),
            RESTCommand(
                name: "timelapse.delete", summary: "Delete a rendered timelapse",
                params: [ParamSpec("name", .string, required: true, help: "file name")], method: .DELETE,
                path: { p throws(RPCError) in "/api/timelapse/\(REST.encoded(try REST.required(p, "name")))" }),
            RESTCommand(
                name: "timelapse.delete_unrendered", summary: "Delete an unrendered timelapse's frames",
                params: [ParamSpec("name", .string, required: true, help: "unrendered job name")], method: .DELETE,
                path: { p throws(RPCError) in "/api/timelapse/unrendered/\(REST.encoded(try REST.required(p, "name")))" }),
            RESTCommand(
                name: "timelapse.render", summary: "Render an unrendered timelapse",
                params: [ParamSpec("name", .string, required: true, help: "unrendered job name")], method: .POST,
                path: { p throws(RPCError) in "/api/timelapse/unrendered/\(REST.encoded(try REST.required(p, "name")))" },
                body: { _, _ in REST.command("render") }),
            RESTCommand(
                name: "timelapse.config", summary: "Set the timelapse configuration",
                params: [
                    ParamSpec("type", .oneOf(["off", "zchange", "timed"]), required: true, help: "off, zchange or timed"),
                    ParamSpec("fps", .integer(min: 1, max: 120), help: "frames per second"),
                    ParamSpec("interval", .integer(min: 1, max: 3600), help: "seconds between frames (timed)"),
                    ParamSpec("post_roll", .integer(min: 0, max: 3600), help: "seconds after the print"),
                    ParamSpec("save", .boolean, help: "save as the default"),
                ],
                method: .POST, path: REST.fixed("/api/timelapse"),
                body: { p, _ throws(RPCError) in
                    var o: [String: JSONValue] = ["type": .string(try p.requiredString("type"))]
                    if let v = p.int("fps") { o["fps"] = .int(v) }
                    if let v = p.int("interval") { o["interval"] = .int(v) }
                    if let v = p.int("post_roll") { o["postRoll"] = .int(v) }
                    if let v = p.bool("save") { o["save"] = .bool(v) }
                    return .object(o)
                }),
            RESTCommand(name: "logs.list", summary: "OctoPrint's log files", params: [], method: .GET, path: REST.fixed("/plugin/logging/logs")),
            RESTCommand(
                name: "logs.delete", summary: "Delete a log file", params: [ParamSpec("name", .string, required: true, help: "log file name")],
                method: .DELETE, path: { p throws(RPCError) in "/plugin/logging/logs/\(REST.encoded(try REST.required(p, "name")))" }),
            RESTCommand(name: "languages.list", summary: "Installed language packs", params: [], method: .GET, path: REST.fixed("/api/languages")),
            RESTCommand(
                name: "languages.delete", summary: "Remove a language pack",
                params: [
                    ParamSpec("locale", .string, required: true, help: "locale, e.g. de"),
                    ParamSpec("pack", .string, required: true, help: "pack id"),
                ],
                method: .DELETE,
                path: { p throws(RPCError) in
                    "/api/languages/\(REST.encoded(try REST.required(p, "locale")))/\(REST.encoded(try REST.required(p, "pack")))"
                }),
            RESTCommand(
                name: "util.test", summary: "OctoPrint's own checks of a path, URL, server or webcam resolution",
                params: [
                    ParamSpec("command", .oneOf(["path", "url", "server", "resolution"]), required: true, help: "what to test"),
                    ParamSpec("options", .object, help: "the test's parameters, e.g. {\"url\": \"http://…\"}"),
                ],
                method: .POST, path: REST.fixed("/api/util/test"),
                body: { p, _ throws(RPCError) in
                    .object((p.object("options") ?? [:]).merging(["command": .string(try p.requiredString("command"))]) { $1 })
                }),
            RESTCommand(name: "server.info", summary: "OctoPrint's version and safe mode", params: [], method: .GET, path: REST.fixed("/api/server")),
            RESTCommand(
                name: "server.version", summary: "OctoPrint's server and API versions", params: [], method: .GET, path: REST.fixed("/api/version"),
                result: OctoPrintSchemas.version),
        ]
        return list
    }
}
