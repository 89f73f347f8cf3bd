import Foundation
import PluginKit

/// `octoprint.terminal`: a printer's last lines.
struct TerminalLines: ResultObject, CallResult {
    let printer: String
    let lines: [TerminalLog.Line]

    static let members = ResultMembers<Self>(.field("printer", \.printer), .field("lines", \.lines, "oldest first"))
}

/// `octoprint.gcode`: what was sent, and the printer's answers as far as they came.
struct GcodeSent: ResultObject, CallResult {
    let printer: String
    let commands: [String]
    let answers: [TerminalLog.Line]
    let complete: Bool

    static let members = ResultMembers<Self>(
        .field("printer", \.printer), .field("commands", \.commands),
        .field("answers", \.answers, "the lines the printer sent back after the commands, up to their last ok"),
        .field("complete", \.complete, "every command was answered with ok within wait_s; false: the answers are as far as it got"))
}

extension OctoPrintService {
    /// Sends the commands, then waits (at most `wait_s`) for the printer's answers on the push
    /// connection's log: one `ok` per command ends the wait.
    func gcode(_ params: Params) async throws -> GcodeSent {
        let commands = try params[OctoPrintParams.commands].map { $0.trimmingCharacters(in: .whitespaces) }
        guard !commands.isEmpty, commands.count <= 100, commands.allSatisfy({ !$0.isEmpty && !$0.contains("\n") && $0.count <= 256 }) else {
            throw OctoPrintParams.commands.invalid("must be 1 to 100 non-empty single-line G-code commands")
        }
        let wait = params[OctoPrintParams.gcodeWait]
        let printer = try PrinterStore.resolve(try await printers(), params[OctoPrintParams.printer])
        let c = try await client(for: printer)
        let watch = await live.watch(for: printer.name)
        let mark = await watch?.terminal.added ?? 0
        let listening = await watch?.listen()
        do {
            let body: JSONValue = ["commands": .array(commands.map(JSONValue.string))]
            _ = try await c.call(.POST, "/api/printer/command", body: body, conflict: .printerNotOperational)
        } catch {
            if let listening { await watch?.stopListening(listening.id) }
            throw error
        }
        guard let watch, let listening, wait > 0 else {
            if let listening { await watch?.stopListening(listening.id) }
            return GcodeSent(printer: printer.name, commands: commands, answers: [], complete: false)
        }
        @Sendable func answered() async -> (lines: [TerminalLog.Line], complete: Bool) {
            let lines = await watch.terminal.since(mark).filter { $0.direction != .sent }
            let oks = lines.filter { $0.text.hasPrefix("ok") }.count
            return (lines, oks >= commands.count)
        }
        let waited = try? await withDeadline(.seconds(wait), timedOut: { CancellationError() }) {
            for await _ in listening.stream where await answered().complete { return true }
            return false
        }
        await watch.stopListening(listening.id)
        let (lines, complete) = await answered()
        return GcodeSent(printer: printer.name, commands: commands, answers: lines, complete: complete && waited == true)
    }

    func terminal(_ params: Params) async throws -> TerminalLines {
        let printer = try PrinterStore.resolve(try await printers(), params[OctoPrintParams.printer])
        guard let watch = await live.watch(for: printer.name) else {
            throw RPCError.notFound("the terminal of \(printer.name) (the live monitor is not watching it)", data: ["printer": .string(printer.name)])
        }
        return TerminalLines(printer: printer.name, lines: await watch.terminal.last(Int(params[OctoPrintParams.terminalLines])))
    }
}
