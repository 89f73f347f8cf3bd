import GRDB

extension DatabasePool {
    /// Two reads of one committed state, each on a reader connection of its own, run at once: for
    /// a hot read whose two halves are independent (the agenda's candidate items and its
    /// occurrence index). Two plain `read`s would each see the state of their own moment, and a
    /// write between them could show an item twice or not at all.
    ///
    /// GRDB's `asyncConcurrentRead`, called on the writer's queue, returns once its read sees
    /// the state committed at that moment; the writer is held only until both reads have started.
    public func readsOfOneState<A: Sendable, B: Sendable>(
        _ first: @escaping @Sendable (Database) throws -> A, _ second: @escaping @Sendable (Database) throws -> B
    ) async throws -> (A, B) {
        let (firstResult, firstDone) = AsyncStream<Result<A, any Error>>.makeStream()
        let (secondResult, secondDone) = AsyncStream<Result<B, any Error>>.makeStream()
        try await writeWithoutTransaction { _ in
            self.asyncConcurrentRead { db in
                firstDone.yield(Result { try first(db.get()) })
                firstDone.finish()
            }
            self.asyncConcurrentRead { db in
                secondDone.yield(Result { try second(db.get()) })
                secondDone.finish()
            }
        }
        // Each stream yields exactly once; nothing yielded means the read never ran (its task was cancelled).
        var firstIterator = firstResult.makeAsyncIterator()
        var secondIterator = secondResult.makeAsyncIterator()
        guard let a = await firstIterator.next(), let b = await secondIterator.next() else { throw CancellationError() }
        return (try a.get(), try b.get())
    }
}
