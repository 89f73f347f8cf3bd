import AsyncHTTPClient
import Foundation
import PluginKit

extension OctoPrintService {
    /// Checks that `url` is OctoPrint and the key works. A 403 on `/api/version` is a wrong key
    /// only if `/plugin/appkeys/probe` (open to anyone) answers 204 as OctoPrint does.
    func verify(_ printer: Printer, apiKey: String, basicPassword: String?) async throws -> JSONValue {
        let c = OctoPrintClient(printer: printer, apiKey: apiKey, basicPassword: basicPassword, http: context.http, timeout: context.httpTimeout)
        let version = try await c.send(try await c.makeRequest(.GET, "/api/version"))
        if version.status == 200, let json = version.json, json["server"]?.stringValue != nil, json["api"]?.stringValue != nil {
            return json
        }
        if version.status == 401 {
            throw OctoPrintError.refused(
                401,
                printer.basicUser == nil
                    ? "something in front of OctoPrint asks for HTTP basic authentication; give basic_user and basic_password"
                    : "the basic-auth user or password in front of OctoPrint was refused")
        }
        if version.status == 403 {
            let probe = try await c.send(try await c.makeRequest(.GET, "/plugin/appkeys/probe", withKey: false))
            if probe.status == 204 { throw OctoPrintError.keyRefused(printer.name) }
            throw OctoPrintError.notOctoPrint(
                printer.url, "/api/version answered \(version.status) and /plugin/appkeys/probe answered \(probe.status)")
        }
        throw OctoPrintError.notOctoPrint(printer.url, "/api/version answered \(version.status) without OctoPrint's version fields")
    }

    /// Saves a checked printer: credentials to the vault, the record to the store, live watch on.
    func store(_ printer: Printer, apiKey: String, basicPassword: String?) async throws {
        var secrets = ["api_key": apiKey]
        if let basicPassword { secrets["basic_password"] = basicPassword }
        try await context.accounts.save(printer.name, settings: printer.settings, secrets: secrets)
        await startLive(printer)
    }

    func credentials(_ params: Params, name: String) async throws -> (apiKey: String, basicPassword: String?) {
        var apiKey = params[OctoPrintParams.apiKey]?.trimmingCharacters(in: .whitespacesAndNewlines)
        if apiKey?.isEmpty ?? true { apiKey = try await context.vault.get(Printer.keyName(name)) }
        guard let apiKey else {
            throw OctoPrintParams.newAPIKey.invalid("is required (or store it first: assistantctl vault set octoprint/\(name)/api_key)")
        }
        var basic = params[OctoPrintParams.basicPassword]
        if basic == nil { basic = try await context.vault.get(Printer.basicPasswordName(name)) }
        return (apiKey, basic)
    }

    func checkCAFile(_ params: Params) throws(RPCError) -> String? {
        guard let ca = params[OctoPrintParams.caFile] else { return nil }
        guard FileManager.default.isReadableFile(atPath: ca) else { throw OctoPrintParams.caFile.invalid("'\(ca)' cannot be read") }
        return ca
    }

    func printersAdd(_ params: Params) async throws -> PrinterSaved {
        let name = try PrinterStore.validName(try params[OctoPrintParams.newPrinter])
        let url = try PrinterStore.validURL(try params[OctoPrintParams.url])
        let existing = try await printers()
        if existing.contains(where: { $0.name == name }) { throw OctoPrintError.printerExists(name) }
        let printer = Printer(
            name: name, url: url, caFile: try checkCAFile(params), basicUser: params[OctoPrintParams.basicUser], isDefault: existing.isEmpty)
        let (apiKey, basic) = try await credentials(params, name: name)
        let version = try await verify(printer, apiKey: apiKey, basicPassword: basic)
        try await store(printer, apiKey: apiKey, basicPassword: basic)
        return PrinterSaved(printer: printer, octoprint: version)
    }

    func printersUpdate(_ params: Params) async throws -> PrinterSaved {
        let name = try params[OctoPrintParams.printerName]
        var printer = try PrinterStore.resolve(try await printers(), name)
        if let url = params[OctoPrintParams.newURL] { printer.url = try PrinterStore.validURL(url) }
        if params[OctoPrintParams.caFile] != nil { printer.caFile = try checkCAFile(params) }
        if let user = params[OctoPrintParams.basicUser] { printer.basicUser = user.isEmpty ? nil : user }
        if let stream = params[OctoPrintParams.streamURL] {
            printer.streamURL = try PrinterStore.webcamURL(stream, param: OctoPrintParams.streamURL.name)
        }
        if let snapshot = params[OctoPrintParams.snapshotURL] {
            printer.snapshotURL = try PrinterStore.webcamURL(snapshot, param: OctoPrintParams.snapshotURL.name)
        }
        let (apiKey, basic) = try await credentials(params, name: name)
        let version = try await verify(printer, apiKey: apiKey, basicPassword: basic)
        try await store(printer, apiKey: apiKey, basicPassword: basic)
        return PrinterSaved(printer: printer, octoprint: version)
    }

    func printersRemove(_ params: Params) async throws -> Removed {
        let printer = try PrinterStore.resolve(try await printers(), try params[OctoPrintParams.printerName])
        // Its credentials go with it; the only printer left becomes the default.
        try await context.accounts.remove(printer.name)
        await live.stop(printer.name)
        return Removed(printer.name)
    }

    func printersDefault(_ params: Params) async throws -> Printer {
        var printer = try PrinterStore.resolve(try await printers(), try params[OctoPrintParams.printerName])
        printer.isDefault = true
        try await context.accounts.setDefault(printer.name)
        return printer
    }

    /// Connection, printer and job in one answer; a disconnected printer is a state, not an error.
    func status(_ params: Params) async throws -> PrinterStatus {
        let c = try await client(params)
        async let connection = c.call(.GET, "/api/connection")
        async let job = c.call(.GET, "/api/job")
        let printerResponse = try await c.send(try await c.makeRequest(.GET, "/api/printer"))
        var printerJSON: JSONValue = .null
        if printerResponse.status != 409 {
            try c.check(printerResponse, conflict: .other)
            printerJSON = printerResponse.json ?? .null
        }
        let jobJSON = try await job.json ?? .null
        let connectionJSON = try await connection.json ?? .null
        return PrinterStatus(
            printer: c.printer.name, state: printerJSON["state"]?["text"] ?? jobJSON["state"] ?? .null,
            connected: printerResponse.status != 409, flags: printerJSON["state"]?["flags"] ?? .null,
            temperatures: printerJSON["temperature"] ?? .null, job: jobJSON["job"] ?? .null, progress: jobJSON["progress"] ?? .null,
            connection: connectionJSON["current"] ?? .null)
    }
}
