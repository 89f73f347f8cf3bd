import Foundation

/// `backup`: a consistent copy of the database, written while the daemon runs.
enum BackupMethod {
    struct Written: CallResult, ResultObject {
        let path: String
        let bytes: Int

        static let members = ResultMembers<Self>(.field("path", \.path), .field("bytes", \.bytes))
    }

    static let backup = HostMethod(
        HostCommand(
            "backup", "Write a consistent copy of the database while the daemon runs", params: [HostParams.backupPath, HostParams.overwrite],
            example: "assistantctl backup path=backup.sqlite", timeout: .seconds(3600), effect: .write, typed: write
        ).says("Backed up the database to {path} ({bytes:bytes})")
            .destructive(when: .equals(HostParams.overwrite, true))
            .personOnly(because: HostMethods.PersonOnly.backup))

    static func write(_ host: AssistantHost, _ params: Params, _: CallContext) async throws -> Written {
        let path = try params[HostParams.backupPath]
        try FileOutput.checkTarget(path, param: HostParams.backupPath.name, overwrite: params[HostParams.overwrite])
        // A whole-database copy: on NIO's thread pool, not a cooperative thread.
        let store = host.store
        do { try await runBlocking { try store.backup(to: path) } } catch {
            throw RPCError(code: RPCErrorCode.internalError, message: "Backup failed: \(ErrorText.sentence(error))", data: ["path": .string(path)])
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Written(path: path, bytes: size)
    }
}
