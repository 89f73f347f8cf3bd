/// Writes that a cancelled caller does not cut short.
extension DatabaseWriter {
    /// Like `write`, but runs to its commit even when the calling task is cancelled. GRDB's async
    /// `write` refuses to start, or interrupts, a cancelled task's transaction; that is right for
    /// a read someone gave up on, and wrong for a write whose cause has already happened: an
    /// account flipped to `needs_reauth` by a refresh whose sibling read failed first must still
    /// post its notice, since the flip never happens a second time to post it again.
    public func writeWhole<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            asyncWrite(updates) { _, result in continuation.resume(with: result) }
        }
    }
}
