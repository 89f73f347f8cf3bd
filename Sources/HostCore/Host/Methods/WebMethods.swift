import Foundation

/// The web app's paired devices: pairing a new one, listing, renaming and revoking them. The app
/// itself is served by the `WebApp` module; these are methods like any other, so the CLI and the
/// Settings page manage devices the same way.
enum WebMethods {
    static let all: [HostMethod] = [pair, devices, rename, revoke]

    static let pair = HostMethod(
        HostCommand(
            "web.pair", "A one-time address (10 minutes, one use) that pairs a phone or a browser with the web app",
            params: [HostParams.deviceName, HostParams.deviceRole], example: "assistantctl web.pair name=phone role=full", effect: .write
        ) { host, params, _ in
            let web = host.configuration.web
            guard web.enabled else {
                throw RPCError(
                    code: RPCErrorCode.conflict,
                    message: "The web app is off: set enabled = true under [web] in the configuration and restart the daemon")
            }
            let name = try deviceName(params[HostParams.deviceName], HostParams.deviceName)
            let role = WebDevices.Role(rawValue: params[HostParams.deviceRole]) ?? .read
            let (token, expires) = try await host.webDevices.pair(name: name, role: role)
            return PairingAddress(url: web.baseURL + "/pair/" + token, name: name, role: role, expiresAt: ISO8601.string(expires))
        }.says("Open this address on the device within 10 minutes; it pairs “{name}” ({role}) once:\n{url:link}")
            .personOnly(because: HostMethods.PersonOnly.pairing)
            .view(
                ResultView(fields: [
                    .init("url", "Address", .qr), .init("name", "Name"), .init("role", "Role"), .init("expires_at", "Expires", .when),
                ])))

    static let devices = HostMethod(
        HostCommand("web.devices", "The devices paired with the web app", effect: .read) { host, _, _ in
            Rows(try await host.webDevices.list().map(PairedDevice.init))
        }
        .view(
            ResultView(columns: [
                .init("id", "ID", .shortID), .init("name", "NAME"), .init("role", "ROLE"), .init("last_seen", "LAST SEEN", .when),
                .init("paired_at", "PAIRED", .when, optional: true),
            ])))

    static let rename = HostMethod(
        HostCommand("web.rename", "Renames a paired device", params: [HostParams.deviceID, HostParams.newDeviceName], effect: .write) {
            host, params, _ in
            let id = try await deviceID(host, try params[HostParams.deviceID])
            let name = try deviceName(try params[HostParams.newDeviceName], HostParams.newDeviceName)
            _ = try await host.webDevices.rename(id, to: name)
            return DeviceRenamed(id: id, name: name)
        }.says("Renamed {id:short} to “{name}”"))

    static let revoke = HostMethod(
        HostCommand(
            "web.revoke", "Ends a paired device's session at once, its live connections included", params: [HostParams.deviceID],
            effect: .destructive
        ) { host, params, _ in
            let id = try await deviceID(host, try params[HostParams.deviceID])
            _ = try await host.webDevices.revoke(id)
            return Removed(id)
        }.says("Revoked {removed:short}: it must be paired again to come back")
            .confirm("Revoke the device {id}? It must be paired again to come back."))

    /// A device's name: shown on pages and in lists, so one line of at most 64 characters.
    static func deviceName(_ name: String, _ param: some ParamDeclaration) throws(RPCError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(trimmed.count), !trimmed.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true }) else {
            throw RPCError.invalidParam(param.spec.name, "must be one line of 1 to 64 characters")
        }
        return trimmed
    }

    /// A device by its whole id or a unique start of it (at least 4 characters), as `web.devices` shows them.
    static func deviceID(_ host: AssistantHost, _ given: String) async throws -> String {
        let known = try await host.webDevices.list().map(\.id)
        let matching = known.filter { $0 == given } + (given.count >= 4 ? known.filter { $0 != given && $0.hasPrefix(given) } : [])
        guard let first = matching.first else { throw HostParams.deviceID.invalid("names no paired device ('\(given)'); see web.devices") }
        guard matching.count == 1 || matching[0] == given else {
            throw HostParams.deviceID.invalid("'\(given)' starts more than one device's id: \(matching.joined(separator: ", ")); give more of it")
        }
        return first
    }
}
