import NIOHTTP1
import PluginKit

private typealias P = OctoPrintParams

/// Every OctoPrint 1.11 REST area as commands `octoprint.<area>.<verb>`.
enum RESTCatalog {
    /// The calls other than GET that are writes, not destructive, and why: each changes only
    /// OctoPrint's own bookkeeping, loses nothing and moves nothing. Every other POST, PUT, PATCH
    /// and DELETE is destructive (EffectTests pins this list).
    static let writes: [String: String] = [
        "files.select": "it marks a file for the next print; nothing moves until octoprint.job.start",
        "files.unselect": "it clears the selection; nothing moves and no file changes",
        "files.copy": "it makes a copy and keeps the original (OctoPrint refuses an existing destination)",
        "timelapse.render": "it makes a video from frames that stay",
        "timelapse.config": "it changes when timelapses are taken; nothing is deleted",
    ]

    /// Never offered to an AI assistant, whatever [mcp] allows: a person calls them with
    /// assistantctl. By name or by area (`access` covers `access.users.add`, …).
    static let personOnly: [String: String] = [
        "util.test": "OctoPrint fetches any address with it and returns the body",
        "settings.patch": "OctoPrint's settings hold its host's shell commands and G-code scripts",
        "access": "it hands out and changes OctoPrint accounts and their rights",
        "system": "it runs commands on the printer's host",
    ]

    /// What the person is asked before each destructive call that an AI assistant may make
    /// (`ConfirmSentence`: `{name}` is an argument, `[…]` is left out without it).
    /// What each call says it did (`ShortAnswer`: `{name}` is a member of OctoPrint's answer or
    /// an argument, `[…]` is left out without it).
    static let said: [String: [String]] = [
        "access.groups.add": ["Created the group[ on {printer}]"],
        "access.groups.delete": ["Deleted the group {key}[ on {printer}]"],
        "access.groups.update": ["Changed the group {key}[ on {printer}]"],
        "access.users.add": ["Created the user[ on {printer}]"],
        "access.users.delete": ["Deleted the user {name}[ on {printer}]"],
        "access.users.password": ["Set {name}'s password[ on {printer}]"],
        "access.users.update": ["Changed the user {name}[ on {printer}]"],
        "bed.offset": ["Set the bed's temperature offset[ on {printer}] to {offset} °C"],
        "bed.target": ["Set the bed's target temperature[ on {printer}] to {temperature} °C"],
        "chamber.offset": ["Set the chamber's temperature offset[ on {printer}] to {offset} °C"],
        "chamber.target": ["Set the chamber's target temperature[ on {printer}] to {temperature} °C"],
        "connection.connect": ["Connected OctoPrint[ {printer}] to its printer[ on port {port}][ at {baudrate} baud]"],
        "connection.disconnect": ["Disconnected OctoPrint[ {printer}] from its printer"],
        "connection.fake_ack": ["Sent the printer[ {printer}] a fake “ok”"],
        "files.copy": ["Copied it to {destination}[ on {printer}]"],
        "files.delete": ["Deleted {path}[ from {location}][ on {printer}]"],
        "files.move": ["Moved it to {destination}[ on {printer}]"],
        "files.print": ["Started printing {path}[ from {location}][ on {printer}]"],
        "files.select": ["Selected {path} for printing[ on {printer}]"],
        "files.slice": ["Started slicing with {slicer}[ into {gcode}][ on {printer}][ (then select it: {select})][ (then print it: {print})]"],
        "files.unselect": ["Unselected {path}[ on {printer}]"],
        "job.cancel": ["Cancelled the print[ on {printer}]"],
        "job.pause": ["Paused the print[ on {printer}]"],
        "job.restart": ["Restarted the paused print[ on {printer}] from the beginning"],
        "job.resume": ["Resumed the print[ on {printer}]"],
        "job.start": ["Started printing the selected file[ on {printer}]"],
        "job.toggle": ["Paused or resumed the print[ on {printer}]"],
        "languages.delete": ["Removed the language pack {locale}/{pack}[ from {printer}]"],
        "logs.delete": ["Deleted OctoPrint's log {name}[ on {printer}]"],
        "printhead.feedrate": ["Set the feed rate[ on {printer}] to {factor} %"],
        "printhead.home": ["Homed the {axes:list} axes[ of {printer}]", "Homed the print head[ on {printer}]"],
        "printhead.jog": ["Moved the print head[ on {printer}][: x {x}][, y {y}][, z {z}][ (absolute: {absolute})]"],
        "profiles.add": ["Created a printer profile[ on {printer}]"],
        "profiles.delete": ["Deleted the printer profile {id}[ on {printer}]"],
        "profiles.update": ["Changed the printer profile {id}[ on {printer}]"],
        "sd.init": ["Initialised the SD card[ of {printer}]"],
        "sd.refresh": ["Read the SD card's files again[ on {printer}]"],
        "sd.release": ["Released the SD card[ of {printer}]"],
        "settings.patch": ["Changed OctoPrint's settings"],
        "slicing.profiles.add": ["Saved the {slicer} profile {key}[ on {printer}]"],
        "slicing.profiles.delete": ["Deleted the {slicer} profile {key}[ on {printer}]"],
        "slicing.profiles.update": ["Changed the {slicer} profile {key}[ on {printer}]"],
        "system.run": ["Ran the system command {action}[ on {printer}]"],
        "timelapse.config": ["Set timelapses to {type}[ on {printer}][, {fps} fps][, every {interval} s]"],
        "timelapse.delete": ["Deleted the timelapse {name}[ on {printer}]"],
        "timelapse.delete_unrendered": ["Deleted the unrendered timelapse {name}'s frames[ on {printer}]"],
        "timelapse.render": ["Started rendering the timelapse {name}[ on {printer}]"],
        "tool.extrude": ["Extruded {amount} mm of filament (negative retracts)[ on {printer}]"],
        "tool.flowrate": ["Set the flow rate[ on {printer}] to {factor} %"],
        "tool.offset": [
            "Set {tool}'s temperature offset[ on {printer}] to {offset} °C", "Set the hotend's temperature offset[ on {printer}] to {offset} °C",
        ],
        "tool.select": ["Made {tool} the active tool[ on {printer}]"],
        "tool.target": [
            "Set {tool}'s target temperature[ on {printer}] to {temperature} °C",
            "Set the hotend's target temperature[ on {printer}] to {temperature} °C",
        ],
        "util.test": ["Ran OctoPrint's {command} check[ on {printer}]; -o wide shows its answer"],
    ]

    static let questions: [String: [String]] = [
        "connection.connect": ["Connect OctoPrint[ {printer}] to its printer[ on port {port}][ at {baudrate} baud]?"],
        "connection.disconnect": ["Disconnect OctoPrint[ {printer}] from its printer? A print in progress stops."],
        "connection.fake_ack": ["Send the printer[ {printer}] a fake “ok”? It may then take the next command too early."],
        "job.start": ["Start printing the selected file[ on {printer}]?"],
        "job.cancel": ["Cancel the print[ on {printer}]?"],
        "job.restart": ["Restart the paused print[ on {printer}] from the beginning?"],
        "job.pause": ["Pause the print[ on {printer}]?"],
        "job.resume": ["Resume the paused print[ on {printer}]?"],
        "job.toggle": ["Pause or resume the print[ on {printer}]?"],
        "printhead.jog": ["Move the print head[ on {printer}][: x {x}][, y {y}][, z {z}][ (absolute: {absolute})]?"],
        "printhead.home": ["Home the {axes} axes[ of {printer}]?"],
        "printhead.feedrate": ["Set the feed rate[ on {printer}] to {factor} %?"],
        "tool.target": ["Heat {tool}[ on {printer}] to {temperature} °C?", "Heat the hotend[ on {printer}] to {temperature} °C?"],
        "tool.offset": [
            "Set {tool}'s temperature offset[ on {printer}] to {offset} °C?", "Set the hotend's temperature offset[ on {printer}] to {offset} °C?",
        ],
        "tool.select": ["Make {tool} the active tool[ on {printer}]?"],
        "tool.extrude": ["Extrude {amount} mm of filament (negative retracts)[ on {printer}]?"],
        "tool.flowrate": ["Set the flow rate[ on {printer}] to {factor} %?"],
        "bed.target": ["Heat the bed[ of {printer}] to {temperature} °C?"],
        "bed.offset": ["Set the bed's temperature offset[ on {printer}] to {offset} °C?"],
        "chamber.target": ["Heat the chamber[ of {printer}] to {temperature} °C?"],
        "chamber.offset": ["Set the chamber's temperature offset[ on {printer}] to {offset} °C?"],
        "sd.init": ["Initialise the SD card[ of {printer}]?"],
        "sd.refresh": ["Read the SD card's files again[ on {printer}]?"],
        "sd.release": ["Release the SD card[ of {printer}]?"],
        "files.print": ["Print {path}[ from {location}][ on {printer}] now?"],
        "files.slice": ["Slice {path} with {slicer}[ into {gcode}][ on {printer}][ (then select it: {select})][ (then print it: {print})]?"],
        "files.move": ["Move {path} to {destination}[ on {printer}]?"],
        "files.delete": ["Delete {path}[ from {location}][ on {printer}]?"],
        "profiles.add": ["Create a printer profile[ on {printer}] from {data}?"],
        "profiles.update": ["Change the printer profile {id}[ on {printer}] with {data}?"],
        "profiles.delete": ["Delete the printer profile {id}[ on {printer}]?"],
        "slicing.profiles.add": ["Create or replace the {slicer} profile {key}[ on {printer}]?"],
        "slicing.profiles.update": ["Change the {slicer} profile {key}[ on {printer}]?"],
        "slicing.profiles.delete": ["Delete the {slicer} profile {key}[ on {printer}]?"],
        "timelapse.delete": ["Delete the timelapse {name}[ on {printer}]?"],
        "timelapse.delete_unrendered": ["Delete the unrendered timelapse {name}'s frames[ on {printer}]?"],
        "logs.delete": ["Delete OctoPrint's log {name}[ on {printer}]?"],
        "languages.delete": ["Remove the language pack {locale}/{pack}[ from {printer}]?"],
    ]

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
                params: [P.port, P.baudrate, P.printerProfile, P.savePreference, P.autoconnect], method: .POST, path: REST.fixed("/api/connection"),
                body: { p, _ in
                    var o: [String: JSONValue] = [:]
                    if let v = p[P.port] { o["port"] = .string(v) }
                    if let v = p[P.baudrate] { o["baudrate"] = .int(v) }
                    if let v = p[P.printerProfile] { o["printerProfile"] = .string(v) }
                    if let v = p[P.savePreference] { o["save"] = .bool(v) }
                    if let v = p[P.autoconnect] { o["autoconnect"] = .bool(v) }
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
                path: REST.fixed("/api/job"), result: OctoPrintDocuments.job),
        ]
    }

    static var printer: [RESTCommand] {
        var list: [RESTCommand] = [
            RESTCommand(
                name: "printhead.jog", summary: "Move the print head (relative unless absolute=true)",
                params: P.axisNames.map(P.axis) + [P.absolute, P.speed],
                method: .POST, path: REST.fixed("/api/printer/printhead"),
                body: { p, _ throws(RPCError) in
                    var o: [String: JSONValue] = [:]
                    for a in P.axisNames { if let v = p[P.axis(a)] { o[a] = .double(v) } }
                    guard !o.isEmpty else { throw P.axis("x").invalid("give at least one of x, y, z") }
                    if let v = p[P.absolute] { o["absolute"] = .bool(v) }
                    if let v = p[P.speed] { o["speed"] = .int(v) }
                    return REST.command("jog", o)
                }, conflict: .printerNotOperational, example: "assistantctl octoprint.printhead.jog x=10 y=-5"),
            RESTCommand(
                name: "printhead.home", summary: "Home axes",
                params: [P.axes],
                method: .POST, path: REST.fixed("/api/printer/printhead"),
                body: { p, _ throws(RPCError) in
                    let axes = p[P.axes].map(JSONValue.string)
                    guard !axes.isEmpty else { throw OctoPrintParams.axes.invalid("must name at least one axis") }
                    return REST.command("home", ["axes": .array(axes)])
                }, conflict: .printerNotOperational),
            RESTCommand(
                name: "printhead.feedrate", summary: "Feed rate factor in percent (50–200)",
                params: [P.feedFactor],
                method: .POST, path: REST.fixed("/api/printer/printhead"),
                body: { p, _ throws(RPCError) in REST.command("feedrate", ["factor": .int(try p[P.feedFactor])]) },
                conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.target", summary: "Set a hotend's target temperature",
                params: [P.temperature, P.tool],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, limits throws(RPCError) in
                    let t = try REST.temperature(p, P.temperature, max: limits.tool, what: "tool")
                    let tool = try toolName(p)
                    return REST.command("target", ["targets": .object([tool: .double(t)])])
                }, conflict: .printerNotOperational, example: "assistantctl octoprint.tool.target temperature=210"),
            RESTCommand(
                name: "tool.offset", summary: "Set a hotend's temperature offset",
                params: [P.offset, P.tool],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in
                    REST.command("offset", ["offsets": .object([try toolName(p): .double(try p[P.offset])])])
                },
                conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.select", summary: "Select the active tool",
                params: [P.activeTool], method: .POST,
                path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in REST.command("select", ["tool": .string(try toolName(p))]) }, conflict: .printerNotOperational,
                example: "assistantctl octoprint.tool.select tool=tool1"),
            RESTCommand(
                name: "tool.extrude", summary: "Extrude (positive) or retract (negative) filament with the active tool",
                params: [P.amount, P.speed],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in
                    let amount = try p[P.amount]
                    guard amount != 0 else { throw RPCError.invalidParam(P.amount.name, "must not be 0") }
                    var o: [String: JSONValue] = ["amount": .double(amount)]
                    if let s = p[P.speed] { o["speed"] = .int(s) }
                    return REST.command("extrude", o)
                }, conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.flowrate", summary: "Flow rate factor in percent (75–125)",
                params: [P.flowFactor],
                method: .POST, path: REST.fixed("/api/printer/tool"),
                body: { p, _ throws(RPCError) in REST.command("flowrate", ["factor": .int(try p[P.flowFactor])]) },
                conflict: .printerNotOperational),
            RESTCommand(
                name: "tool.state", summary: "Hotend temperatures", params: [], method: .GET, path: REST.fixed("/api/printer/tool"),
                conflict: .printerNotOperational, result: OctoPrintDocuments.heaters),
        ]
        for (part, max) in [("bed", \TemperatureLimits.bed), ("chamber", \TemperatureLimits.chamber)] {
            list += [
                RESTCommand(
                    name: "\(part).target", summary: "Set the \(part)'s target temperature",
                    params: [P.temperature], method: .POST,
                    path: REST.fixed("/api/printer/\(part)"),
                    body: { p, limits throws(RPCError) in
                        REST.command("target", ["target": .double(try REST.temperature(p, P.temperature, max: limits[keyPath: max], what: part))])
                    }, conflict: .printerNotOperational),
                RESTCommand(
                    name: "\(part).offset", summary: "Set the \(part)'s temperature offset",
                    params: [P.offset], method: .POST,
                    path: REST.fixed("/api/printer/\(part)"),
                    body: { p, _ throws(RPCError) in REST.command("offset", ["offset": .double(try p[P.offset])]) },
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
                name: "controls.list", summary: "The custom controls configured in OctoPrint", params: [], method: .GET,
                path: REST.fixed("/api/printer/command/custom")),
            RESTCommand(name: "error.get", summary: "The printer's last error", params: [], method: .GET, path: REST.fixed("/api/printer/error")),
        ]
        return list
    }

    static let noSlicer: @Sendable (Params) -> OctoPrintError = { p in OctoPrintError.noSlicer((try? p[P.slicer]) ?? "") }
    static let slicingData = P.data("{displayName?, description?, data: {…slicer settings}}")
    static let slicingChange = P.data("the fields to change")
    static let slicingProfile: @Sendable (Params) throws(RPCError) -> String = { p throws(RPCError) in
        "/api/slicing/\(REST.encoded(try REST.required(p, P.slicer)))/profiles/\(REST.encoded(try REST.required(p, P.profileKey)))"
    }

    static func toolName(_ p: Params) throws(RPCError) -> String {
        let tool = p[P.tool]
        guard tool.hasPrefix("tool"), let n = Int(tool.dropFirst(4)), (0..<16).contains(n) else {
            throw OctoPrintParams.tool.invalid("'\(tool)' must be tool0 … tool15")
        }
        return tool
    }

    static var files: [RESTCommand] {
        [
            RESTCommand(
                name: "files.list", summary: "Files and folders (recursive)",
                params: [P.onlyLocation], method: .GET, path: { p throws(RPCError) in "/api/files" + (p[P.onlyLocation].map { "/\($0)" } ?? "") },
                query: { _ in [("recursive", "true")] }),
            RESTCommand(
                name: "files.info", summary: "One file's or folder's details", params: [OctoPrintParams.location, OctoPrintParams.filePath],
                method: .GET,
                path: REST.filePathURL),
            RESTCommand(
                name: "files.select", summary: "Select a file for printing", params: [OctoPrintParams.location, OctoPrintParams.filePath],
                method: .POST,
                path: REST.filePathURL, body: { _, _ in REST.command("select", ["print": false]) }, conflict: .fileInUse),
            RESTCommand(
                name: "files.unselect", summary: "Unselect the selected file", params: [OctoPrintParams.location, OctoPrintParams.filePath],
                method: .POST,
                path: REST.filePathURL, body: { _, _ in REST.command("unselect") }, conflict: .fileInUse),
            RESTCommand(
                name: "files.print", summary: "Select a file and start printing it", params: [OctoPrintParams.location, OctoPrintParams.filePath],
                method: .POST, path: REST.filePathURL, body: { _, _ in REST.command("select", ["print": true]) },
                conflict: .printerNotOperational, example: "assistantctl octoprint.files.print path=benchy.gcode"),
            RESTCommand(
                name: "files.slice", summary: "Slice an STL with a configured slicer",
                params: [OctoPrintParams.location, OctoPrintParams.filePath, P.sliceWith, P.gcode, P.slicingProfile, P.selectResult, P.printResult],
                method: .POST, path: REST.filePathURL,
                body: { p, _ throws(RPCError) in
                    var o: [String: JSONValue] = ["slicer": .string(try REST.required(p, P.sliceWith))]
                    for k in [P.gcode, P.slicingProfile] { if let v = p[k] { o[k.name] = .string(v) } }
                    for k in [P.selectResult, P.printResult] { if let v = p[k] { o[k.name] = .bool(v) } }
                    return REST.command("slice", o)
                }, conflict: .fileInUse, onNotFound: noSlicer),
            RESTCommand(
                name: "files.copy", summary: "Copy a file or folder",
                params: [OctoPrintParams.location, OctoPrintParams.filePath, P.destination],
                method: .POST, path: REST.filePathURL,
                body: { p, _ throws(RPCError) in REST.command("copy", ["destination": .string(try REST.required(p, P.destination))]) },
                conflict: .fileInUse),
            RESTCommand(
                name: "files.move", summary: "Move or rename a file or folder",
                params: [OctoPrintParams.location, OctoPrintParams.filePath, P.destination],
                method: .POST, path: REST.filePathURL,
                body: { p, _ throws(RPCError) in REST.command("move", ["destination": .string(try REST.required(p, P.destination))]) },
                conflict: .fileInUse),
            RESTCommand(
                name: "files.delete", summary: "Delete a file or folder", params: [OctoPrintParams.location, OctoPrintParams.filePath],
                method: .DELETE,
                path: REST.filePathURL, conflict: .fileInUse),
        ]
    }

    static var administration: [RESTCommand] {
        /// OctoPrint's create/read/update/delete shape; `key` names the identifying parameter.
        func crud(_ area: String, _ base: String, _ what: String, key: String, wrap: String?, update: HTTPMethod) -> [RESTCommand] {
            let keySpec = P.itemKey(key, what)
            let url: @Sendable (Params) throws(RPCError) -> String = { p throws(RPCError) in "\(base)/\(REST.encoded(try REST.required(p, keySpec)))"
            }
            let created = P.data("the \(what) as OctoPrint describes it")
            let changed = P.data("the fields to change")
            @Sendable func body(_ p: Params, _ key: RequiredParam<JSONValue>) -> JSONValue {
                let given = (try? p[key])?.objectValue ?? [:]
                return wrap.map { .object([$0: .object(given)]) } ?? .object(given)
            }
            return [
                RESTCommand(name: "\(area).list", summary: "List \(what)s", params: [], method: .GET, path: REST.fixed(base)),
                RESTCommand(name: "\(area).get", summary: "One \(what)", params: [keySpec], method: .GET, path: url),
                RESTCommand(
                    name: "\(area).add", summary: "Create a \(what)", params: [created],
                    method: .POST, path: REST.fixed(base), body: { p, _ in body(p, created) }),
                RESTCommand(
                    name: "\(area).update", summary: "Change a \(what)", params: [keySpec, changed],
                    method: update, path: url, body: { p, _ in body(p, changed) }),
                RESTCommand(name: "\(area).delete", summary: "Delete a \(what)", params: [keySpec], method: .DELETE, path: url),
            ]
        }
        var list = crud("profiles", "/api/printerprofiles", "printer profile", key: "id", wrap: "profile", update: .PATCH)
        list += crud("access.users", "/api/access/users", "user", key: "name", wrap: nil, update: .PUT).map { command in
            guard command.name == "access.users.add" else { return command }
            // The new user's password is a secret parameter (never from argv), put into the body
            // here; one inside `data` would have come through argv, so it is refused.
            var withPassword = command
            withPassword.params.append(P.newUserPassword)
            withPassword.body = { p, _ throws(RPCError) in
                var user = (try? p[P.data("")])?.objectValue ?? [:]
                guard user["password"] == nil else {
                    throw P.data("").invalid("holds a password: give it as the password parameter, which is read from stdin")
                }
                let password = try p[P.newUserPassword]
                guard password.count >= 4 else { throw RPCError.invalidParam(P.newUserPassword.name, "is too short") }
                user["password"] = .string(password)
                return .object(user)
            }
            return withPassword
        }
        list += crud("access.groups", "/api/access/groups", "group", key: "key", wrap: nil, update: .PUT)
        list += [
            RESTCommand(
                name: "access.users.password", summary: "Set a user's password",
                params: [P.userName, P.password, P.currentPassword],
                method: .PUT, path: { p throws(RPCError) in "/api/access/users/\(REST.encoded(try REST.required(p, P.userName)))/password" },
                body: { p, _ throws(RPCError) in
                    let pw = try p[P.password]
                    guard pw.count >= 4 else { throw RPCError.invalidParam(P.password.name, "is too short") }
                    var body: [String: JSONValue] = ["password": .string(pw)]
                    if let current = p[P.currentPassword] { body["current"] = .string(current) }
                    return .object(body)
                }),
            RESTCommand(
                name: "access.permissions", summary: "All permissions", params: [], method: .GET, path: REST.fixed("/api/access/permissions")),
            RESTCommand(
                name: "settings.get", summary: "OctoPrint's settings (keys redacted)", params: [], method: .GET, path: REST.fixed("/api/settings")),
            RESTCommand(
                name: "settings.patch", summary: "Change settings (only the given ones)",
                params: [P.settings],
                method: .POST, path: REST.fixed("/api/settings"), body: { p, _ in .object((try? p[P.settings])?.objectValue ?? [:]) }),
            RESTCommand(
                name: "system.list", summary: "System commands (core and custom)", params: [], method: .GET,
                path: REST.fixed("/api/system/commands")),
            RESTCommand(
                name: "system.run", summary: "Run a system command (shutdown, reboot, restart, restart_safe or a custom one)",
                params: [P.source, P.action],
                method: .POST,
                path: { p throws(RPCError) in "/api/system/commands/\(p[P.source])/\(REST.encoded(try REST.required(p, P.action)))" }
            ),
            RESTCommand(name: "slicing.slicers", summary: "Slicers and their profiles", params: [], method: .GET, path: REST.fixed("/api/slicing")),
            RESTCommand(
                name: "slicing.profiles.list", summary: "A slicer's profiles", params: [P.slicer], method: .GET,
                path: { p throws(RPCError) in "/api/slicing/\(REST.encoded(try REST.required(p, P.slicer)))/profiles" }, onNotFound: noSlicer),
            RESTCommand(
                name: "slicing.profiles.get", summary: "One slicing profile", params: [P.slicer, P.profileKey], method: .GET, path: slicingProfile),
            RESTCommand(
                name: "slicing.profiles.add", summary: "Create or replace a slicing profile",
                params: [P.slicer, P.profileKey, slicingData], method: .PUT,
                path: slicingProfile, body: { p, _ in .object((try? p[slicingData])?.objectValue ?? [:]) }),
            RESTCommand(
                name: "slicing.profiles.update", summary: "Change a slicing profile",
                params: [P.slicer, P.profileKey, slicingChange], method: .PATCH,
                path: slicingProfile, body: { p, _ in .object((try? p[slicingChange])?.objectValue ?? [:]) }),
            RESTCommand(
                name: "slicing.profiles.delete", summary: "Delete a slicing profile", params: [P.slicer, P.profileKey], method: .DELETE,
                path: slicingProfile),
            RESTCommand(
                name: "timelapse.list", summary: "Rendered and unrendered timelapses and the configuration", params: [], method: .GET,
                path: REST.fixed("/api/timelapse"), query: { _ in [("unrendered", "true")] }),
            RESTCommand(
                name: "timelapse.delete", summary: "Delete a rendered timelapse",
                params: [P.fileName], method: .DELETE,
                path: { p throws(RPCError) in "/api/timelapse/\(REST.encoded(try REST.required(p, P.fileName)))" }),
            RESTCommand(
                name: "timelapse.delete_unrendered", summary: "Delete an unrendered timelapse's frames",
                params: [P.unrendered], method: .DELETE,
                path: { p throws(RPCError) in "/api/timelapse/unrendered/\(REST.encoded(try REST.required(p, P.unrendered)))" }),
            RESTCommand(
                name: "timelapse.render", summary: "Render an unrendered timelapse",
                params: [P.unrendered], method: .POST,
                path: { p throws(RPCError) in "/api/timelapse/unrendered/\(REST.encoded(try REST.required(p, P.unrendered)))" },
                body: { _, _ in REST.command("render") }),
            RESTCommand(
                name: "timelapse.config", summary: "Set the timelapse configuration",
                params: [P.timelapseType, P.fps, P.interval, P.postRoll, P.saveDefault],
                method: .POST, path: REST.fixed("/api/timelapse"),
                body: { p, _ throws(RPCError) in
                    var o: [String: JSONValue] = ["type": .string(try p[P.timelapseType])]
                    if let v = p[P.fps] { o["fps"] = .int(v) }
                    if let v = p[P.interval] { o["interval"] = .int(v) }
                    if let v = p[P.postRoll] { o["postRoll"] = .int(v) }
                    if let v = p[P.saveDefault] { o["save"] = .bool(v) }
                    return .object(o)
                }),
            RESTCommand(name: "logs.list", summary: "OctoPrint's log files", params: [], method: .GET, path: REST.fixed("/plugin/logging/logs")),
            RESTCommand(
                name: "logs.delete", summary: "Delete a log file", params: [P.logName],
                method: .DELETE, path: { p throws(RPCError) in "/plugin/logging/logs/\(REST.encoded(try REST.required(p, P.logName)))" }),
            RESTCommand(name: "languages.list", summary: "Installed language packs", params: [], method: .GET, path: REST.fixed("/api/languages")),
            RESTCommand(
                name: "languages.delete", summary: "Remove a language pack",
                params: [P.locale, P.pack],
                method: .DELETE,
                path: { p throws(RPCError) in
                    "/api/languages/\(REST.encoded(try REST.required(p, P.locale)))/\(REST.encoded(try REST.required(p, P.pack)))"
                }),
            RESTCommand(
                name: "util.test", summary: "OctoPrint's own checks of a path, URL, server or webcam resolution",
                params: [P.test, P.options],
                method: .POST, path: REST.fixed("/api/util/test"),
                body: { p, _ throws(RPCError) in
                    .object((p[P.options]?.objectValue ?? [:]).merging(["command": .string(try p[P.test])]) { $1 })
                }),
            RESTCommand(name: "server.info", summary: "OctoPrint's version and safe mode", params: [], method: .GET, path: REST.fixed("/api/server")),
            RESTCommand(
                name: "server.version", summary: "OctoPrint's server and API versions", params: [], method: .GET, path: REST.fixed("/api/version"),
                result: OctoPrintDocuments.version),
        ]
        return list
    }
}
