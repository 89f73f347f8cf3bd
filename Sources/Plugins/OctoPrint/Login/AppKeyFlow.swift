import Foundation
import PluginKit

/// OctoPrint's application-key flow (bundled appkeys plugin): ask for a key, tell the person
/// where to approve it, poll once a second as the protocol asks, and add the printer with the
/// granted key.
extension OctoPrintService {
    func requestKey(_ params: Params, call: CallContext) async throws -> PrinterGranted {
        let name = try PrinterStore.validName(try params[OctoPrintParams.keyPrinter])
        let url = try PrinterStore.validURL(try params[OctoPrintParams.keyURL])
        if try await printers().contains(where: { $0.name == name }) { throw OctoPrintError.printerExists(name) }
        let printer = Printer(name: name, url: url, caFile: try checkCAFile(params), basicUser: params[OctoPrintParams.basicUser], isDefault: false)
        let basic = params[OctoPrintParams.basicPassword]
        let c = OctoPrintClient(printer: printer, apiKey: nil, basicPassword: basic, http: context.http, timeout: context.httpTimeout)

        let probe = try await c.send(try await c.makeRequest(.GET, "/plugin/appkeys/probe", withKey: false))
        guard probe.status == 204 else {
            throw OctoPrintError.notOctoPrint(
                url, "/plugin/appkeys/probe answered \(probe.status): not OctoPrint, or its app keys plugin is disabled")
        }
        var body: [String: JSONValue] = ["app": .string(params[OctoPrintParams.app])]
        if let user = params[OctoPrintParams.approver] { body["user"] = .string(user) }
        let requested = try await c.call(.POST, "/plugin/appkeys/request", body: .object(body))
        guard let token = requested.json?["app_token"]?.stringValue else {
            throw OctoPrintError.refused(requested.status, "no app token in the answer")
        }
        let dialog = requested.json?["auth_dialog"]?.stringValue ?? url
        call.progress("approve the access request in OctoPrint (\(dialog))")

        let deadline = context.clock.now.addingTimeInterval(TimeInterval(params[OctoPrintParams.approvalTimeout]))
        while context.clock.now < deadline {
            try Task.checkCancellation()
            let poll = try await c.send(try await c.makeRequest(.GET, "/plugin/appkeys/request/\(REST.encoded(token))", withKey: false))
            switch poll.status {
            case 202:
                try await context.clock.sleep(for: .seconds(1))
            case 200:
                guard let key = poll.json?["api_key"]?.stringValue, !key.isEmpty else { throw OctoPrintError.refused(200, "no key in the answer") }
                let version = try await verify(printer, apiKey: key, basicPassword: basic)
                var saved = printer
                saved.isDefault = try await printers().isEmpty
                try await store(saved, apiKey: key, basicPassword: basic)
                return PrinterGranted(printer: saved, octoprint: version)
            case 404:
                throw OctoPrintError.accessDenied(name)
            default:
                try c.check(poll, conflict: .other)
            }
        }
        throw OctoPrintError.accessDenied(name)
    }
}
