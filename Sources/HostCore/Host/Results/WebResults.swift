import Foundation

/// `web.pair`: the address to open on the device.
struct PairingAddress: CallResult, ResultObject {
    let url: String
    let name: String
    let role: WebDevices.Role
    let expiresAt: String

    static let members = ResultMembers<Self>(
        .field("url", \.url, "open it on the device: it pairs once, within 10 minutes"), .field("name", \.name), .field("role", \.role),
        .field("expires_at", \.expiresAt, .dateTime))
}

/// One of `web.devices`.
struct PairedDevice: ResultObject {
    let id: String
    let name: String
    let role: WebDevices.Role
    let pairedAt: String
    let lastSeen: String?

    init(_ device: WebDevices.Device) {
        (id, name, role) = (device.id, device.name, device.role)
        pairedAt = ISO8601.string(device.pairedAt)
        lastSeen = device.lastSeen.map(ISO8601.string)
    }

    static let members = ResultMembers<Self>(
        .field("id", \.id), .field("name", \.name), .field("role", \.role), .field("paired_at", \.pairedAt, .dateTime),
        .field("last_seen", \.lastSeen, .dateTime))
}

/// `web.rename`.
struct DeviceRenamed: CallResult, ResultObject {
    let id: String
    let name: String

    static let members = ResultMembers<Self>(.field("id", \.id), .field("name", \.name))
}
