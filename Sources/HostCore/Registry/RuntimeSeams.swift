import Foundation

// The runtime's side of the seams the plugin kit declares (`PluginKit/Runtime.swift`).

extension NoticeCenter: NoticePosting {
    public func postDraft(_ draft: NoticeDraft) async throws -> Bool { try await post(draft) != nil }
}

extension JobScheduler: JobScheduling {}

extension Vault: SecretStoring {}
