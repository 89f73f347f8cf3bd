import Foundation

/// A command of the host's own, declared as a plugin declares one (typed `Param` keys, a typed
/// result, an effect), over the running host.
typealias HostCommand = PluginCommand<AssistantHost>

/// One of the host's methods: its command, and how the method table answers it. It goes through
/// the same manifest, validation and registry path as every plugin's commands, which is what
/// proves the registry.
struct HostMethod: Sendable {
    enum Answer: Sendable {
        /// By the command's handler, over the running host.
        case byHandler
        /// At once, on the event loop, with no child task and no host (`ping`); the same answer
        /// as the handler's.
        case atOnce(@Sendable (Params) throws -> JSONValue)
        /// From the finished method table (the manifests' own documents), made once the table is
        /// whole: it describes every method, itself included. The handler builds the same answer
        /// from the host's table on every call.
        case fromTable(@Sendable (MethodTable, _ version: String) -> MethodHandler)
    }

    let command: HostCommand
    let answer: Answer

    init(_ command: HostCommand, answer: Answer = .byHandler) {
        self.command = command
        self.answer = answer
    }

    var descriptor: CommandDescriptor { command.descriptor }
}

/// Every method of the host's own, declared by concern in the files beside this one.
enum HostMethods {
    static let all: [HostMethod] =
        DaemonMethods.all + JobMethods.all + VaultMethods.all + NoticeMethods.all + [BackupMethod.backup]
        + WebMethods.all

    /// Why a host method is never offered to an AI assistant (`CommandDescriptor.personOnly`).
    enum PersonOnly {
        static let vault = "the vault is kept by a person (assistantctl vault)"
        static let policy = "it is the policy itself"
        static let stream = "it streams notices to a connection"
        static let backup = "it copies the whole database"
        static let pairing = "a paired device reaches every method its role allows"
    }
}
