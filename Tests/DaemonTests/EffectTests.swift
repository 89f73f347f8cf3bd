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
            "stag.students.mail",
        ] {
            #expect(effects[name] == "destructive", "\(name) is \(effects[name] ?? "undeclared")")
        }
        for name in ["ping", "today", "tasks.list", "stag.timetable", "kos.exams", "octoprint.status", "octoprint.job.status", "logbook.currency"] {
            #expect(effects[name] == "read", "\(name) is \(effects[name] ?? "undeclared")")
        }
        for name in ["tasks.add", "logbook.flights.add", "vault.set", "octoprint.settings.patch", "stag.exams.watch"] {
            #expect(effects[name] == "write", "\(name) is \(effects[name] ?? "undeclared")")
        }
        let help = try await connection.call("help", params: ["method": "octoprint.system.run"])
        #expect(help["effect"] == "destructive")
        await connection.close()
        await daemon.signal(SIGTERM)
        _ = try await daemon.exitStatus()
    }
}
