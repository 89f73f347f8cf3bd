import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// Every method the shipped daemon publishes says what calling it does to the world
/// (`x-effect` in rpc.discover, `effect` in help), so an assistant can ask before acting; what
/// loses data or acts on the physical world is destructive.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2))) struct EffectTests {
    @Test func everyMethodDeclaresItsEffectAndTheDangerousOnesAreDestructive() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await daemon.connect()
        let methods = try #require(try await connection.call("rpc.discover")["methods"]?.arrayValue)
        var effects: [String: String] = [:]
        for method in methods {
            guard let name = method["name"]?.stringValue else { continue }
            effects[name] = method["x-effect"]?.stringValue
        }
        #expect(methods.count > 200)
        let undeclared =
            effects.filter { $0.value.isEmpty }.keys.sorted() + Set(methods.compactMap { $0["name"]?.stringValue }).subtracting(effects.keys)
        #expect(effects.values.allSatisfy { ["read", "write", "destructive"].contains($0) })
        #expect(methods.allSatisfy { $0["x-effect"]?.stringValue != nil }, "undeclared: \(undeclared)")
        // Deletes and purges, starting or cancelling a print, moving axes, heating, system
        // commands on the printer's host, exam registration, mail to other people.
        for name in [
            "tasks.delete", "tasks.categories.remove", "logbook.flights.purge", "logbook.flights.delete", "vault.delete", "octoprint.job.start",
            "octoprint.job.cancel", "octoprint.printhead.jog", "octoprint.tool.target", "octoprint.bed.target", "octoprint.system.run",
            "octoprint.files.delete", "octoprint.files.print", "octoprint.gcode", "stag.exams.register", "stag.exams.unregister",
        ] {
            #expect(effects[name] == "destructive", "\(name) is \(effects[name] ?? "undeclared")")
        }
        for name in ["ping", "today", "tasks.list", "stag.timetable", "kos.exams", "octoprint.status", "octoprint.job.status", "logbook.currency"] {
            #expect(effects[name] == "read", "\(name) is \(effects[name] ?? "undeclared")")
        }
        for name in ["tasks.add", "logbook.flights.add", "vault.set", "stag.exams.watch", "octoprint.webcam.snapshot", "octoprint.webcam.frames"] {
            #expect(effects[name] == "write", "\(name) is \(effects[name] ?? "undeclared")")
        }
        // Logging out ends a session at STAG or loses KOS's tokens; changing OctoPrint's settings
        // changes its host's commands: destructive.
        for name in ["stag.logout", "kos.logout", "octoprint.settings.patch", "octoprint.connection.connect", "octoprint.files.move"] {
            #expect(effects[name] == "destructive", "\(name) is \(effects[name] ?? "undeclared")")
        }
        let help = try await connection.call("help", params: ["method": "octoprint.system.run"])
        #expect(help["effect"] == "destructive")

        // Effects that depend on the call's arguments, declared with the command and said in words.
        let byName = Dictionary(methods.compactMap { m in m["name"]?.stringValue.map { ($0, m) } }, uniquingKeysWith: { a, _ in a })
        #expect(byName["notifications.send"]?["x-destructive-when"] == [["param": "to", "given": true], ["param": "attachments", "given": true]])
        #expect(byName["notifications.send"]?["x-effect-rule"] == "destructive when to or attachments is given")
        #expect(byName["stag.exams.watch"]?["x-destructive-when"] == [["param": "auto_register", "equals": true]])
        #expect(byName["stag.exams.watch"]?["x-effect-rule"] == "destructive with auto_register=true")
        // A teacher's mail to a class only lists the students until dry_run=false sends it.
        #expect(byName["stag.students.mail"]?["x-effect"] == "read")
        #expect(byName["stag.students.mail"]?["x-destructive-when"] == [["param": "dry_run", "equals": false]])
        let sendHelp = try await connection.call("help", params: ["method": "notifications.send"])
        #expect(sendHelp["effect_rule"] == "destructive when to or attachments is given")
        // Every command that writes a file takes overwrite, and is destructive with it.
        let writers = methods.filter { method in (method["params"]?.arrayValue ?? []).contains { $0["name"] == "overwrite" } }
            .compactMap { $0["name"]?.stringValue }.sorted()
        #expect(
            writers == [
                "backup", "kos.export.ics", "kos.timetable.pdf", "logbook.attachments.get", "logbook.chart", "logbook.export",
                "octoprint.files.download",
                "octoprint.logs.download", "octoprint.temperature.chart", "octoprint.timelapse.download", "octoprint.webcam.frames",
                "octoprint.webcam.snapshot", "stag.export.ics", "stag.timetable.pdf", "tasks.export.ics",
            ])
        for name in writers {
            let params = byName[name]?["params"]?.arrayValue ?? []
            #expect(params.contains { $0["name"] == "overwrite" && $0["schema"]?["default"] == false }, "\(name) takes no overwrite")
            #expect(byName[name]?["x-destructive-when"]?.arrayValue?.contains(["param": "overwrite", "equals": true]) == true, "\(name)")
        }

        // OctoPrint: every call other than GET is destructive but for these writes, each with its reason.
        let printerWrites = methods.filter {
            $0["tags"]?.arrayValue?.first?["name"] == "octoprint" && $0["x-effect"] == "write" && $0["x-effect-rule"] != nil
                && $0["x-destructive-when"] == nil
        }
        #expect(
            Set(printerWrites.compactMap { $0["name"]?.stringValue })
                == [
                    "octoprint.files.select", "octoprint.files.unselect", "octoprint.files.copy", "octoprint.timelapse.render",
                    "octoprint.timelapse.config",
                ])
        #expect(printerWrites.allSatisfy { ($0["x-effect-rule"]?.stringValue?.count ?? 0) > 20 })

        // A new OctoPrint user's password is a secret parameter, never argv.
        let addUser = byName["octoprint.access.users.add"]?["params"]?.arrayValue ?? []
        #expect(addUser.contains { $0["name"] == "password" && $0["schema"]?["writeOnly"] == true })

        // What only a person may call, declared by each method: never offered over MCP.
        let personOnly = Set(methods.filter { $0["x-person-only"] != nil }.compactMap { $0["name"]?.stringValue })
        let expected: Set<String> = [
            "backup", "subscribe", "unsubscribe", "mcp.settings", "vault.set", "vault.list", "vault.delete", "vault.status", "vault.unlock",
            "vault.lock", "vault.rekey", "octoprint.util.test", "octoprint.settings.patch", "octoprint.system.list", "octoprint.system.run",
            "web.pair",
        ]
        let access = personOnly.filter { $0.hasPrefix("octoprint.access.") }
        #expect(personOnly.subtracting(access) == expected)
        #expect(
            access == Set(methods.compactMap { $0["name"]?.stringValue }.filter { $0.hasPrefix("octoprint.access.") }) && access.count >= 10,
            "\(access.sorted())")
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// Every call a person may be asked to confirm has a question of its own, and each of its
    /// placeholders names a parameter of the command or a member of the read it takes details
    /// from: a typo in a sentence fails here, not in front of a person.
    @Test func everyDestructiveCallAsksItsOwnQuestion() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await daemon.connect()
        let methods = try #require(try await connection.call("rpc.discover")["methods"]?.arrayValue)
        let byName = Dictionary(methods.compactMap { m in m["name"]?.stringValue.map { ($0, m) } }, uniquingKeysWith: { a, _ in a })
        func members(_ schema: JSONValue?) -> Set<String> {
            guard let schema else { return [] }
            var names = Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? [])
            for key in ["anyOf", "oneOf", "allOf"] { for branch in schema[key]?.arrayValue ?? [] { names.formUnion(members(branch)) } }
            return names
        }
        var asking: [String] = []
        for (name, method) in byName.sorted(by: { $0.key < $1.key }) {
            let mayBeDestructive = method["x-effect"] == "destructive" || method["x-destructive-when"] != nil
            guard mayBeDestructive, method["x-person-only"] == nil else { continue }
            let confirm = try #require(ConfirmSentence(json: method["x-confirm"]), "\(name) asks nothing of its own")
            asking.append(name)
            let params = Set((method["params"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
            var known = params
            if let details = confirm.details {
                let read = try #require(byName[details], "\(name) takes details from \(details), which is no method")
                #expect(read["x-effect"] == "read", "\(name)'s details come from \(details), which is not a read")
                let taken = Set((read["params"]?.arrayValue ?? []).filter { $0["required"] == true }.compactMap { $0["name"]?.stringValue })
                #expect(taken.isSubset(of: params), "\(details) needs \(taken.subtracting(params)), which \(name) does not take")
                known.formUnion(members(read["result"]?["schema"]))
            }
            for sentence in confirm.sentences {
                let used = sentence.matches(of: /\{([a-z_]+)(?::([a-z]+))?\}/).map { (String($0.output.1), $0.output.2.map(String.init)) }
                for (placeholder, format) in used {
                    #expect(known.contains(placeholder), "\(name): {\(placeholder)} names nothing it has (\(known.sorted()))")
                    #expect(format == nil || format == "day" || format == "if", "\(name): {\(placeholder):\(format ?? "")} is no format")
                }
                #expect(sentence.hasSuffix("?") || sentence.contains("? "), "\(name)'s question is no question: \(sentence)")
                #expect(sentence.filter { $0 == "[" }.count == sentence.filter { $0 == "]" }.count, "\(name): unbalanced [ ] in \(sentence)")
            }
        }
        #expect(asking.count > 60, "\(asking)")
        let help = try await connection.call("help", params: ["method": "stag.exams.register"])
        #expect(MethodHelp.text(help).contains("an AI assistant's call asks first: Register for {subject}[ {name}], exam on {date:day}"))
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }

    /// Every method that changes something says what it did in a line (`x-says`): each name in
    /// its sentences is one of its arguments or a member of its result, each format is known, and
    /// the last sentence needs only what every call has (so some sentence always fills).
    @Test func everyChangeSaysWhatItDid() async throws {
        let daemon = try await DaemonProcess.started()
        let connection = try await daemon.connect()
        let methods = try #require(try await connection.call("rpc.discover")["methods"]?.arrayValue)
        /// Every member path of a result schema, and those always there (required and not null).
        func members(_ schema: JSONValue?, _ prefix: String = "", required inherited: Bool = true) -> (all: Set<String>, always: Set<String>) {
            guard let schema else { return ([], []) }
            var all: Set<String> = []
            var always: Set<String> = []
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (key, member) in schema["properties"]?.objectValue ?? [:] {
                all.insert(prefix + key)
                let nullable = member["type"]?.arrayValue?.contains("null") ?? false
                let present = inherited && required.contains(key) && !nullable
                if present { always.insert(prefix + key) }
                let inner = members(member, prefix + key + ".", required: present)
                all.formUnion(inner.all)
                always.formUnion(inner.always)
            }
            for key in ["anyOf", "oneOf"] {
                for branch in schema[key]?.arrayValue ?? [] { all.formUnion(members(branch, prefix, required: false).all) }
            }
            return (all, always)
        }
        var saying: [String] = []
        for method in methods {
            guard let name = method["name"]?.stringValue, method["x-effect"] != "read" else { continue }
            let says = try #require(ShortAnswer(json: method["x-says"]), "\(name) changes something and does not say what it did")
            saying.append(name)
            let params = method["params"]?.arrayValue ?? []
            let arguments = Set(params.compactMap { $0["name"]?.stringValue })
            let required = Set(params.filter { $0["required"] == true }.compactMap { $0["name"]?.stringValue })
            let result = members(method["result"]?["schema"])
            for sentence in says.sentences {
                for (placeholder, format) in ShortAnswer.names(in: sentence) {
                    #expect(
                        placeholder == "#" || arguments.contains(placeholder) || result.all.contains(placeholder),
                        "\(name): {\(placeholder)} is neither an argument nor a member of the result")
                    #expect(format.map(ShortAnswer.formats.contains) ?? true, "\(name): {\(placeholder):\(format ?? "")} is no format")
                }
                #expect(sentence.filter { $0 == "[" }.count == sentence.filter { $0 == "]" }.count, "\(name): unbalanced [ ] in \(sentence)")
            }
            let last = try #require(says.sentences.last)
            let outside = last.replacing(/\[[^\]]*\]/, with: "")
            for (placeholder, _) in ShortAnswer.names(in: outside) {
                #expect(
                    placeholder == "#" || required.contains(placeholder) || result.always.contains(placeholder),
                    "\(name): its last sentence needs {\(placeholder)}, which a call may not have")
            }
        }
        #expect(saying.count > 130, "\(saying.count)")
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
