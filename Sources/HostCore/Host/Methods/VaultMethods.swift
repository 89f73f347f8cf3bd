/// The vault: secrets stored, listed by name, deleted, and the key that guards them. A person
/// keeps it, never an AI assistant.
enum VaultMethods {
    static let all: [HostMethod] = [set, list, delete, status, unlock, lock, rekey]

    static let modeSchema = JSONSchema.enumeration(["keyfile", "passphrase"])

    static let set = HostMethod(
        HostCommand(
            "vault.set", "Store a secret (the CLI reads it from stdin or a prompt, never from argv)",
            params: [HostParams.vaultName, HostParams.secret], example: "assistantctl vault set host/smtp/password", effect: .write
        ) { host, params, _ in
            let name = try params[HostParams.vaultName]
            let scope = String(name.prefix { $0 != "/" })
            guard scope == "host" || host.supervisor(scope) != nil else {
                throw HostParams.vaultName.invalid(
                    "must start with 'host/' or a plugin id (\(host.supervisors.map(\.id).joined(separator: ", "))), got '\(name)'")
            }
            let secret = try params[HostParams.secret]
            if name.hasPrefix("host/webhook/"), name.hasSuffix("/secret"), secret.utf8.count < AssistantHost.minimumWebhookSecretBytes {
                throw HostParams.secret.invalid(
                    "a webhook secret needs at least \(AssistantHost.minimumWebhookSecretBytes) bytes (e.g. openssl rand -hex 32)")
            }
            try await vaultCall { try await host.vault.set(name, secret: secret) }
            await host.supervisor(scope)?.credentialsChanged()
            return VaultStored(name: name)
        }.says("Stored the secret {name} in the vault")
            .personOnly(because: HostMethods.PersonOnly.vault))

    static let list = HostMethod(
        HostCommand("vault.list", "Vault entry names and timestamps (never values)", params: [HostParams.prefix], effect: .read) { host, params, _ in
            Rows(try await vaultCall { try await host.vault.list(prefix: params[HostParams.prefix]) })
        }
        .personOnly(because: HostMethods.PersonOnly.vault)
        .view(
            ResultView(columns: [
                .init("name", "NAME"), .init("updated_at", "UPDATED", .when), .init("created_at", "CREATED", .when, optional: true),
            ])))

    static let delete = HostMethod(
        HostCommand("vault.delete", "Delete a vault entry", params: [HostParams.entryName], effect: .destructive) { host, params, _ in
            let name = try params[HostParams.entryName]
            guard try await vaultCall({ try await host.vault.delete(name) }) else {
                throw HostParams.entryName.invalid("names no vault entry ('\(name)'); see 'vault.list'")
            }
            return VaultDeleted(name: name)
        }.says("Deleted the vault entry {name}")
            .personOnly(because: HostMethods.PersonOnly.vault))

    static let status = HostMethod(
        HostCommand("vault.status", "Whether the vault is locked, and its key mode", effect: .read) { host, _, _ in
            let entries = try await host.vault.list(prefix: nil).count
            return VaultStatusResult(mode: await host.vault.mode, locked: await host.vault.isLocked, entries: entries)
        }
        .personOnly(because: HostMethods.PersonOnly.vault))

    static let unlock = HostMethod(
        HostCommand(
            "vault.unlock", "Unlock a passphrase vault (the first unlock sets the passphrase)", params: [HostParams.passphrase], effect: .write
        ) { host, params, _ in
            let passphrase = try params[HostParams.passphrase]
            try await vaultCall { try await host.vault.unlock(passphrase: passphrase) }
            for supervisor in host.supervisors { await supervisor.credentialsChanged() }
            return VaultUnlocked()
        }.says("Unlocked the vault")
            .personOnly(because: HostMethods.PersonOnly.vault))

    static let lock = HostMethod(
        HostCommand("vault.lock", "Forget the key of a passphrase vault until the next unlock", effect: .write) { host, _, _ in
            try await vaultCall { try await host.vault.lock() }
            return VaultLocked()
        }.says("Locked the vault until the next unlock")
            .personOnly(because: HostMethods.PersonOnly.vault))

    static let rekey = HostMethod(
        HostCommand(
            "vault.rekey", "Re-encrypt every entry under a new key (a new key file, or a new passphrase)", params: [HostParams.newPassphrase],
            effect: .write
        ) { host, params, _ in
            try await vaultCall { try await host.vault.rekey(newPassphrase: params[HostParams.newPassphrase]) }
            return VaultRekeyed(rekeyed: try await host.vault.list(prefix: nil).count)
        }.says("Re-encrypted {rekeyed} vault entries under the new key")
            .personOnly(because: HostMethods.PersonOnly.vault))

    /// A vault failure as the error a caller reads.
    static func vaultCall<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as VaultError {
            switch error {
            case .locked:
                throw RPCError(code: RPCErrorCode.vaultLocked, message: "The vault is locked; run 'assistantctl vault unlock'")
            case .wrongPassphrase:
                throw HostParams.passphrase.invalid("does not unlock the vault")
            case .notPassphraseMode:
                throw RPCError(code: RPCErrorCode.conflict, message: "The vault uses a key file, not a passphrase (vault.mode = \"keyfile\")")
            case .invalidName(_, let reason):
                throw HostParams.vaultName.invalid(reason)
            default:
                throw RPCError(code: RPCErrorCode.internalError, message: "Vault error: \(error.description)")
            }
        }
    }
}
