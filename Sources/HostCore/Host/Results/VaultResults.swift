/// `vault.set`: the name stored (never the value).
struct VaultStored: CallResult, ResultObject {
    let name: String
    let stored = true

    static let members = ResultMembers<Self>(.field("name", \.name), .field("stored", \.stored, .constant(true)))
}

/// `vault.delete`: the name deleted.
struct VaultDeleted: CallResult, ResultObject {
    let name: String
    let deleted = true

    static let members = ResultMembers<Self>(.field("name", \.name), .field("deleted", \.deleted, .constant(true)))
}

/// `vault.status`.
struct VaultStatusResult: CallResult, ResultObject {
    let mode: String
    let locked: Bool
    let entries: Int

    static let members = ResultMembers<Self>(
        .field("mode", \.mode, VaultMethods.modeSchema), .field("locked", \.locked), .field("entries", \.entries))
}

/// `vault.unlock`.
struct VaultUnlocked: CallResult, ResultObject {
    let locked = false

    static let members = ResultMembers<Self>(.field("locked", \.locked, .constant(false)))
}

/// `vault.lock`.
struct VaultLocked: CallResult, ResultObject {
    let locked = true

    static let members = ResultMembers<Self>(.field("locked", \.locked, .constant(true)))
}

/// `vault.rekey`.
struct VaultRekeyed: CallResult, ResultObject {
    let rekeyed: Int

    static let members = ResultMembers<Self>(.field("rekeyed", \.rekeyed, "entries re-encrypted"))
}
