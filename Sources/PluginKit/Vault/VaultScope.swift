/// A plugin's window on the vault: every name is relative to `<plugin>/`.
public struct VaultScope: Sendable {
    public let prefix: String
    let vault: any SecretStoring

    package init(pluginID: String, vault: any SecretStoring) {
        prefix = pluginID + "/"
        self.vault = vault
    }

    public func get(_ name: String) async throws -> String? { try await vault.get(prefix + name) }
    public func set(_ name: String, secret: String) async throws { try await vault.set(prefix + name, secret: secret) }
    @discardableResult public func delete(_ name: String) async throws -> Bool { try await vault.delete(prefix + name) }
    public func list() async throws -> [VaultEntryInfo] { try await vault.list(prefix: prefix) }
}
