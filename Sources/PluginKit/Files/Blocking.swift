import NIOPosix

/// Runs seconds-long CPU or blocking file work (parsing a 100 000-row import, drawing a PDF) on
/// NIO's shared thread pool, so it never holds one of the few cooperative threads that every
/// other call and the socket need. Cancellation before the work starts skips it.
public func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(work)
}
